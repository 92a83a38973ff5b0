/**
 * Cross-entropy of predicted class probabilities, computed like scikit-learn 1.2's
 * log_loss(eps="auto", labels=all classes): clip to [eps, 1 − eps], renormalise each
 * row, average −log p(actual class) with the sample weights.
 */
import { checkSameLength, finiteOrNull, weightAt, type MetricValue, type Weights } from "../wire.js";

const FLOAT64_EPS = 2.220446049250313e-16;

export function logLoss(
  yTrue: ArrayLike<number>,
  proba: ArrayLike<number>,
  nClasses: number,
  weights?: Weights,
  eps: number = FLOAT64_EPS,
): MetricValue {
  const n = yTrue.length;
  checkSameLength("proba", n * nClasses, proba);
  checkSameLength("weights", n, weights);
  const hi = 1 - eps;
  let sw = 0;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const row = i * nClasses;
    let rowSum = 0;
    for (let k = 0; k < nClasses; k++) rowSum += clip(proba[row + k], eps, hi);
    const p = clip(proba[row + yTrue[i]], eps, hi) / rowSum;
    const w = weightAt(weights, i);
    sw += w;
    s -= w * Math.log(p);
  }
  return sw === 0 ? null : finiteOrNull(s / sw);
}

function clip(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
