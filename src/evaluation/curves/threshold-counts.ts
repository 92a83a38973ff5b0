/**
 * The one sort behind every score-based curve: for each distinct score, from the highest
 * down, how much positive and negative weight scores at or above it. This is
 * scikit-learn's _binary_clf_curve; ROC, AUC, the P-R curve, average precision and the
 * break-even point are all read from it.
 *
 * Unweighted (the common, large case): the positives' and the negatives' scores are
 * copied into two Float64Arrays and sorted natively, then merged from the top. No index
 * permutation, no comparator calls, no objects (see bench/evaluation for the timing).
 * Weighted: an index permutation sorted by score; zero-weight rows are left out.
 */
import { checkSameLength, type Weights } from "../wire.js";

export interface ThresholdCounts {
  /** Distinct scores, descending. */
  readonly thresholds: Float64Array;
  /** Positive weight scoring ≥ thresholds[i] (cumulative, non-decreasing). */
  readonly tps: Float64Array;
  /** Negative weight scoring ≥ thresholds[i]. */
  readonly fps: Float64Array;
}

export interface BinaryScoreOptions {
  /** yTrue[i] === positiveLabel marks a positive; default 1. */
  readonly positiveLabel?: number;
  readonly weights?: Weights;
}

export function thresholdCounts(yTrue: ArrayLike<number>, scores: ArrayLike<number>, options: BinaryScoreOptions = {}): ThresholdCounts {
  checkSameLength("scores", yTrue.length, scores);
  checkSameLength("weights", yTrue.length, options.weights);
  const positive = options.positiveLabel ?? 1;
  for (let i = 0; i < scores.length; i++) {
    if (!Number.isFinite(scores[i])) throw new RangeError(`score ${i} is not finite`);
  }
  return options.weights === undefined
    ? unweightedCounts(yTrue, scores, positive)
    : weightedCounts(yTrue, scores, positive, options.weights);
}

/** Total positive and negative weight: the last cumulative counts. */
export function totals(c: ThresholdCounts): { positives: number; negatives: number } {
  const last = c.tps.length - 1;
  return last < 0 ? { positives: 0, negatives: 0 } : { positives: c.tps[last], negatives: c.fps[last] };
}

function unweightedCounts(yTrue: ArrayLike<number>, scores: ArrayLike<number>, positive: number): ThresholdCounts {
  const n = yTrue.length;
  let nPos = 0;
  for (let i = 0; i < n; i++) if (yTrue[i] === positive) nPos++;
  const pos = new Float64Array(nPos);
  const neg = new Float64Array(n - nPos);
  for (let i = 0, p = 0, q = 0; i < n; i++) {
    if (yTrue[i] === positive) pos[p++] = scores[i];
    else neg[q++] = scores[i];
  }
  pos.sort();
  neg.sort();
  const thresholds = new Float64Array(n);
  const tps = new Float64Array(n);
  const fps = new Float64Array(n);
  let i = pos.length - 1;
  let j = neg.length - 1;
  let tp = 0;
  let fp = 0;
  let m = 0;
  while (i >= 0 || j >= 0) {
    const v = i < 0 ? neg[j] : j < 0 ? pos[i] : pos[i] > neg[j] ? pos[i] : neg[j];
    while (i >= 0 && pos[i] === v) {
      tp++;
      i--;
    }
    while (j >= 0 && neg[j] === v) {
      fp++;
      j--;
    }
    thresholds[m] = v;
    tps[m] = tp;
    fps[m] = fp;
    m++;
  }
  return { thresholds: thresholds.slice(0, m), tps: tps.slice(0, m), fps: fps.slice(0, m) };
}

function weightedCounts(yTrue: ArrayLike<number>, scores: ArrayLike<number>, positive: number, weights: ArrayLike<number>): ThresholdCounts {
  // Zero-weight rows are left out entirely (not even as thresholds), as scikit-learn does.
  let n = 0;
  const order = new Uint32Array(yTrue.length);
  for (let i = 0; i < yTrue.length; i++) if (weights[i] !== 0) order[n++] = i;
  // Ties in descending index order, as scikit-learn's reversed stable argsort: the same summation
  // order makes the weighted cumulative sums (and so the dropped points) identical.
  order.subarray(0, n).sort((a, b) => scores[b] - scores[a] || b - a);
  const thresholds = new Float64Array(n);
  const tps = new Float64Array(n);
  const fps = new Float64Array(n);
  let tp = 0;
  let fp = 0;
  let m = 0;
  for (let r = 0; r < n; r++) {
    const i = order[r];
    if (yTrue[i] === positive) tp += weights[i];
    else fp += weights[i];
    if (r === n - 1 || scores[order[r + 1]] !== scores[i]) {
      thresholds[m] = scores[i];
      tps[m] = tp;
      fps[m] = fp;
      m++;
    }
  }
  return { thresholds: thresholds.slice(0, m), tps: tps.slice(0, m), fps: fps.slice(0, m) };
}
