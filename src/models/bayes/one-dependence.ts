/**
 * The one-dependence engine behind spode and aode (seed 002 §半朴素贝叶斯, the book's 7.4):
 * every attribute depends on the class and on one super-parent attribute x_p,
 *
 *   P(c | x) ∝ Σ_{p eligible} P̂(c, x_p) · Π_{j ≠ p} P̂(x_j | c, x_p)
 *   P̂(c, x_p)       = (N(c, x_p) + α) / (N_p + α · K · L_p)
 *   P̂(x_j | c, x_p) = (N(c, x_p, x_j) + α) / (N(c, x_p; j) + α · L_j)
 *
 * with the book's N (= K classes) and N_i (= L_i levels) and α = 1 its Laplace correction.
 * N_p counts the rows where x_p is present, N(c, x_p; j) those where x_j is present too —
 * without missing values these are the book's |D| and |D_{c,x_p}|. A SPODE has one
 * super-parent; AODE averages (sums) over every attribute whose value in the row occurs
 * at least m times in the training rows. A row with no eligible super-parent (its
 * super-parent missing, or every value rarer than m) falls back to naive Bayes with the
 * same counts and correction, as Webb et al.'s AODE does. A missing x_j contributes no factor.
 *
 * Counting is O(n · P · d) for P super-parents (AODE: O(n d²)); the table holds
 * Σ_p Σ_{j≠p} K · L_p · L_j counts; predicting a row is O(P · d · K).
 */
import { z } from "zod";
import type { FitContext } from "../contract.js";
import { throwIfAborted } from "../contract.js";
import { f64, i32, structural } from "../state-schemas.js";
import type { Coded, prepare } from "./coded.js";
import { checkCoded, checkCounts, checkOffsets, codedShape, conditionalLogs, MAX_TABLE_ENTRIES, offsetsOf } from "./coded.js";

const shape = z
  .object({
    ...codedShape,
    /** The attributes that may be super-parents (AODE: all; SPODE: the chosen one). */
    parents: i32,
    /** A super-parent value must occur at least m times in the training rows. */
    m: z.number().min(0),
    /** Block (q, j) — parent parents[q], child j — of K × L_p × L_j counts starts at pair_offset[q · d + j]; empty for j = p. */
    pair_offset: i32,
    pair: f64,
    /** SPODE chosen by cross-validation: each attribute's held-out conditional log-likelihood as super-parent; else empty. */
    cv_log_likelihood: f64,
  })
  .strict();

export type OneDependenceState = z.infer<typeof shape>;

export const oneDependenceStateSchema = shape.superRefine(
  structural<OneDependenceState>((s, report) => {
    if (!checkCoded(s, report, false)) return;
    const d = s.features.length;
    const K = s.classes.length;
    for (let q = 0; q < s.parents.length; q++) {
      if (!(s.parents[q] >= 0 && s.parents[q] < d) || (q > 0 && s.parents[q] <= s.parents[q - 1])) {
        report(`parents must be increasing feature indices`, ["parents", q]);
        return;
      }
    }
    const size = (b: number) => {
      const p = s.parents[Math.floor(b / d)];
      const j = b % d;
      return j === p ? 0 : K * s.levels[p] * s.levels[j];
    };
    if (!checkOffsets(s.pair_offset, size, s.parents.length * d, s.pair.length, "pair_offset", report) || !checkCounts(s.pair, "pair", report)) return;
    if (s.cv_log_likelihood.length !== 0 && s.cv_log_likelihood.length !== d) report("cv_log_likelihood needs one entry per feature or none", ["cv_log_likelihood"]);
  }),
);

/** Joint counts N(c, x_p = u, x_j = v) for each parent p and child j ≠ p, over the rows `rows` (all when null). */
export function countPairs(coded: Coded, levels: Int32Array, y: Int32Array, w: Float64Array | undefined, K: number, parents: Int32Array, ctx: FitContext, rows: Int32Array | null = null) {
  const d = levels.length;
  const sizes = new Float64Array(parents.length * d);
  for (let q = 0; q < parents.length; q++) for (let j = 0; j < d; j++) sizes[q * d + j] = j === parents[q] ? 0 : K * levels[parents[q]] * levels[j];
  const pair_offset = offsetsOf(sizes, MAX_TABLE_ENTRIES, "the attribute-pair table");
  const pair = new Float64Array(pair_offset[pair_offset.length - 1]);
  const m = rows ? rows.length : coded.n;
  // Pair by pair, rows inner: two code columns read in order, writes into one small block.
  for (let q = 0; q < parents.length; q++) {
    throwIfAborted(ctx.signal);
    const p = parents[q];
    const cp = coded.codes[p] as Int32Array;
    const Lp = levels[p];
    for (let j = 0; j < d; j++) {
      if (j === p) continue;
      const cj = coded.codes[j] as Int32Array;
      const Lj = levels[j];
      const off = pair_offset[q * d + j];
      for (let r = 0; r < m; r++) {
        const i = rows ? rows[r] : r;
        const u = cp[i];
        const v = cj[i];
        if (u < 0 || v < 0) continue;
        pair[off + (y[i] * Lp + u) * Lj + v] += w ? w[i] : 1;
      }
    }
  }
  return { pair_offset, pair };
}

/** The logs predict needs, derived once per state. */
export interface Compiled {
  readonly K: number;
  readonly d: number;
  /** Naive Bayes fallback: log P̂(c) and per attribute K × L log P̂(x_j | c). */
  readonly logPrior: Float64Array;
  readonly logSingle: Float64Array[];
  /** Per parent q: K × L_p log P̂(c, x_p), and the weight of each level of x_p (for m). */
  readonly logJoint: Float64Array[];
  readonly levelWeight: Float64Array[];
  /** Per parent q and child j: K × L_p × L_j log P̂(x_j | c, x_p) (empty for j = p). */
  readonly logPair: Float64Array[];
}

