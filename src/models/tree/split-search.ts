/**
 * Best split of one node on one feature, for every criterion of the seeds.
 *
 * With missing values (seed 000 §4.2) a feature is judged on D̃, the rows where it
 * is known: gain = ρ · Δ(D̃), ρ = w(D̃)/w(D). Each candidate carries
 * - `gain`: the impurity decrease ρ·Δ (bits for the entropy criteria), what is maximised;
 * - `score`: the number the seeds print for the criterion — info gain, gain ratio
 *   (gain / IV, IV over the known rows' branch shares), or for gini_index and mse the
 *   impurity after the split, impurity(D) − gain (equal to the textbook's Σ r̃·Gini(D̃ᵛ)
 *   when nothing is missing; lower is better).
 * Numeric features are bi-partitioned at midpoints of consecutive distinct values.
 * Categorical features split multiway (one branch per level of the feature,
 * empty branches included, as TreeGenerate does) or binary: for two classes or a
 * regression target the levels are ordered by class-1 share / mean and only the
 * L−1 cuts of that order are tried (exact for these impurities, Breiman et al.);
 * otherwise each level against the rest.
 * Ties: within a feature the lowest threshold (or first cut) wins.
 */
import type { Arena, NodeRange, SplitRule, TreeTarget } from "./arena.js";
import type { ImpurityKind } from "./impurity.js";
import { impurityOf, intrinsicValue, xlogx } from "./impurity.js";
import type { TreeColumns } from "./tree-columns.js";
import type { Criterion } from "./tree-state.js";
import { CATEGORICAL, THRESHOLD } from "./tree-state.js";

export interface Candidate {
  readonly feature: number;
  readonly gain: number;
  readonly score: number;
  readonly ratio: number;
  /** NaN unless the feature is numeric. */
  readonly threshold: number;
  readonly rule: SplitRule;
}

export interface SearchOptions {
  readonly criterion: Criterion;
  readonly categoricalSplit: "multiway" | "binary";
  readonly minSamplesLeaf: number;
}

/** Threshold between two consecutive distinct values; rounding (or an infinity) must not move a value across it. */
export function midpoint(v: number, vNext: number): number {
  const t = v / 2 + vNext / 2;
  return t < vNext && t >= v ? t : v;
}

export function impurityKindOf(c: Criterion): ImpurityKind {
  return c === "gini_index" ? "gini" : c === "mse" ? "variance" : "entropy";
}

/** Reusable scratch for one fit. */
export class SplitSearch {
  readonly impurity: ImpurityKind;
  private readonly S: number;
  private readonly tot: Float64Array;
  private readonly miss: Float64Array;
  private readonly left: Float64Array;
  private readonly bestLeft: Float64Array;
  private readonly right: Float64Array;
  private readonly levelStats: Float64Array;
  private readonly levelW: Float64Array;
  private readonly levelN: Int32Array;

  constructor(
    private readonly cols: TreeColumns,
    private readonly target: TreeTarget,
    private readonly opts: SearchOptions,
  ) {
    this.impurity = impurityKindOf(opts.criterion);
    this.S = target.S;
    const maxLevels = Math.max(1, ...Array.from(cols.nLevels));
    this.tot = new Float64Array(this.S);
    this.miss = new Float64Array(this.S);
    this.left = new Float64Array(this.S);
    this.bestLeft = new Float64Array(this.S);
    this.right = new Float64Array(this.S);
    this.levelStats = new Float64Array(maxLevels * this.S);
    this.levelW = new Float64Array(maxLevels);
    this.levelN = new Int32Array(maxLevels);
  }

  /** `nodeStats`/`nodeW`/`nodeImpurity` describe every slot of the node, missing ones included. */
  evaluate(range: NodeRange, f: number, nodeStats: Float64Array, nodeW: number, nodeImpurity: number): Candidate | null {
    if (this.cols.num[f]) return this.numeric(range, f, nodeStats, nodeW, nodeImpurity);
    return this.categorical(range, f, nodeStats, nodeW, nodeImpurity);
  }

  private addSlot(out: Float64Array, off: number, arena: Arena, s: number): void {
    const wi = arena.w[s];
    if (arena.yc) out[off + arena.yc[s]] += wi;
    else {
      const y = (arena.yr as Float64Array)[s];
      out[off] += wi;
      out[off + 1] += wi * y;
      out[off + 2] += wi * y * y;
    }
  }

