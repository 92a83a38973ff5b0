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
 * Categorical features split multiway (one branch per level present at the node;
 * the levels absent there share one empty branch, TreeGenerate's case 3) or binary:
 * the levels are ordered — by class-1 share / mean for two classes or a regression
 * target (exact for these impurities, Breiman et al.), along the first principal
 * component of their class proportions otherwise (Coppersmith, Hong and Hosking
 * 1999) — and only the L−1 cuts of that order are tried: O(L log L + L·K) per node
 * (L·K² for the component when L > 2K), whatever the column's level count.
 * max_categories_per_split pools the lightest levels at a node into one unit first.
 * Ties: within a feature the lowest threshold (or first cut) wins.
 */
import type { Arena, NodeRange, SplitRule, TreeTarget } from "./arena.js";
import { firstMissing } from "./arena.js";
import type { ImpurityKind } from "./impurity.js";
import { impurityOf, intrinsicValue, intrinsicValue2, xlogx as xlogxImported } from "./impurity.js";
import type { TreeColumns } from "./tree-columns.js";
import type { Criterion } from "./tree-state.js";
import { CATEGORICAL, THRESHOLD } from "./tree-state.js";

// Module-local copy: some loaders (tsx) turn imported bindings into getter calls, which the entropy scan would pay four times per slot.
const xlogx = xlogxImported;
const THRESHOLD_KIND: typeof THRESHOLD = THRESHOLD;
const CATEGORICAL_KIND: typeof CATEGORICAL = CATEGORICAL;

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
  /** Levels a categorical split tells apart at one node; the rest (the lightest there) are pooled. Null: no cap. */
  readonly maxCategories: number | null;
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
  /** xlogx(left[k]) as the entropy scan last computed it: the same value of the same count, not computed twice. */
  private readonly leftX: Float64Array;
  /** The entropy scan's right count per class as last passed to xlogx, and the result: a cache keyed on the argument. */
  private readonly rightArg: Float64Array;
  private readonly rightX: Float64Array;
  private readonly bestLeft: Float64Array;
  private readonly right: Float64Array;
  private readonly levelStats: Float64Array;
  private readonly levelW: Float64Array;
  private readonly levelN: Int32Array;
  /** The levels present at the node, in the order first seen (then sorted in place). */
  private readonly seen: Int32Array;
  /** The units of the feature being judged (pool), in level order and then, for a binary cut, sorted by unitKey. */
  private readonly unitBuf: Int32Array;
  private readonly sortTmp: Int32Array;
  /** Levels folded into the pooled unit at this node (max_categories_per_split). */
  private readonly pooled: Uint8Array;
  /** Index of the pooled unit in the per-level arrays: one past the widest column's levels. */
  private readonly poolSlot: number;
  /** The sort key of each unit for a binary cut. */
  private readonly unitKey: Float64Array;
  private readonly pcMean: Float64Array;
  private readonly pcV: Float64Array;
  private readonly pcY: Float64Array;
  private pcD = new Float64Array(0);
  /** xlogx of whole counts (scanEntropyCounts). */
  private xlogxInt = new Float64Array(0);
  private readonly pcCov: Float64Array;

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
    this.leftX = new Float64Array(this.S);
    this.rightArg = new Float64Array(this.S);
    this.rightX = new Float64Array(this.S);
    this.bestLeft = new Float64Array(this.S);
    this.right = new Float64Array(this.S);
    // One extra slot per level array for the pooled unit.
    this.poolSlot = maxLevels;
    this.levelStats = new Float64Array((maxLevels + 1) * this.S);
    this.levelW = new Float64Array(maxLevels + 1);
    this.levelN = new Int32Array(maxLevels + 1);
    this.seen = new Int32Array(maxLevels);
    this.unitBuf = new Int32Array(maxLevels + 1);
    this.sortTmp = new Int32Array(maxLevels + 1);
    this.pooled = new Uint8Array(maxLevels);
    this.unitKey = new Float64Array(maxLevels + 1);
    this.pcMean = new Float64Array(this.S);
    this.pcV = new Float64Array(this.S);
    this.pcY = new Float64Array(this.S);
    this.pcCov = new Float64Array(target.K >= 3 && target.K <= COVARIANCE_MAX_CLASSES ? target.K * target.K : 0);
  }

  /** `nodeStats`/`nodeW`/`nodeImpurity` describe every slot of the node, missing ones included. */
  /**
   * Set by evaluate: the feature has fewer than two different known values at the node, so
   * no node below can split on it either (a child's rows are some of its parent's, missing-value
   * copies included) and the grower need not evaluate it there (grow.ts Work.spent).
   */
  spent = false;

  evaluate(range: NodeRange, f: number, nodeStats: Float64Array, nodeW: number, nodeImpurity: number): Candidate | null {
    this.spent = false;
    if (this.cols.num[f]) return this.numeric(range, f, nodeStats, nodeW, nodeImpurity);
    return this.categorical(range, f, nodeStats, nodeW, nodeImpurity);
  }

  private imp(stats: Float64Array, off: number, total: number): number {
    return impurityOf(this.impurity, stats, off, this.target.K, total);
  }

  /** The criterion's score of a split with this gain and ratio (Candidate.score). */
  private scoreOf(gain: number, ratio: number, nodeImpurity: number): number {
    const c = this.opts.criterion;
    return c === "info_gain" ? gain : c === "gain_ratio" ? ratio : nodeImpurity - gain;
  }

  private numeric(range: NodeRange, f: number, nodeStats: Float64Array, nodeW: number, nodeImpurity: number): Candidate | null {
    const { arena, start, end } = range;
    const list = arena.sorted[f];
    if (!list) {
      this.spent = true; // no threshold anywhere below (arena.ts childArena)
      return null;
    }
    const values = arena.sortedValues[f] as Float64Array;
    const { w } = arena;
    const { tot, miss } = this;
    for (let k = 0; k < this.S; k++) miss[k] = 0;
    let missW = 0;
    const endKnown = firstMissing(values, start, end);
    // The missing slots' statistics, summed from the end as ever, their classes or targets read in list order.
    const cls = arena.sortedClass[f];
    const tgt = arena.sortedTarget[f];
    for (let i = end - 1; i >= endKnown; i--) {
      const ws = w[list[i]];
      if (cls) miss[cls[i]] += ws;
      else {
        const y = (tgt as Float64Array)[i];
        miss[0] += ws;
        miss[1] += ws * y;
        miss[2] += ws * y * y;
      }
      missW += ws;
    }
    const known = endKnown - start;
    const msl = this.opts.minSamplesLeaf;
    if (known < 2 || values[start] === values[endKnown - 1]) {
      this.spent = true; // the scan would find no two different values to cut between
      return null;
    }
    if (known < 2 * msl) return null;
    for (let k = 0; k < this.S; k++) tot[k] = nodeStats[k] - miss[k];
    const Wt = missW > 0 ? nodeW - missW : nodeW;
    if (!(Wt > 0)) return null;

    const at = this.target.yc
      ? this.impurity === "gini"
        ? this.scanGini(arena, list, arena.sortedClass[f] as Int32Array, start, endKnown, values, Wt)
        : this.scanEntropy(arena, list, arena.sortedClass[f] as Int32Array, start, endKnown, values, Wt)
      : this.scanVariance(arena, list, arena.sortedTarget[f] as Float64Array, start, endKnown, values, Wt);
    if (at < 0) return null;
    if (this.target.yc) this.classCountsTo(arena, list, arena.sortedClass[f] as Int32Array, start, at);

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
    const gain = (Wt / nodeW) * Math.max(0, delta);
    const iv = intrinsicValue2(WL, WR, Wt);
    const ratio = iv > 0 ? gain / iv : 0;
    return new ThresholdCandidate(f, gain, this.scoreOf(gain, ratio, nodeImpurity), ratio, threshold);
  }

  /**
   * bestLeft = the class weights of list positions [start, at], summed from zero in list order:
   * the numbers a classification scan had in `left` at its best cut. Recounted once instead of
   * copied (K numbers) at every improvement on the way up, which most cut positions are.
   */
  private classCountsTo(arena: Arena, list: Int32Array, y: Int32Array, start: number, at: number): void {
    const { bestLeft } = this;
    for (let k = 0; k < this.S; k++) bestLeft[k] = 0;
    if (arena.unitWeights) for (let i = start; i <= at; i++) bestLeft[y[i]] += 1;
    else {
      const { w } = arena;
      for (let i = start; i <= at; i++) bestLeft[y[i]] += w[list[i]];
    }
  }

  /** Position of the best cut (last slot of the left side) or -1; a classification scan's left statistics there are recounted (classCountsTo), a regression scan leaves them in bestLeft. */
  private scanGini(arena: Arena, list: Int32Array, y: Int32Array, start: number, endKnown: number, values: Float64Array, Wt: number): number {
    const { w, unitWeights } = arena;
    const { left, tot } = this;
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
      }
    }
    return at;
  }

  private scanEntropy(arena: Arena, list: Int32Array, y: Int32Array, start: number, endKnown: number, values: Float64Array, Wt: number): number {
    const { w, unitWeights } = arena;
    if (unitWeights) return this.scanEntropyCounts(y, start, endKnown, values, Wt);
    const { left, leftX, rightArg, rightX, tot } = this;
    const msl = this.opts.minSamplesLeaf;
    const K = this.S;
    left.fill(0);
    leftX.fill(0); // xlogx(0)
    let sL = 0;
    let sR = 0;
    for (let k = 0; k < K; k++) {
      rightArg[k] = tot[k];
      rightX[k] = xlogx(tot[k]);
      sR += rightX[k];
    }
    let WL = 0;
    let best = -Infinity;
    let at = -1;
    const last = endKnown - 1;
    for (let i = start; i < last; i++) {
      const c = y[i];
      const wi = unitWeights ? 1 : w[list[i]];
      const lc = left[c];
      const rc = tot[c] - lc;
      const lx = xlogx(lc + wi);
      sL += lx - leftX[c];
      // xlogx(rc) is usually the value this class's previous slot left (same argument, same result).
      const rx = rc === rightArg[c] ? rightX[c] : xlogx(rc);
      const rcNext = Math.max(0, rc - wi);
      const rxNext = xlogx(rcNext);
      sR += rxNext - rx;
      rightArg[c] = rcNext;
      rightX[c] = rxNext;
      leftX[c] = lx;
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
      }
    }
    return at;
  }

  /**
   * scanEntropy where every weight is 1 (no missing-value copy above the node): every count
   * is a whole number, and xlogx of each is read from a table of the same products — the
   * same numbers, without a logarithm per class per slot.
   */
  private scanEntropyCounts(y: Int32Array, start: number, endKnown: number, values: Float64Array, Wt: number): number {
    const { left, leftX, tot } = this;
    const msl = this.opts.minSamplesLeaf;
    const K = this.S;
    const X = this.xlogxTable(endKnown - start);
    left.fill(0);
    leftX.fill(0); // xlogx(0)
    let sL = 0;
    let sR = 0;
    for (let k = 0; k < K; k++) sR += X[tot[k]];
    let WL = 0;
    let best = -Infinity;
    let at = -1;
    const last = endKnown - 1;
    for (let i = start; i < last; i++) {
      const c = y[i];
      const lc = left[c];
      const rc = tot[c] - lc; // ≥ 1: this slot is still on the right
      const lx = X[lc + 1];
      sL += lx - leftX[c];
      sR += X[rc - 1] - X[rc];
      leftX[c] = lx;
      left[c] = lc + 1;
      WL += 1;
      if (values[i + 1] === values[i]) continue;
      const nL = i - start + 1;
      if (nL < msl || endKnown - start - nL < msl) continue;
      const WR = Wt - WL;
      if (!(WL > 0) || !(WR > 0)) continue;
      const proxy = sL - X[WL] + sR - X[WR];
      if (proxy > best) {
        best = proxy;
        at = i;
      }
    }
    return at;
  }

  /** xlogx(0), xlogx(1), …, xlogx(n) (at least), computed as xlogx computes them. */
  private xlogxTable(n: number): Float64Array {
    if (this.xlogxInt.length <= n) {
      const t = new Float64Array(Math.max(n + 1, 2 * this.xlogxInt.length));
      for (let i = 0; i < t.length; i++) t[i] = xlogx(i);
      this.xlogxInt = t;
    }
    return this.xlogxInt;
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
    const S = this.S;
    const { levelStats, levelW, levelN, tot, miss, seen } = this;
    for (let k = 0; k < S; k++) miss[k] = 0;
    let missW = 0;
    // One pass over the node's rows; only the levels present are touched (and cleared after),
    // so a node costs its rows plus its levels, not the column's level count.
    let np = 0;
    const { rows, w, members, yc } = arena;
    if (yc) {
      // Classification, the per-slot sums written out: this pass runs for every categorical feature at every node.
      for (let i = start; i < end; i++) {
        const s = members[i];
        const c = codes[rows[s]];
        const ws = w[s];
        if (c < 0) {
          miss[yc[s]] += ws;
          missW += ws;
        } else {
          if (levelN[c] === 0) seen[np++] = c;
          levelStats[c * S + yc[s]] += ws;
          levelW[c] += ws;
          levelN[c]++;
        }
      }
    } else {
      // Regression, the same written out: (Σw, Σw·y, Σw·y²) per level.
      const y = arena.yr as Float64Array;
      for (let i = start; i < end; i++) {
        const s = members[i];
        const c = codes[rows[s]];
        const ws = w[s];
        const ys = y[s];
        if (c < 0) {
          miss[0] += ws;
          miss[1] += ws * ys;
          miss[2] += ws * ys * ys;
          missW += ws;
        } else {
          if (levelN[c] === 0) seen[np++] = c;
          const o = c * S;
          levelStats[o] += ws;
          levelStats[o + 1] += ws * ys;
          levelStats[o + 2] += ws * ys * ys;
          levelW[c] += ws;
          levelN[c]++;
        }
      }
    }
    this.levelOrder(np, this.cols.nLevels[f]);
    try {
      for (let k = 0; k < S; k++) tot[k] = nodeStats[k] - miss[k];
      const Wt = missW > 0 ? nodeW - missW : nodeW;
      if (np < 2) {
        this.spent = true;
        return null;
      }
      if (!(Wt > 0)) return null;
      const U = this.pool(np);
      const rho = Wt / nodeW;
      const impT = this.imp(tot, 0, Wt);
      if (this.opts.categoricalSplit === "multiway") return this.multiway(f, np, U, Wt, impT, rho, nodeImpurity);
      return this.binaryCategorical(f, np, U, Wt, impT, rho, nodeImpurity);
    } finally {
      for (let i = 0; i < np; i++) {
        const l = seen[i];
        for (let k = l * S, e = k + S; k < e; k++) levelStats[k] = 0; // not fill(): a builtin call per level cost more than the stores
        levelW[l] = 0;
        levelN[l] = 0;
        this.pooled[l] = 0;
      }
      const P = this.poolSlot;
      for (let k = P * S, e = k + S; k < e; k++) levelStats[k] = 0;
      levelW[P] = 0;
      levelN[P] = 0;
    }
  }

  /**
   * Sorts the np levels in `seen` (each present at the node) ascending, in place: by
   * insertion when few, by a pass over the column's L levels when most are present
   * (levelN marks them), by the typed sort otherwise. The same order every way.
   */
  private levelOrder(np: number, L: number): void {
    const seen = this.seen;
    if (np <= SMALL_SORT) {
      for (let i = 1; i < np; i++) {
        const x = seen[i];
        let j = i - 1;
        while (j >= 0 && seen[j] > x) {
          seen[j + 1] = seen[j];
          j--;
        }
        seen[j + 1] = x;
      }
    } else if (4 * np >= L) {
      const { levelN } = this;
      for (let l = 0, i = 0; i < np; l++) if (levelN[l] > 0) seen[i++] = l;
    } else seen.subarray(0, np).sort();
  }

  /**
   * The units a split tells apart, written to unitBuf (their count returned): every
   * present level, or (more than maxCategories present) the maxCategories heaviest at
   * this node — ties to the lower level — and one pooled unit (index poolSlot, after
   * every level) holding the rest. In level order, the pool last.
   */
  private pool(np: number): number {
    const cap = this.opts.maxCategories;
    const { unitBuf: units, seen: present } = this;
    for (let i = 0; i < np; i++) units[i] = present[i];
    if (cap === null || np <= cap) return np;
    const { levelStats, levelW, levelN, pooled } = this;
    const S = this.S;
    const P = this.poolSlot;
    // Heaviest first, ties to the lower level; the pool sums the rest in that order.
    sortUnits(units, np, levelW, -1, this.sortTmp);
    for (let j = cap; j < np; j++) {
      const l = units[j];
      pooled[l] = 1;
      for (let k = 0; k < S; k++) levelStats[P * S + k] += levelStats[l * S + k];
      levelW[P] += levelW[l];
      levelN[P] += levelN[l];
    }
    let U = 0;
    for (let i = 0; i < np; i++) if (!pooled[present[i]]) units[U++] = present[i];
    units[U++] = P;
    return U;
  }

  /**
   * One branch per unit, in level order; the pooled levels share one branch, and the
   * levels absent from the node share one empty branch (a leaf with the parent's
   * class distribution, seed 001's case 3), each placed at its first level.
   */
  private multiway(f: number, np: number, U: number, Wt: number, impT: number, rho: number, nodeImpurity: number): Candidate | null {
    const S = this.S;
    const { levelStats, levelW, levelN, pooled, unitBuf: units, unitKey: unitW, seen: present } = this;
    const msl = this.opts.minSamplesLeaf;
    let after = 0;
    for (let j = 0; j < U; j++) {
      const u = units[j];
      if (levelN[u] < msl) return null;
      after += (levelW[u] / Wt) * this.imp(levelStats, u * S, levelW[u]);
      unitW[j] = levelW[u];
    }
    const L = this.cols.nLevels[f];
    // Each present level with its pooled flag, for the level map if this split is chosen.
    const levels = new Array<number>(np); // sized once: pushes regrew it, and the copies were the collector's
    for (let i = 0; i < np; i++) levels[i] = 2 * present[i] + pooled[present[i]];
    const nb = U + (np < L ? 1 : 0);
    const gain = rho * Math.max(0, impT - after);
    const iv = intrinsicValue(unitW, U, Wt);
    const ratio = iv > 0 ? gain / iv : 0;
    return new CategoricalCandidate(f, gain, this.scoreOf(gain, ratio, nodeImpurity), ratio, nb, L, levels, true);
  }

  /**
   * The best cut of the units in one order: by class-1 share or mean for two classes
   * or a regression target (exact: Breiman et al. 1984, Theorem 4.5), by the first
   * principal component of the class proportions otherwise (Coppersmith, Hong and
   * Hosking 1999). Ties in the order go to the lower level; between cuts, to the first.
   */
  private binaryCategorical(f: number, np: number, U: number, Wt: number, impT: number, rho: number, nodeImpurity: number): Candidate | null {
    const S = this.S;
    const { levelStats, levelW, levelN, tot, left, right, pooled, unitKey, unitBuf: order, seen: present } = this;
    const msl = this.opts.minSamplesLeaf;
    if (this.target.K === 0 || this.target.K === 2) {
      for (let j = 0; j < U; j++) {
        const u = order[j];
        unitKey[u] = levelW[u] > 0 ? levelStats[u * S + 1] / levelW[u] : 0;
      }
    } else this.principalScores(order, U, Wt);
    // By key, ties to the lower unit: a strict total order, so any sort gives this one.
    sortUnits(order, U, unitKey, 1, this.sortTmp);
    let totalN = 0;
    for (let j = 0; j < U; j++) totalN += levelN[order[j]];
    let bestDelta = -Infinity;
    let bestCut = -1;
    let nL = 0;
    left.fill(0);
    let WL = 0;
    for (let j = 0; j < U - 1; j++) {
      const u = order[j];
      for (let k = 0; k < S; k++) left[k] += levelStats[u * S + k];
      WL += levelW[u];
      nL += levelN[u];
      if (nL < msl || totalN - nL < msl) continue;
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
    const P = this.poolSlot;
    let WLbest = 0;
    // unitKey is done with: it now holds each unit's side.
    for (let j = 0; j < U; j++) {
      const u = order[j];
      unitKey[u] = j <= bestCut ? 0 : 1;
      if (j <= bestCut) WLbest += levelW[u];
    }
    // Each present level with its side, for the level map if this split is chosen.
    const levels = new Array<number>(np); // sized once, as in multiway
    for (let i = 0; i < np; i++) levels[i] = 2 * present[i] + unitKey[pooled[present[i]] ? P : present[i]];
    const gain = rho * Math.max(0, bestDelta);
    const iv = intrinsicValue2(WLbest, Wt - WLbest, Wt);
    const ratio = iv > 0 ? gain / iv : 0;
    return new CategoricalCandidate(f, gain, this.scoreOf(gain, ratio, nodeImpurity), ratio, 2, this.cols.nLevels[f], levels, false);
  }

  /**
   * unitKey[u] = the projection of unit u's class proportions on the first principal
   * component of all units' proportions, weighted by unit weight. Power iteration on the
   * weighted covariance — formed (O(units · K²)) for up to COVARIANCE_MAX_CLASSES classes,
   * applied without forming it (O(units · K) per step) beyond — started from the unit
   * furthest (weight × squared distance) from the mean, so the result is deterministic.
   */
  private principalScores(units: Int32Array, U: number, Wt: number): void {
    const K = this.S;
    const { levelStats, levelW, tot, unitKey, pcMean: mean, pcV: v, pcY: y } = this;
    if (U === 2) {
      unitKey[units[0]] = 0; // one cut whatever the order
      unitKey[units[1]] = 0;
      return;
    }
    if (this.pcD.length < U * K) this.pcD = new Float64Array(Math.max(U * K, 2 * this.pcD.length));
    const D = this.pcD; // row j: unit units[j]'s proportions minus the mean
    for (let k = 0; k < K; k++) mean[k] = tot[k] / Wt;
    let start = -1;
    let far = 0;
    for (let j = 0; j < U; j++) {
      const u = units[j];
      const weighted = levelW[u] > 0; // a level of zero-weight rows sits at the mean
      const inv = weighted ? 1 / levelW[u] : 0;
      let d2 = 0;
      for (let k = 0; k < K; k++) {
        const dk = weighted ? levelStats[u * K + k] * inv - mean[k] : 0;
        D[j * K + k] = dk;
        d2 += dk * dk;
      }
      if (levelW[u] * d2 > far) {
        far = levelW[u] * d2;
        start = j;
      }
    }
    if (start < 0) {
      for (let j = 0; j < U; j++) unitKey[units[j]] = 0; // every unit has the node's proportions
      return;
    }
    for (let k = 0; k < K; k++) v[k] = D[start * K + k];
    normalise(v, K);
    // The covariance costs K² per unit once; each product without it costs 2K per unit.
    const cov = K <= COVARIANCE_MAX_CLASSES && U > 2 * K ? this.pcCov : null;
    if (cov) {
      cov.fill(0);
      for (let j = 0; j < U; j++) {
        const wu = levelW[units[j]];
        for (let a = 0; a < K; a++) {
          const c = wu * D[j * K + a];
          if (c === 0) continue;
          for (let k = 0; k < K; k++) cov[a * K + k] += c * D[j * K + k];
        }
      }
    }
    // Only the order of the projections matters: a loose tolerance and few steps suffice.
    for (let iter = 0; iter < 50; iter++) {
      y.fill(0);
      if (cov) {
        for (let a = 0; a < K; a++) {
          let sum = 0;
          for (let k = 0; k < K; k++) sum += cov[a * K + k] * v[k];
          y[a] = sum;
        }
      } else {
        for (let j = 0; j < U; j++) {
          let proj = 0;
          for (let k = 0; k < K; k++) proj += D[j * K + k] * v[k];
          const c = levelW[units[j]] * proj;
          for (let k = 0; k < K; k++) y[k] += c * D[j * K + k];
        }
      }
      if (!(normalise(y, K) > 0)) break;
      let change = 0;
      for (let k = 0; k < K; k++) change = Math.max(change, Math.abs(y[k] - v[k]));
      v.set(y);
      if (change < 1e-6) break;
    }
    for (let j = 0; j < U; j++) {
      let proj = 0;
      for (let k = 0; k < K; k++) proj += D[j * K + k] * v[k];
      unitKey[units[j]] = proj;
    }
  }
}

