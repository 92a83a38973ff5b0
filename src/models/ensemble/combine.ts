/** How an ensemble's members' predictions are combined: votes, averaged probabilities, means. */
import type { Prediction } from "../contract.js";

/** Adds weight × (the member's probabilities, or a one-hot vote when it has none or `hard`) into `sum` (n × K). */
export function addClassVotes(sum: Float64Array, p: Prediction, K: number, weight: number, hard: boolean, rows?: Int32Array): void {
  if (p.task !== "classification") throw new Error("a member of a classifier predicted no classes");
  const n = p.labels.length;
  for (let r = 0; r < n; r++) {
    const i = rows ? rows[r] : r;
    if (!hard && p.proba) for (let k = 0; k < K; k++) sum[i * K + k] += weight * p.proba[r * K + k];
    else sum[i * K + p.labels[r]] += weight;
  }
}

/** Labels (ties to the lowest class index) and probabilities (the sums normalised per row) from summed votes. */
export function votesToPrediction(sum: Float64Array, n: number, K: number): Prediction {
  const labels = new Int32Array(n);
  const proba = new Float64Array(n * K);
  for (let i = 0; i < n; i++) {
    let best = 0;
    let total = 0;
    for (let k = 0; k < K; k++) {
      const v = sum[i * K + k];
      total += v;
      if (v > sum[i * K + best]) best = k;
    }
    labels[i] = best;
    for (let k = 0; k < K; k++) proba[i * K + k] = total > 0 ? sum[i * K + k] / total : 1 / K;
  }
  return { task: "classification", labels, proba };
}

export function addValues(sum: Float64Array, p: Prediction, weight: number): void {
  if (p.task !== "regression") throw new Error("a member of a regressor predicted no values");
  for (let i = 0; i < sum.length; i++) sum[i] += weight * p.values[i];
}
