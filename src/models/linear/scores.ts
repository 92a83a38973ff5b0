/**
 * Linear scores and their link functions. Column-outer loops read each feature
 * column once and allocate nothing per row.
 */
import { featureLength, featureRows, featureValues, type FeatureColumn } from "../../data/indicator-columns.js";
import type { ClassifierKind } from "./linear-state.js";

/** n × rows matrix (row-major) of intercept[r] + Σ_j coef[r, j]·x_j. */
export function linearScores(columns: readonly FeatureColumn[], n: number, coef: Float64Array, intercept: Float64Array | number, rows: number): Float64Array {
  const p = columns.length;
  const out = new Float64Array(n * rows);
  for (let r = 0; r < rows; r++) {
    const b = typeof intercept === "number" ? intercept : intercept[r];
    for (let i = 0, k = r; i < n; i++, k += rows) out[k] = b;
  }
  // With several score rows, a mostly-zero column (a one-hot level) is read once for its
  // non-zero rows and only those are updated per score row: a 540-level block costs its
  // non-zeros, not 540 full columns per class. A skipped row would only have gained w·0.
  const nonZero = rows > 1 ? new Int32Array(n) : null;
  for (let j = 0; j < p; j++) {
    const ones = featureLength(columns[j]) === n ? featureRows(columns[j]) : null;
    if (ones) {
      // A one_hot column: w·1 on its rows, w·0 (nothing) elsewhere.
      for (let r = 0; r < rows; r++) {
        const w = coef[r * p + j];
        if (w !== 0) for (let t = 0; t < ones.length; t++) out[ones[t] * rows + r] += w;
      }
      continue;
    }
    const c = featureValues(columns[j]);
    let m = n;
    if (nonZero) {
      m = 0;
      for (let i = 0; i < n; i++) if (c[i] !== 0) nonZero[m++] = i;
    }
    for (let r = 0; r < rows; r++) {
      const w = coef[r * p + j];
      if (w === 0) continue;
      if (nonZero && 2 * m < n) for (let t = 0; t < m; t++) out[nonZero[t] * rows + r] += w * c[nonZero[t]];
      else for (let i = 0, k = r; i < n; i++, k += rows) out[k] += w * c[i];
    }
  }
  return out;
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/** In place: each row of an n × k score matrix becomes its softmax. */
export function softmaxRows(scores: Float64Array, n: number, k: number): void {
  for (let i = 0; i < n; i++) {
    const o = i * k;
    let max = -Infinity;
    for (let c = 0; c < k; c++) if (scores[o + c] > max) max = scores[o + c];
    let sum = 0;
    for (let c = 0; c < k; c++) {
      const e = Math.exp(scores[o + c] - max);
      scores[o + c] = e;
      sum += e;
    }
    for (let c = 0; c < k; c++) scores[o + c] /= sum;
  }
}

/** Class probabilities (n × classes) from the scores of a linear classifier. */
export function probabilities(scores: Float64Array, n: number, classes: number, kind: ClassifierKind): Float64Array {
  if (kind === "binary") {
    const proba = new Float64Array(n * 2);
    for (let i = 0; i < n; i++) {
      const p1 = sigmoid(scores[i]);
      proba[2 * i] = 1 - p1;
      proba[2 * i + 1] = p1;
    }
    return proba;
  }
  softmaxRows(scores, n, classes);
  return scores;
}

/** Index of the largest entry of each row (first on ties). */
export function argmaxRows(values: Float64Array, n: number, k: number): Int32Array<ArrayBuffer> {
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let c = 1; c < k; c++) if (values[i * k + c] > values[i * k + best]) best = c;
    labels[i] = best;
  }
  return labels;
}