/** Up to this many entries, sortUnits and levelOrder sort by insertion. */
const SMALL_SORT = 24;

/**
 * Sorts a[0..n) by sign × key[unit] ascending, ties to the lower unit — the order of
 * `sort((x, y) => sign * (key[x] - key[y]) || x - y)` for finite keys, without a comparator
 * call per comparison: insertion below SMALL_SORT, else a stable merge sort through `tmp`.
 */
function sortUnits(a: Int32Array, n: number, key: Float64Array, sign: 1 | -1, tmp: Int32Array): void {
  if (n <= SMALL_SORT) {
    insertionSort(a, 0, n, key, sign);
    return;
  }
  for (let lo = 0; lo < n; lo += SMALL_SORT) insertionSort(a, lo, Math.min(n, lo + SMALL_SORT), key, sign);
  let src = a;
  let dst = tmp;
  for (let width = SMALL_SORT; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      let o = lo;
      while (i < mid && j < hi) {
        const x = src[i];
        const y = src[j];
        // y first only when strictly before x: equal keys keep the lower unit, which sits first in each run.
        if (sign * key[y] < sign * key[x] || (key[y] === key[x] && y < x)) {
          dst[o++] = y;
          j++;
        } else {
          dst[o++] = x;
          i++;
        }
      }
      while (i < mid) dst[o++] = src[i++];
      while (j < hi) dst[o++] = src[j++];
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== a) a.set(src.subarray(0, n));
}

