/**
 * Threshold moving for binary classifiers (seed 002 "数据 → 阈值移动"): predict the
 * positive class when its probability y exceeds a threshold, strictly (the seed's y > 0.5).
 * `"rescale"` is the seed's rule for imbalanced training data, y/(1 − y) > m⁺/m⁻, i.e.
 * y > m⁺/(m⁺ + m⁻) with m⁺, m⁻ the training set's positive and negative counts.
 */
export type DecisionThreshold = number | "rescale";

export function rescaledThreshold(positives: number, negatives: number): number {
  if (!(positives >= 0 && negatives >= 0 && positives + negatives > 0)) throw new RangeError("class counts must be non-negative, not both 0");
  return positives / (positives + negatives);
}

/**
 * Class index per row from row-major n × 2 probabilities: `positive` where
 * proba[positive] > threshold, else the other class.
 */
export function applyDecisionThreshold(
  proba: ArrayLike<number>,
  positive: 0 | 1,
  threshold: DecisionThreshold,
  trainingCounts?: { positives: number; negatives: number },
): Int32Array {
  if (proba.length % 2 !== 0) throw new RangeError("threshold moving needs n × 2 probabilities");
  let t: number;
  if (threshold === "rescale") {
    if (!trainingCounts) throw new RangeError('"rescale" needs the training class counts');
    t = rescaledThreshold(trainingCounts.positives, trainingCounts.negatives);
  } else {
    if (!(threshold >= 0 && threshold <= 1)) throw new RangeError("decision threshold must be in [0, 1]");
    t = threshold;
  }
  const n = proba.length / 2;
  const negative = 1 - positive;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = proba[2 * i + positive] > t ? positive : negative;
  return out;
}