  private imp(stats: Float64Array, off: number, total: number): number {
    return impurityOf(this.impurity, stats, off, this.target.K, total);
  }

  private finish(f: number, delta: number, rho: number, iv: number, nodeImpurity: number, rule: SplitRule, threshold: number): Candidate {
    const gain = rho * Math.max(0, delta);
    const ratio = iv > 0 ? gain / iv : 0;
    const c = this.opts.criterion;
    const score = c === "info_gain" ? gain : c === "gain_ratio" ? ratio : nodeImpurity - gain;
    return { feature: f, gain, score, ratio, threshold, rule };
  }

  private numeric(range: NodeRange, f: number, nodeStats: Float64Array, nodeW: number, nodeImpurity: number): Candidate | null {
    const { arena, start, end } = range;
    const list = arena.sorted[f] as Int32Array;
    const values = arena.sortedValues[f] as Float64Array;
    const { w } = arena;
    const { tot, miss } = this;
    miss.fill(0);
    let missW = 0;
    let endKnown = end;
    while (endKnown > start && Number.isNaN(values[endKnown - 1])) {
      endKnown--;
      this.addSlot(miss, 0, arena, list[endKnown]);
      missW += w[list[endKnown]];
    }
    const known = endKnown - start;
    const msl = this.opts.minSamplesLeaf;
    if (known < 2 || known < 2 * msl) return null;
    for (let k = 0; k < this.S; k++) tot[k] = nodeStats[k] - miss[k];
    const Wt = missW > 0 ? nodeW - missW : nodeW;
    if (!(Wt > 0)) return null;

    const at = this.target.yc
      ? this.impurity === "gini"
        ? this.scanGini(arena, list, arena.sortedClass[f] as Int32Array, start, endKnown, values, Wt)
        : this.scanEntropy(arena, list, arena.sortedClass[f] as Int32Array, start, endKnown, values, Wt)
      : this.scanVariance(arena, list, arena.sortedTarget[f] as Float64Array, start, endKnown, values, Wt);
    if (at < 0) return null;

    const { bestLeft, right } = this;
    let WL = 0;
    if (this.target.yc) for (let k = 0; k < this.S; k++) WL += bestLeft[k];
    else WL = bestLeft[0];
    for (let k = 0; k < this.S; k++) right[k] = tot[k] - bestLeft[k];
    const WR = Wt - WL;
    const delta = this.imp(tot, 0, Wt) - (WL / Wt) * this.imp(bestLeft, 0, WL) - (WR / Wt) * this.imp(right, 0, WR);
    const v = values[at];
    const vNext = values[at + 1];
    const threshold = midpoint(v, vNext);
    const rule: SplitRule = { kind: THRESHOLD, feature: f, threshold, nBranches: 2, levelMap: null, weights: null };
    return this.finish(f, delta, Wt / nodeW, intrinsicValue([WL, WR], 2, Wt), nodeImpurity, rule, threshold);
  }

  /** Position of the best cut (last slot of the left side) or -1; leaves its left statistics in bestLeft. */
  private scanGini(arena: Arena, list: Int32Array, y: Int32Array, start: number, endKnown: number, values: Float64Array, Wt: number): number {
    const { w, unitWeights } = arena;
    const { left, tot, bestLeft } = this;
    const msl = this.opts.minSamplesLeaf;
    const K = this.S;
    left.fill(0);
    let sqL = 0;
    let sqR = 0;
    for (let k = 0; k < K; k++) sqR += tot[k] * tot[k];
    let WL = 0;
    let best = -Infinity;
    let at = -1;
    const last = endKnown - 1;
    const known = endKnown - start;
    for (let i = start; i < last; i++) {
      const c = y[i];
      const wi = unitWeights ? 1 : w[list[i]];
      const lc = left[c];
      sqL += wi * (2 * lc + wi);
      sqR += wi * (wi - 2 * (tot[c] - lc));
      left[c] = lc + wi;
      WL += wi;
      if (values[i + 1] === values[i]) continue;
      const nL = i - start + 1;
      if (nL < msl || known - nL < msl) continue;
      const WR = Wt - WL;
      if (!(WL > 0) || !(WR > 0)) continue;
      const proxy = sqL / WL + sqR / WR;
      if (proxy > best) {
        best = proxy;
        at = i;
        bestLeft.set(left);
      }
    }
    return at;
  }

