/**
 * Mean and standard deviation of each metric over folds (or bootstrap rounds).
 * The standard deviation is the population one (divide by n), as scikit-learn's
 * cross-validation reports (GridSearchCV's std_test_score is np.std). A fold's null
 * (metric undefined there) is left out of that metric; a metric null in every fold is null.
 */
import type { MetricRecord, MetricValue } from "../wire.js";

export interface FoldAggregate {
  mean: MetricRecord;
  std: MetricRecord;
}

export function aggregateFolds(folds: readonly Readonly<Record<string, MetricValue | undefined>>[]): FoldAggregate {
  const names: string[] = [];
  for (const fold of folds) for (const name of Object.keys(fold)) if (!names.includes(name)) names.push(name);
  const mean: MetricRecord = {};
  const std: MetricRecord = {};
  for (const name of names) {
    const values = folds.map((f) => f[name]).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
    const stats = meanAndStd(values);
    mean[name] = stats.mean;
    std[name] = stats.std;
  }
  return { mean, std };
}

export function meanAndStd(values: readonly number[]): { mean: MetricValue; std: MetricValue } {
  if (values.length === 0) return { mean: null, std: null };
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  let sq = 0;
  for (const v of values) sq += (v - mean) * (v - mean);
  return { mean, std: Math.sqrt(sq / values.length) };
}
