/**
 * bayes_net structure: edges given by the request, or learned by greedy hill climbing
 * on the BIC or K2 score (add, remove or reverse one edge at a time, best improvement first,
 * at most max_parents parents per variable, acyclic), starting from the empty graph.
 * Family scores use the rows where the family is complete (available-case), so missing
 * values never enter the search; EM then fits the parameters on every row.
 *   BIC(v | pa) = Σ_{j,k} N_jk log(N_jk / N_j) − ½ log(N) · (L_v − 1) · Π L_pa
 *   K2(v | pa)  = Σ_j [ log Γ(L_v) − log Γ(N_j + L_v) + Σ_k log Γ(N_jk + 1) ]  (Cooper & Herskovits,
 *                 the log marginal likelihood under uniform Dirichlet priors)
 * Each step scores O(V²) candidate moves; family scores are cached, one O(n) count each.
 */
import type { FitContext } from "../contract.js";
import { throwIfAborted, UnusableInputError } from "../contract.js";
import { groupDigits } from "../../data/group-digits.js";

/** Variables' codes (-1 = missing; the class is the last variable), cardinalities, weights. */
export interface Data {
  readonly n: number;
  readonly codes: readonly Int32Array[];
  readonly card: Int32Array;
  readonly w: Float64Array | undefined;
}

/** Largest CPT one family may have: larger ones are never proposed. */
export const MAX_FAMILY_TABLE = 1 << 20;

export type StructureScore = "bic" | "k2";

/** log Γ(x) for x > 0 (Lanczos, g = 7, 9 terms: about 15 significant digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  const z = x - 1;
  let a = c[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

export function familyScore(data: Data, v: number, parents: readonly number[], kind: StructureScore = "bic"): number {
  const L = data.card[v];
  let configs = 1;
  for (const p of parents) configs *= data.card[p];
  const counts = new Float64Array(configs * L);
  let total = 0;
  for (let i = 0; i < data.n; i++) {
    const x = data.codes[v][i];
    if (x < 0) continue;
    let config = 0;
    let complete = true;
    for (const p of parents) {
      const u = data.codes[p][i];
      if (u < 0) {
        complete = false;
        break;
      }
      config = config * data.card[p] + u;
    }
    if (!complete) continue;
    const wi = data.w ? data.w[i] : 1;
    counts[config * L + x] += wi;
    total += wi;
  }
  if (kind === "k2") {
    let k2 = 0;
    for (let c = 0; c < configs; c++) {
      let nj = 0;
      for (let k = 0; k < L; k++) {
        nj += counts[c * L + k];
        k2 += logGamma(counts[c * L + k] + 1);
      }
      k2 += logGamma(L) - logGamma(nj + L);
    }
    return k2;
  }
  let ll = 0;
  for (let c = 0; c < configs; c++) {
    let nj = 0;
    for (let k = 0; k < L; k++) nj += counts[c * L + k];
    for (let k = 0; k < L; k++) if (counts[c * L + k] > 0) ll += counts[c * L + k] * Math.log(counts[c * L + k] / nj);
  }
  return ll - 0.5 * Math.log(Math.max(total, 1)) * (L - 1) * configs;
}

/** Whether `to` is reachable from `from` along directed edges. */
function reaches(parents: number[][], from: number, to: number): boolean {
  // Walk the children relation backwards: from `to` up through parents looking for `from`.
  const seen = new Uint8Array(parents.length);
  const stack = [to];
  while (stack.length) {
    const v = stack.pop() as number;
    if (v === from) return true;
    if (seen[v]) continue;
    seen[v] = 1;
    for (const p of parents[v]) stack.push(p);
  }
  return false;
}

export function hillClimb(data: Data, maxParents: number, maxIter: number, ctx: FitContext, kind: StructureScore = "bic"): number[][] {
  const V = data.card.length;
  const parents: number[][] = Array.from({ length: V }, () => []);
  const cache = new Map<string, number>();
  const score = (v: number, pa: number[]) => {
    const sorted = [...pa].sort((a, b) => a - b);
    const key = `${v}|${sorted.join(",")}`;
    let s = cache.get(key);
    if (s === undefined) {
      s = familyScore(data, v, sorted, kind);
      cache.set(key, s);
    }
    return s;
  };
  const tableSize = (v: number, pa: number[]) => pa.reduce((a, p) => a * data.card[p], data.card[v]);
  for (let iter = 0; iter < maxIter; iter++) {
    throwIfAborted(ctx.signal);
    let best = 1e-9;
    let move: (() => void) | null = null;
    for (let u = 0; u < V; u++) {
      for (let v = 0; v < V; v++) {
        if (u === v) continue;
        const has = parents[v].includes(u);
        if (!has) {
          // Add u → v: v must not already reach u.
          if (parents[v].length >= maxParents || tableSize(v, [...parents[v], u]) > MAX_FAMILY_TABLE || reaches(parents, v, u)) continue;
          const delta = score(v, [...parents[v], u]) - score(v, parents[v]);
          if (delta > best) {
            best = delta;
            move = () => parents[v].push(u);
          }
          continue;
        }
        const without = parents[v].filter((p) => p !== u);
        const removeDelta = score(v, without) - score(v, parents[v]);
        if (removeDelta > best) {
          best = removeDelta;
          move = () => (parents[v] = without);
        }
        // Reverse u → v into v → u: without the edge, u must not reach v … i.e. no other path u ⇝ v.
        if (parents[u].length >= maxParents || tableSize(u, [...parents[u], v]) > MAX_FAMILY_TABLE) continue;
        const saved = parents[v];
        parents[v] = without;
        const cyclic = reaches(parents, u, v);
        parents[v] = saved;
        if (cyclic) continue;
        const delta = removeDelta + score(u, [...parents[u], v]) - score(u, parents[u]);
        if (delta > best) {
          best = delta;
          move = () => {
            parents[v] = without;
            parents[u] = [...parents[u], v];
          };
        }
      }
    }
    if (!move) break;
    move();
  }
  return parents.map((p) => [...p].sort((a, b) => a - b));
}

/** Parents per variable from named edges ("$class" names the class); refuses cycles, unknown names and too many parents. */
export function givenStructure(edges: readonly (readonly [string, string])[], names: readonly string[], card: Int32Array, maxParents: number): number[][] {
  const V = names.length;
  const parents: number[][] = Array.from({ length: V }, () => []);
  const index = (name: string) => {
    const i = names.indexOf(name);
    if (i < 0) throw new UnusableInputError(`edge names ${name}, which is neither a feature nor "$class"`);
    return i;
  };
  for (const [a, b] of edges) {
    const u = index(a);
    const v = index(b);
    if (u === v) throw new UnusableInputError(`edge ${a} → ${b} is a loop`);
    if (parents[v].includes(u)) continue;
    if (reaches(parents, v, u)) throw new UnusableInputError(`edge ${a} → ${b} closes a cycle`);
    parents[v].push(u);
    if (parents[v].length > maxParents) throw new UnusableInputError(`${b} has more than max_parents (${maxParents}) parents`);
    if (parents[v].reduce((s, p) => s * card[p], card[v]) > MAX_FAMILY_TABLE) throw new UnusableInputError(`the table of ${b} given its parents would exceed ${groupDigits(MAX_FAMILY_TABLE)} entries`);
  }
  return parents.map((p) => [...p].sort((x, y) => x - y));
}
