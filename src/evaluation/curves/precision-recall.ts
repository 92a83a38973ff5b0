/**
 * P-R curve, average precision and the break-even point (seed 002 "P-R 曲线 … 平衡点").
 * Curve conventions are scikit-learn 1.2's precision_recall_curve: thresholds ascending
 * (every distinct score), precision/recall one longer, ending at (recall 0, precision 1);
 * precision 0 where nothing is predicted positive; recall 1 throughout when there are no
 * positives (scikit-learn's choice, with a warning there).
 */
import { toNumberArray, type MetricValue } from "../wire.js";
import { thresholdCounts, totals, type BinaryScoreOptions, type ThresholdCounts } from "./threshold-counts.js";

export interface PrCurve {
  readonly precision: Float64Array;
  readonly recall: Float64Array;
  readonly thresholds: Float64Array;
}

export interface WirePrCurve {
  precision: MetricValue[];
  recall: MetricValue[];
  thresholds: MetricValue[];
}

export function precisionRecallCurve(yTrue: ArrayLike<number>, scores: ArrayLike<number>, options: BinaryScoreOptions = {}): PrCurve {
  return prFromCounts(thresholdCounts(yTrue, scores, options));
}

export function averagePrecision(yTrue: ArrayLike<number>, scores: ArrayLike<number>, options: BinaryScoreOptions = {}): MetricValue {
  return averagePrecisionFromCounts(thresholdCounts(yTrue, scores, options));
}

export function breakEvenPoint(yTrue: ArrayLike<number>, scores: ArrayLike<number>, options: BinaryScoreOptions = {}): MetricValue {
  return breakEvenFromCounts(thresholdCounts(yTrue, scores, options));
}

export function prFromCounts(c: ThresholdCounts): PrCurve {
  const n = c.tps.length;
  const { positives } = totals(c);
  const precision = new Float64Array(n + 1);
  const recall = new Float64Array(n + 1);
  const thresholds = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const i = n - 1 - r;
    const predicted = c.tps[i] + c.fps[i];
    precision[r] = predicted !== 0 ? c.tps[i] / predicted : 0;
    recall[r] = positives !== 0 ? c.tps[i] / positives : 1;
    thresholds[r] = c.thresholds[i];
  }
  precision[n] = 1;
  recall[n] = 0;
  return { precision, recall, thresholds };
}

/**
 * scikit-learn's average_precision_score: Σ (R_i − R_{i−1}) P_i over thresholds from the
 * highest down — the step-function area, no interpolation. null without positives
 * (scikit-learn returns a meaningless value there).
 */
export function averagePrecisionFromCounts(c: ThresholdCounts): MetricValue {
  const { positives } = totals(c);
  if (!(positives > 0)) return null;
  let ap = 0;
  let prevRecall = 0;
  for (let i = 0; i < c.tps.length; i++) {
    const recall = c.tps[i] / positives;
    const predicted = c.tps[i] + c.fps[i];
    if (recall !== prevRecall) ap += (recall - prevRecall) * (c.tps[i] / predicted);
    prevRecall = recall;
  }
  return ap;
}

/**
 * Break-even point, where precision equals recall. P = TP/k and R = TP/m⁺ with k the
 * (weighted) number predicted positive, so P = R exactly at the cut-off k = m⁺ (this is
 * R-precision): P > R above it, P < R below it. The BEP is TP/m⁺ at that cut-off. A step
 * curve often has no threshold with k = m⁺ because of tied scores; then the cut-off falls
 * inside a group of ties and their positives are counted in proportion, k and TP linear
 * between the neighbouring thresholds — the expected P = R under a random order of the
 * tied items. Example (radar A of seed 004): the top 4 scores are planes, then a plane
 * and a bird tie at 0.6, m⁺ = 5 → BEP = (4 + ½)/5 = 0.9. null without positives.
 */
export function breakEvenFromCounts(c: ThresholdCounts): MetricValue {
  const { positives } = totals(c);
  if (!(positives > 0)) return null;
  let prevK = 0;
  let prevTp = 0;
  for (let i = 0; i < c.tps.length; i++) {
    const k = c.tps[i] + c.fps[i];
    if (k >= positives) {
      const t = k === prevK ? 1 : (positives - prevK) / (k - prevK);
      return (prevTp + t * (c.tps[i] - prevTp)) / positives;
    }
    prevK = k;
    prevTp = c.tps[i];
  }
  return null;
}

export function prToWire(curve: PrCurve): WirePrCurve {
  return { precision: toNumberArray(curve.precision), recall: toNumberArray(curve.recall), thresholds: toNumberArray(curve.thresholds) };
}
