/**
 * Regression criteria of seed 000 (MSE, RMSE, MAE, R²), weighted like scikit-learn's
 * `sample_weight`. Empty input gives null: there is no error to report.
 */
import { checkSameLength, finiteOrNull, weightAt, type MetricValue, type Weights } from "../wire.js";

export interface RegressionMetrics {
  mse: MetricValue;
  rmse: MetricValue;
  mae: MetricValue;
  r2: MetricValue;
}

export function meanSquaredError(yTrue: ArrayLike<number>, yPred: ArrayLike<number>, weights?: Weights): MetricValue {
  return weightedMeanOf(yTrue, yPred, weights, (d) => d * d);
}

export function rootMeanSquaredError(yTrue: ArrayLike<number>, yPred: ArrayLike<number>, weights?: Weights): MetricValue {
  const mse = meanSquaredError(yTrue, yPred, weights);
  return mse === null ? null : Math.sqrt(mse);
}

export function meanAbsoluteError(yTrue: ArrayLike<number>, yPred: ArrayLike<number>, weights?: Weights): MetricValue {
  return weightedMeanOf(yTrue, yPred, weights, Math.abs);
}

/**
 * Coefficient of determination. A constant target (zero total sum of squares) gives
 * 1 for a perfect prediction and 0 otherwise, as scikit-learn's force_finite=True.
 */
export function r2Score(yTrue: ArrayLike<number>, yPred: ArrayLike<number>, weights?: Weights): MetricValue {
  const n = checkPair(yTrue, yPred, weights);
  if (n === 0) return null;
  let sw = 0;
  let swy = 0;
  for (let i = 0; i < n; i++) {
    const w = weightAt(weights, i);
    sw += w;
    swy += w * yTrue[i];
  }
  if (sw === 0) return null;
  const mean = swy / sw;
  let residual = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const w = weightAt(weights, i);
    const r = yTrue[i] - yPred[i];
    const t = yTrue[i] - mean;
    residual += w * r * r;
    total += w * t * t;
  }
  if (total === 0) return residual === 0 ? 1 : 0;
  return finiteOrNull(1 - residual / total);
}

export function regressionMetrics(yTrue: ArrayLike<number>, yPred: ArrayLike<number>, weights?: Weights): RegressionMetrics {
  return {
    mse: meanSquaredError(yTrue, yPred, weights),
    rmse: rootMeanSquaredError(yTrue, yPred, weights),
    mae: meanAbsoluteError(yTrue, yPred, weights),
    r2: r2Score(yTrue, yPred, weights),
  };
}

function weightedMeanOf(
  yTrue: ArrayLike<number>,
  yPred: ArrayLike<number>,
  weights: Weights,
  loss: (difference: number) => number,
): MetricValue {
  const n = checkPair(yTrue, yPred, weights);
  let sw = 0;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const w = weightAt(weights, i);
    sw += w;
    s += w * loss(yTrue[i] - yPred[i]);
  }
  return sw === 0 ? null : finiteOrNull(s / sw);
}

function checkPair(yTrue: ArrayLike<number>, yPred: ArrayLike<number>, weights: Weights): number {
  checkSameLength("yPred", yTrue.length, yPred);
  checkSameLength("weights", yTrue.length, weights);
  return yTrue.length;
}