function insertionSort(a: Int32Array, lo: number, hi: number, key: Float64Array, sign: 1 | -1): void {
  for (let i = lo + 1; i < hi; i++) {
    const x = a[i];
    const kx = sign * key[x];
    let j = i - 1;
    while (j >= lo) {
      const y = a[j];
      const ky = sign * key[y];
      if (!(kx < ky || (kx === ky && x < y))) break;
      a[j + 1] = y;
      j--;
    }
    a[j + 1] = x;
  }
}

/** Classes up to which the K × K covariance is formed for the principal component (32 KB). */
const COVARIANCE_MAX_CLASSES = 64;

/*
 * Candidates are their own rules: one object per candidate of every feature at every node
 * (the collector's main diet), not a candidate, a rule and a closure. A chosen candidate's
 * rule lives as long as the tree; the others die with the node's expansion.
 */

/** A numeric feature's cut at a threshold. */
class ThresholdCandidate implements Candidate, SplitRule {
  readonly kind = THRESHOLD_KIND;
  readonly nBranches = 2;
  readonly levelMap = null;
  readonly weights = null;

  constructor(
    readonly feature: number,
    readonly gain: number,
    readonly score: number,
    readonly ratio: number,
    readonly threshold: number,
  ) {}

  get rule(): SplitRule {
    return this;
  }
}

