/** The regression evaluation body of API.md: mse, rmse, mae, r2. */
import { regressionMetrics, type RegressionMetrics } from "../metrics/regression.js";
import type { Weights } from "../wire.js";

export interface RegressionSummary {
  metrics: RegressionMetrics;
}

export function summarizeRegression(yTrue: ArrayLike<number>, yPred: ArrayLike<number>, weights?: Weights): RegressionSummary {
  return { metrics: regressionMetrics(yTrue, yPred, weights) };
}
