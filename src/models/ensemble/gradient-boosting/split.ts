/**
 * Best split of one node from its histogram, with XGBoost's second-order gain
 * (Chen & Guestrin 2016, eq. 7):
 *
 *   gain = ½ [ G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ) ] − γ
 *
 * λ = l2_regularization, γ = min_split_gain; a split needs gain > 0, at least
 * min_samples_leaf rows and min_child_weight hessian on each side.
 *
 * Numeric features: every bin boundary, with the missing rows sent left and then
 * right, keeping the better (the learned default direction); plus "non-missing vs
 * missing". A node without missing rows sends future missing values to its larger child.
 * Categorical features (LightGBM / scikit-learn): the node's categories sorted by
 * G/(H + CAT_SMOOTH), every prefix of that order tried as the left set, the missing
 * bin sorted with them as one more category.
 * The result is a table over bins, `goLeft`, that partitions and predicts alike.
 */
import type { BinMapper } from "./binning.js";
import { SLOTS } from "./histogram.js";

/** LightGBM's cat_smooth: keeps a rare category's ratio from dominating the order. */
const CAT_SMOOTH = 10;

export interface SplitOptions {
  readonly l2: number;
  readonly minSplitGain: number;
  readonly minChildWeight: number;
  readonly minSamplesLeaf: number;
}

export interface SplitInfo {
  gain: number;
  feature: number;
  categorical: boolean;
  /** Numeric: bins ≤ binThreshold go left. */
  binThreshold: number;
  missingLeft: boolean;
  /** One entry per bin (stride maxBins + 1): 1 = left. */
  readonly goLeft: Uint8Array;
  gl: number;
  hl: number;
  cl: number;
  gr: number;
  hr: number;
  cr: number;
}

export function emptySplit(maxBins: number): SplitInfo {
  return { gain: 0, feature: -1, categorical: false, binThreshold: 0, missingLeft: false, goLeft: new Uint8Array(maxBins + 1), gl: 0, hl: 0, cl: 0, gr: 0, hr: 0, cr: 0 };
}

const score = (g: number, h: number, l2: number) => (g * g) / (h + l2);

/**
 * Finds the best split over `features` into `best` (gain 0 / feature -1 when none is allowed).
 * G, H, C: the node's gradient, hessian and row sums.
 */
export function findBestSplit(hist: Float64Array, mapper: BinMapper, features: Int32Array, G: number, H: number, C: number, o: SplitOptions, best: SplitInfo): void {
  best.gain = 0;
  best.feature = -1;
  const parent = score(G, H, o.l2);
  const stride = mapper.maxBins + 1;
  let bestGain = 0;
  const consider = (f: number, gl: number, hl: number, cl: number, cat: boolean, thr: number, missLeft: boolean, missNone: boolean): boolean => {
    const gr = G - gl;
    const hr = H - hl;
    const cr = C - cl;
    if (cl < o.minSamplesLeaf || cr < o.minSamplesLeaf || hl < o.minChildWeight || hr < o.minChildWeight) return false;
    const gain = 0.5 * (score(gl, hl, o.l2) + score(gr, hr, o.l2) - parent) - o.minSplitGain;
    if (!(gain > bestGain)) return false;
    bestGain = gain;
    best.gain = gain;
    best.feature = f;
    best.categorical = cat;
    best.binThreshold = thr;
    best.missingLeft = missNone ? cl >= cr : missLeft;
    best.gl = gl;
    best.hl = hl;
    best.cl = cl;
    best.gr = gr;
    best.hr = hr;
    best.cr = cr;
    return true;
  };
  let bestOrder: number[] | null = null;
  let bestPrefix = 0;
  for (let q = 0; q < features.length; q++) {
    const f = features[q];
    const base = f * stride * SLOTS;
    const nb = mapper.nBins[f];
    const mk = base + mapper.maxBins * SLOTS;
    const gm = hist[mk];
    const hm = hist[mk + 1];
    const cm = hist[mk + 2];
    if (mapper.isCategorical[f]) {
      const order: number[] = [];
      for (let b = 0; b < nb; b++) if (hist[base + b * SLOTS + 2] > 0) order.push(b);
      if (cm > 0) order.push(mapper.maxBins);
      if (order.length < 2) continue;
      const ratio = (b: number) => hist[base + b * SLOTS] / (hist[base + b * SLOTS + 1] + CAT_SMOOTH);
      order.sort((a, b) => ratio(a) - ratio(b) || a - b);
      let gl = 0;
      let hl = 0;
      let cl = 0;
      for (let i = 0; i + 1 < order.length; i++) {
        const k = base + order[i] * SLOTS;
        gl += hist[k];
        hl += hist[k + 1];
        cl += hist[k + 2];
        if (consider(f, gl, hl, cl, true, 0, false, cm === 0)) {
          bestOrder = order;
          bestPrefix = i + 1;
        }
      }
      continue;
    }
    let gl = 0;
    let hl = 0;
    let cl = 0;
    const minLeaf = o.minSamplesLeaf;
    if (cm === 0) {
      // No missing values (the common case): the gain of each boundary is computed here and
      // `consider` (which checks again and records) called only when it beats the best.
      const { l2, minChildWeight, minSplitGain } = o;
      for (let b = 0; b + 1 < nb; b++) {
        const k = base + b * SLOTS;
        if (hist[k + 2] === 0) continue;
        gl += hist[k];
        hl += hist[k + 1];
        cl += hist[k + 2];
        if (cl < minLeaf) continue;
        if (C - cl < minLeaf) break;
        const hr = H - hl;
        if (hl < minChildWeight || hr < minChildWeight) continue;
        const gr = G - gl;
        if (0.5 * ((gl * gl) / (hl + l2) + (gr * gr) / (hr + l2) - parent) - minSplitGain > bestGain) consider(f, gl, hl, cl, false, b, false, true);
      }
      continue;
    }
    for (let b = 0; b + 1 < nb; b++) {
      const k = base + b * SLOTS;
      // An empty bin repeats the previous boundary's split, which a strictly better gain never replaces.
      if (hist[k + 2] === 0) continue;
      gl += hist[k];
      hl += hist[k + 1];
      cl += hist[k + 2];
      if (cl + cm < minLeaf) continue;
      // The left side only grows from here: once the right is too small, it stays so.
      if (C - cl < minLeaf) break;
      consider(f, gl, hl, cl, false, b, false, cm === 0);
      if (cm > 0) consider(f, gl + gm, hl + hm, cl + cm, false, b, true, false);
    }
    // Present values left, missing ones right.
    if (cm > 0) consider(f, G - gm, H - hm, C - cm, false, nb - 1, false, false);
  }
  if (best.feature < 0) return;
  const goLeft = best.goLeft;
  if (best.categorical) {
    const order = bestOrder as number[];
    const m = order.indexOf(mapper.maxBins);
    if (m >= 0) best.missingLeft = m < bestPrefix;
    // Categories absent from this node (and levels pooled into the missing bin) follow the missing values.
    goLeft.fill(best.missingLeft ? 1 : 0);
    for (let i = 0; i < order.length; i++) goLeft[order[i]] = i < bestPrefix ? 1 : 0;
  } else {
    goLeft.fill(0);
    goLeft.fill(1, 0, best.binThreshold + 1);
    goLeft[mapper.maxBins] = best.missingLeft ? 1 : 0;
  }
}