/**
 * A categorical split whose level map (one entry per level of the column) is built only
 * when read: every node evaluates each categorical feature, one split is kept, and a map
 * per candidate would cost nodes × features × levels. `levels` holds each level present at
 * the node as 2 × level + flag: its side of a binary cut, or (multiway) whether it is pooled
 * (a plain array: a typed one of more than 16 entries would get its own store outside the heap, arena.ts SmallArrays).
 */
class CategoricalCandidate implements Candidate, SplitRule {
  readonly kind = CATEGORICAL_KIND;
  readonly threshold = NaN;
  readonly weights = null;
  private map: Int32Array | null = null;

  constructor(
    readonly feature: number,
    readonly gain: number,
    readonly score: number,
    readonly ratio: number,
    readonly nBranches: number,
    private readonly L: number,
    private readonly levels: readonly number[],
    private readonly multiway: boolean,
  ) {}

  get rule(): SplitRule {
    return this;
  }

  get levelMap(): Int32Array {
    this.map ??= this.multiway ? this.multiwayMap() : this.binaryMap();
    return this.map;
  }

  /** One branch per present unpooled level in level order; the pooled levels share one branch, the absent ones another, each placed at its first level. */
  private multiwayMap(): Int32Array {
    const { L, levels } = this;
    const levelMap = new Int32Array(L);
    let b = 0;
    let poolBranch = -1;
    let emptyBranch = -1;
    for (let l = 0, i = 0; l < L; l++) {
      if (i < levels.length && levels[i] >> 1 === l) levelMap[l] = levels[i++] & 1 ? (poolBranch >= 0 ? poolBranch : (poolBranch = b++)) : b++;
      else levelMap[l] = emptyBranch >= 0 ? emptyBranch : (emptyBranch = b++);
    }
    return levelMap;
  }

  private binaryMap(): Int32Array {
    const levelMap = new Int32Array(this.L).fill(-1); // levels this node never saw: routed like a missing value
    for (const x of this.levels) levelMap[x >> 1] = x & 1;
    return levelMap;
  }
}

/** Scales a[0..K) to unit length; returns the length before. */
function normalise(a: Float64Array, K: number): number {
  let n = 0;
  for (let k = 0; k < K; k++) n += a[k] * a[k];
  n = Math.sqrt(n);
  if (n > 0) for (let k = 0; k < K; k++) a[k] /= n;
  return n;
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
