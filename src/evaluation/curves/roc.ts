/**
 * ROC curve and the area under it (seed 004 "ROC 曲线", "AUC 指标"; seed 002 "ROC").
 * Conventions are scikit-learn 1.2's roc_curve: points from the highest threshold down,
 * a first point (0, 0) at threshold max(score) + 1 (1.2's choice; later versions use
 * +∞, which JSON cannot carry), and drop_intermediate=true by default — collinear
 * points are dropped; they change neither the area nor the hull. With no positives
 * (or no negatives) the tpr (or fpr) is NaN throughout, null on the wire, and the AUC null.
 */
import { finiteOrNull, toNumberArray, type MetricValue } from "../wire.js";
import { thresholdCounts, totals, type BinaryScoreOptions, type ThresholdCounts } from "./threshold-counts.js";

export interface RocCurve {
  readonly fpr: Float64Array;
  readonly tpr: Float64Array;
  readonly thresholds: Float64Array;
}

export interface WireRocCurve {
  fpr: MetricValue[];
  tpr: MetricValue[];
  thresholds: MetricValue[];
}

export interface RocOptions extends BinaryScoreOptions {
  /** scikit-learn's drop_intermediate; default true, as there. */
  readonly dropIntermediate?: boolean;
}

export function rocCurve(yTrue: ArrayLike<number>, scores: ArrayLike<number>, options: RocOptions = {}): RocCurve {
  return rocFromCounts(thresholdCounts(yTrue, scores, options), options.dropIntermediate ?? true);
}

/**
 * Area under the ROC curve by the trapezoid rule over the distinct thresholds, which
 * counts a tied (positive, negative) pair as half a correct ordering — the seeds'
 * "ties count half" — and equals the Mann–Whitney U / (m⁺m⁻).
 */
export function rocAuc(yTrue: ArrayLike<number>, scores: ArrayLike<number>, options: BinaryScoreOptions = {}): MetricValue {
  return aucFromCounts(thresholdCounts(yTrue, scores, options));
}

export function aucFromCounts(c: ThresholdCounts): MetricValue {
  const { positives, negatives } = totals(c);
  if (!(positives > 0) || !(negatives > 0)) return null;
  let area = 0;
  let prevTp = 0;
  let prevFp = 0;
  for (let i = 0; i < c.tps.length; i++) {
    area += (c.fps[i] - prevFp) * (c.tps[i] + prevTp);
    prevTp = c.tps[i];
    prevFp = c.fps[i];
  }
  return finiteOrNull(area / (2 * positives * negatives));
}

export function rocFromCounts(c: ThresholdCounts, dropIntermediate = true): RocCurve {
  const n = c.tps.length;
  const keep = dropIntermediate && n > 2 ? cornerIndices(c) : null;
  const m = keep === null ? n : keep.length;
  const fpr = new Float64Array(m + 1);
  const tpr = new Float64Array(m + 1);
  const thresholds = new Float64Array(m + 1);
  const { positives, negatives } = totals(c);
  thresholds[0] = n > 0 ? c.thresholds[0] + 1 : NaN;
  fpr[0] = negatives > 0 ? 0 : NaN;
  tpr[0] = positives > 0 ? 0 : NaN;
  for (let r = 0; r < m; r++) {
    const i = keep === null ? r : keep[r];
    // Divide (not multiply by a reciprocal) so points match scikit-learn's fps / fps[-1] bit for bit.
    fpr[r + 1] = negatives > 0 ? c.fps[i] / negatives : NaN;
    tpr[r + 1] = positives > 0 ? c.tps[i] / positives : NaN;
    thresholds[r + 1] = c.thresholds[i];
  }
  return { fpr, tpr, thresholds };
}

export function rocToWire(curve: RocCurve): WireRocCurve {
  return { fpr: toNumberArray(curve.fpr), tpr: toNumberArray(curve.tpr), thresholds: toNumberArray(curve.thresholds) };
}

/** scikit-learn's sklearn.metrics.auc: trapezoid area under (x, y), x monotone either way. */
export function trapezoidArea(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length) throw new RangeError("x and y differ in length");
  let area = 0;
  let increasing = true;
  let decreasing = true;
  for (let i = 1; i < x.length; i++) {
    const dx = x[i] - x[i - 1];
    if (dx < 0) increasing = false;
    if (dx > 0) decreasing = false;
    area += (dx * (y[i] + y[i - 1])) / 2;
  }
  if (!increasing && !decreasing) throw new RangeError("x is neither increasing nor decreasing");
  return decreasing && !increasing ? -area : area;
}

/**
 * scikit-learn keeps the ends and every point where the second difference of fps or tps
 * is non-zero (a corner); the difference is formed as numpy does, so that float weights
 * drop exactly the same points.
 */
function cornerIndices(c: ThresholdCounts): Int32Array {
  const n = c.tps.length;
  const keep = new Int32Array(n);
  let m = 0;
  keep[m++] = 0;
  for (let i = 1; i < n - 1; i++) {
    const fCorner = c.fps[i + 1] - c.fps[i] - (c.fps[i] - c.fps[i - 1]);
    const tCorner = c.tps[i + 1] - c.tps[i] - (c.tps[i] - c.tps[i - 1]);
    if (fCorner !== 0 || tCorner !== 0) keep[m++] = i;
  }
  keep[m++] = n - 1;
  return keep.slice(0, m);
}