const compiled = new WeakMap<object, Compiled>();

type Model = Pick<OneDependenceState, "classes" | "levels" | "alpha" | "class_count" | "single_offset" | "single" | "parents" | "pair_offset" | "pair">;

export function compile(s: Model): Compiled {
  let c = compiled.get(s);
  if (c) return c;
  const K = s.classes.length;
  const d = s.levels.length;
  const a = s.alpha;
  let total = 0;
  for (let k = 0; k < K; k++) total += s.class_count[k];
  const logPrior = Float64Array.from(s.class_count, (n) => Math.log((n + a) / (total + a * K)));
  const logSingle = Array.from({ length: d }, (_, j) => conditionalLogs(s.single, s.single_offset[j], K, s.levels[j], a));
  const logJoint: Float64Array[] = [];
  const levelWeight: Float64Array[] = [];
  const logPair: Float64Array[] = [];
  for (let q = 0; q < s.parents.length; q++) {
    const p = s.parents[q];
    const Lp = s.levels[p];
    const off = s.single_offset[p];
    const weight = new Float64Array(Lp);
    let present = 0;
    for (let t = 0; t < K * Lp; t++) {
      weight[t % Lp] += s.single[off + t];
      present += s.single[off + t];
    }
    const denom = present + a * K * Lp;
    logJoint.push(Float64Array.from({ length: K * Lp }, (_, t) => (denom > 0 ? Math.log((s.single[off + t] + a) / denom) : -Math.log(K * Lp))));
    levelWeight.push(weight);
    for (let j = 0; j < d; j++) logPair.push(j === p ? new Float64Array(0) : conditionalLogs(s.pair, s.pair_offset[q * d + j], K * Lp, s.levels[j], a));
  }
  c = { K, d, logPrior, logSingle, logJoint, levelWeight, logPair };
  compiled.set(s, c);
  return c;
}

/** Naive Bayes log scores of row i into out[0..K). */
function naiveScores(c: Compiled, codes: readonly (Int32Array | null)[], levels: Int32Array, i: number, out: Float64Array, at: number): void {
  const K = c.K;
  for (let k = 0; k < K; k++) out[at + k] = c.logPrior[k];
  for (let j = 0; j < c.d; j++) {
    const v = (codes[j] as Int32Array)[i];
    if (v < 0) continue;
    const L = levels[j];
    const t = c.logSingle[j];
    for (let k = 0; k < K; k++) out[at + k] += t[k * L + v];
  }
}

/**
 * Joint log scores (row-major n × K) of the rows of `coded` under the super-parents
 * `use` (indices into s.parents; each row uses those that are eligible for it).
 */
export function oneDependenceScores(s: Model, coded: Coded, m: number, use: Int32Array, rows: Int32Array | null = null): Float64Array<ArrayBuffer> {
  const c = compile(s);
  const K = c.K;
  const d = c.d;
  const n = rows ? rows.length : coded.n;
  const out = new Float64Array(n * K);
  const per = new Float64Array(use.length * K);
  const codes = coded.codes;
  for (let r = 0; r < n; r++) {
    const i = rows ? rows[r] : r;
    let eligible = 0;
    for (let e = 0; e < use.length; e++) {
      const q = use[e];
      const p = s.parents[q];
      const u = (codes[p] as Int32Array)[i];
      if (u < 0 || c.levelWeight[q][u] < m) continue;
      const Lp = s.levels[p];
      const at = eligible * K;
      const joint = c.logJoint[q];
      for (let k = 0; k < K; k++) per[at + k] = joint[k * Lp + u];
      for (let j = 0; j < d; j++) {
        if (j === p) continue;
        const v = (codes[j] as Int32Array)[i];
        if (v < 0) continue;
        const Lj = s.levels[j];
        const t = c.logPair[q * d + j];
        for (let k = 0; k < K; k++) per[at + k] += t[(k * Lp + u) * Lj + v];
      }
      eligible++;
    }
    if (eligible === 0) {
      naiveScores(c, codes, s.levels, i, out, r * K);
      continue;
    }
    // Σ over super-parents in probability space, kept in logs: log Σ_e exp(per[e]).
    for (let k = 0; k < K; k++) {
      let max = -Infinity;
      for (let e = 0; e < eligible; e++) if (per[e * K + k] > max) max = per[e * K + k];
      let sum = 0;
      for (let e = 0; e < eligible; e++) sum += Math.exp(per[e * K + k] - max);
      out[r * K + k] = max + Math.log(sum);
    }
  }
  return out;
}

/** A fitted one-dependence model (aode's every parent, spode's one): the prepared table's facts and the counts of `parents`. */
export function oneDependenceState(prep: ReturnType<typeof prepare>, alpha: number, parents: Int32Array<ArrayBuffer>, m: number, cvLogLikelihood: Float64Array<ArrayBuffer>, ctx: FitContext): OneDependenceState {
  const pairs = countPairs(prep.coded, prep.cut.levels, prep.y, prep.w, prep.K, parents, ctx);
  return {
    classes: prep.classes,
    features: prep.cut.schema,
    levels: prep.cut.levels,
    edge_offset: prep.cut.edge_offset,
    edges: prep.cut.edges,
    alpha,
    class_count: prep.class_count,
    single_offset: prep.single_offset,
    single: prep.single,
    parents,
    m,
    ...pairs,
    cv_log_likelihood: cvLogLikelihood,
  };
}
