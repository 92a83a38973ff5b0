/**
 * Linear scores and their link functions. Column-outer loops read each feature
 * column once and allocate nothing per row.
 */
import type { ClassifierKind } from "./linear-state.js";

/** n × rows matrix (row-major) of intercept[r] + Σ_j coef[r, j]·x_j. */
export function linearScores(columns: readonly Float64Array[], n: number, coef: Float64Array, intercept: Float64Array | number, rows: number): Float64Array {
  const p = columns.length;
  const out = new Float64Array(n * rows);
  for (let r = 0; r < rows; r++) {
    const b = typeof intercept === "number" ? intercept : intercept[r];
    for (let i = 0, k = r; i < n; i++, k += rows) out[k] = b;
  }
  for (let j = 0; j < p; j++) {
    const c = columns[j];
    for (let r = 0; r < rows; r++) {
      const w = coef[r * p + j];
      if (w === 0) continue;
      for (let i = 0, k = r; i < n; i++, k += rows) out[k] += w * c[i];
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