  private scanEntropy(arena: Arena, list: Int32Array, y: Int32Array, start: number, endKnown: number, values: Float64Array, Wt: number): number {
    const { w, unitWeights } = arena;
    const { left, tot, bestLeft } = this;
    const msl = this.opts.minSamplesLeaf;
    const K = this.S;
    left.fill(0);
    let sL = 0;
    let sR = 0;
    for (let k = 0; k < K; k++) sR += xlogx(tot[k]);
    let WL = 0;
    let best = -Infinity;
    let at = -1;
    const last = endKnown - 1;
    for (let i = start; i < last; i++) {
      const c = y[i];
      const wi = unitWeights ? 1 : w[list[i]];
      const lc = left[c];
      const rc = tot[c] - lc;
      sL += xlogx(lc + wi) - xlogx(lc);
      sR += xlogx(Math.max(0, rc - wi)) - xlogx(rc);
      left[c] = lc + wi;
      WL += wi;
      if (values[i + 1] === values[i]) continue;
      const nL = i - start + 1;
      if (nL < msl || endKnown - start - nL < msl) continue;
      const WR = Wt - WL;
      if (!(WL > 0) || !(WR > 0)) continue;
      // Maximising this minimises WL·Ent(L) + WR·Ent(R) (in nats).
      const proxy = sL - xlogx(WL) + sR - xlogx(WR);
      if (proxy > best) {
        best = proxy;
        at = i;
        bestLeft.set(left);
      }
    }
    return at;
  }

  private scanVariance(arena: Arena, list: Int32Array, y: Float64Array, start: number, endKnown: number, values: Float64Array, Wt: number): number {
    const { w, unitWeights } = arena;
    const { tot, bestLeft } = this;
    const msl = this.opts.minSamplesLeaf;
    const sT = tot[1];
    let WL = 0;
    let sL = 0;
    let qL = 0;
    let best = -Infinity;
    let at = -1;
    const last = endKnown - 1;
    for (let i = start; i < last; i++) {
      const wi = unitWeights ? 1 : w[list[i]];
      const yi = y[i];
      WL += wi;
      sL += wi * yi;
      qL += wi * yi * yi;
      if (values[i + 1] === values[i]) continue;
      const nL = i - start + 1;
      if (nL < msl || endKnown - start - nL < msl) continue;
      const WR = Wt - WL;
      if (!(WL > 0) || !(WR > 0)) continue;
      const sR = sT - sL;
      const proxy = (sL * sL) / WL + (sR * sR) / WR;
      if (proxy > best) {
        best = proxy;
        at = i;
        bestLeft[0] = WL;
        bestLeft[1] = sL;
        bestLeft[2] = qL;
      }
    }
    return at;
  }

  private categorical(range: NodeRange, f: number, nodeStats: Float64Array, nodeW: number, nodeImpurity: number): Candidate | null {
    const { arena, start, end } = range;
    const codes = this.cols.cat[f] as Int32Array;
    const L = this.cols.nLevels[f];
    const S = this.S;
    const { levelStats, levelW, levelN, tot, miss } = this;
    levelStats.fill(0, 0, L * S);
    levelW.fill(0, 0, L);
    levelN.fill(0, 0, L);
    miss.fill(0);
    let missW = 0;
    const { rows, w, members } = arena;
    for (let i = start; i < end; i++) {
      const s = members[i];
      const c = codes[rows[s]];
      if (c < 0) {
        this.addSlot(miss, 0, arena, s);
        missW += w[s];
      } else {
        this.addSlot(levelStats, c * S, arena, s);
        levelW[c] += w[s];
        levelN[c]++;
      }
    }
    for (let k = 0; k < S; k++) tot[k] = nodeStats[k] - miss[k];
    const Wt = missW > 0 ? nodeW - missW : nodeW;
    if (!(Wt > 0)) return null;
    const present: number[] = [];
    for (let l = 0; l < L; l++) if (levelN[l] > 0) present.push(l);
    if (present.length < 2) return null;
    const rho = Wt / nodeW;
    const impT = this.imp(tot, 0, Wt);
    const msl = this.opts.minSamplesLeaf;

    if (this.opts.categoricalSplit === "multiway") {
      let after = 0;
      for (const l of present) {
        if (levelN[l] < msl) return null;
        after += (levelW[l] / Wt) * this.imp(levelStats, l * S, levelW[l]);
      }
      const levelMap = new Int32Array(L);
      for (let l = 0; l < L; l++) levelMap[l] = l;
      const rule: SplitRule = { kind: CATEGORICAL, feature: f, threshold: NaN, nBranches: L, levelMap, weights: null };
      return this.finish(f, impT - after, rho, intrinsicValue(levelW, L, Wt), nodeImpurity, rule, NaN);
    }
    return this.binaryCategorical(f, present, L, Wt, impT, rho, nodeImpurity);
  }

