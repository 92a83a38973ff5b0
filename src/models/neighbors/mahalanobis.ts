/**
 * The Mahalanobis metric of knn: d(x, y)² = (x − y)ᵀ Σ⁺ (x − y), with Σ the covariance of the
 * training rows (n − 1 denominator, numpy's cov) and Σ⁺ its pseudo-inverse (a one-hot block or
 * a constant column makes Σ singular; scipy's mahalanobis needs VI given, numpy's pinv gives
 * this one). It is computed as a whitening map W = Λ^(−1/2) Uᵀ over the eigenpairs of Σ with
 * eigenvalues above the numerical rank's tolerance (max(n, d) · ε · λ_max, numpy's matrix_rank),
 * so ‖W(x − y)‖ is the distance: the training rows are stored whitened and searched with the
 * Euclidean index (kd-tree, ball tree or brute force), and a query is whitened the same way.
 */
import { symmetricEigen } from "../linear/fisher.js";
import { UnusableInputError } from "../contract.js";

export interface Whitening {
  /** r × d, row-major: r = the covariance's numerical rank. */
  readonly W: Float64Array<ArrayBuffer>;
  readonly rank: number;
}

export function fitWhitening(X: Float64Array, n: number, d: number): Whitening {
  if (n < 2) throw new UnusableInputError("metric mahalanobis needs at least two training rows (a covariance)");
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j] += X[i * d + j];
  for (let j = 0; j < d; j++) mean[j] /= n;
  const cov = new Float64Array(d * d);
  const row = new Float64Array(d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) row[j] = X[i * d + j] - mean[j];
    for (let a = 0; a < d; a++) {
      const ra = row[a];
      if (ra === 0) continue;
      for (let b = a; b < d; b++) cov[a * d + b] += ra * row[b];
    }
  }
  for (let a = 0; a < d; a++) {
    for (let b = a; b < d; b++) {
      cov[a * d + b] /= n - 1;
      cov[b * d + a] = cov[a * d + b];
    }
  }
  const { values, vectors } = symmetricEigen(cov, d);
  const largest = Math.max(0, ...values);
  const tolerance = Math.max(n, d) * Number.EPSILON * largest;
  const kept = values.map((v, i) => ({ v, i })).filter(({ v }) => v > tolerance);
  if (kept.length === 0) throw new UnusableInputError("metric mahalanobis: the training rows do not vary (their covariance is zero)");
  const W = new Float64Array(kept.length * d);
  kept.forEach(({ v, i }, r) => {
    const s = 1 / Math.sqrt(v);
    for (let j = 0; j < d; j++) W[r * d + j] = vectors.get(j, i) * s;
  });
  return { W, rank: kept.length };
}

/** Rows (n × d) mapped to n × r by W. */
export function whiten(X: Float64Array, n: number, d: number, w: Whitening): Float64Array<ArrayBuffer> {
  const r = w.rank;
  const out = new Float64Array(n * r);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < r; k++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += w.W[k * d + j] * X[i * d + j];
      out[i * r + k] = s;
    }
  }
  return out;
}