  private binaryCategorical(f: number, present: number[], L: number, Wt: number, impT: number, rho: number, nodeImpurity: number): Candidate | null {
    const S = this.S;
    const { levelStats, levelW, levelN, tot, left, right } = this;
    const msl = this.opts.minSamplesLeaf;
    const ordered = this.target.K === 0 || this.target.K === 2;
    // For an ordered cut the left side is a prefix of `order`; for one-vs-rest it is one level.
    const order = ordered ? [...present].sort((a, b) => keyOf(a) - keyOf(b) || a - b) : present;
    let bestDelta = -Infinity;
    let bestCut = -1;
    let nL = 0;
    left.fill(0);
    let WL = 0;
    const cuts = ordered ? order.length - 1 : order.length;
    for (let j = 0; j < cuts; j++) {
      const l = order[j];
      if (ordered) {
        for (let k = 0; k < S; k++) left[k] += levelStats[l * S + k];
        WL += levelW[l];
        nL += levelN[l];
      } else {
        for (let k = 0; k < S; k++) left[k] = levelStats[l * S + k];
        WL = levelW[l];
        nL = levelN[l];
      }
      let nR = 0;
      for (const p of present) nR += levelN[p];
      nR -= nL;
      if (nL < msl || nR < msl) continue;
      const WR = Wt - WL;
      if (!(WL > 0) || !(WR > 0)) continue;
      for (let k = 0; k < S; k++) right[k] = tot[k] - left[k];
      const delta = impT - (WL / Wt) * this.imp(left, 0, WL) - (WR / Wt) * this.imp(right, 0, WR);
      if (delta > bestDelta + 1e-12) {
        bestDelta = delta;
        bestCut = j;
      }
    }
    if (bestCut < 0) return null;
    const levelMap = new Int32Array(L);
    let WLbest = 0;
    if (ordered) {
      levelMap.fill(-1); // levels this node never saw: routed like a missing value
      order.forEach((l, j) => {
        levelMap[l] = j <= bestCut ? 0 : 1;
        if (j <= bestCut) WLbest += levelW[l];
      });
    } else {
      levelMap.fill(1); // one level against the rest: unseen levels belong to the rest
      levelMap[order[bestCut]] = 0;
      WLbest = levelW[order[bestCut]];
    }
    const rule: SplitRule = { kind: CATEGORICAL, feature: f, threshold: NaN, nBranches: 2, levelMap, weights: null };
    return this.finish(f, bestDelta, rho, intrinsicValue([WLbest, Wt - WLbest], 2, Wt), nodeImpurity, rule, NaN);

    // Class-1 share (two classes) or mean (regression): both are stats[1] / weight.
    function keyOf(l: number): number {
      return levelW[l] > 0 ? levelStats[l * S + 1] / levelW[l] : 0;
    }
  }
}

/**
 * The split a node takes among its candidates. gain_ratio follows C4.5's
 * heuristic (seed 000): among candidates whose gain is at least the mean gain,
 * the best ratio. Ties within 1e-12 go to the lower feature index (column order).
 */
export function chooseSplit(cands: readonly Candidate[], criterion: Criterion): Candidate | null {
  if (cands.length === 0) return null;
  const eps = 1e-12;
  let best: Candidate | null = null;
  if (criterion === "gain_ratio") {
    let mean = 0;
    for (const c of cands) mean += c.gain;
    mean /= cands.length;
    for (const c of cands) {
      if (c.gain < mean - eps || !(c.ratio > 0 || c.gain > 0)) continue;
      if (!best || c.ratio > best.ratio + eps || (c.ratio >= best.ratio - eps && c.feature < best.feature)) best = c;
    }
    return best ?? cands.reduce((a, b) => (b.gain > a.gain + eps || (b.gain >= a.gain - eps && b.feature < a.feature) ? b : a));
  }
  for (const c of cands) {
    if (!best || c.gain > best.gain + eps || (c.gain >= best.gain - eps && c.feature < best.feature)) best = c;
  }
  return best;
}
