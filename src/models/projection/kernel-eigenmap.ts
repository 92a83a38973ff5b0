/**
 * The centred-kernel eigenmap shared by `kernel_pca` and `isomap`, as scikit-learn's
 * KernelPCA computes it (decomposition/_kernel_pca.py, 1.2):
 *
 *   fit:        Kc = K − 1ₙK − K1ₙ + 1ₙK1ₙ (centred in feature space), Kc = V Λ Vᵀ,
 *               top d eigenpairs, each eigenvector flipped so its largest |entry| is
 *               positive (svd_flip), eigenvalues below 1e-12 × the largest (and negative
 *               ones, rounding) set to 0;
 *   transform:  a row's kernel values k(x) against the n training rows, centred the same
 *               way (the training kernel's column means and grand mean), times V Λ^{−1/2}
 *               (a component of eigenvalue 0 gives 0).
 *
 * For a training row the transform gives back √λ·v, the fit's embedding. The dense
 * eigendecomposition of the n × n matrix is O(n³): callers cap n (limits.ts).
 */
import { UnusableInputError, type AbortFlag, throwIfAborted } from "../contract.js";
import { symmetricEigenDescending } from "./pca-core.js";

export interface KernelEigenmap {
  /** n × d row-major: eigenvector k divided by √λₖ (0 where λₖ = 0). */
  readonly scaled_alphas: Float64Array<ArrayBuffer>;
  readonly eigenvalues: Float64Array<ArrayBuffer>;
  /** Column means of the training kernel (n). */
  readonly k_fit_rows: Float64Array<ArrayBuffer>;
  /** Grand mean of the training kernel. */
  readonly k_fit_all: number;
}

/** sklearn's _check_psd_eigenvalues: positive eigenvalues under this share of the largest are rounding. */
const SMALL_EIGENVALUE = 1e-12;

/**
 * K (n × n, symmetric) → the eigenmap. `nComponents` null keeps every component of
 * positive eigenvalue (scikit-learn's n_components=None); a number keeps that many,
 * zero eigenvalues included.
 */
export function fitKernelEigenmap(K: Float64Array, n: number, nComponents: number | null, signal?: AbortFlag): KernelEigenmap {
  const colMeans = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) colMeans[j] += K[i * n + j];
  let all = 0;
  for (let j = 0; j < n; j++) {
    colMeans[j] /= n;
    all += colMeans[j];
  }
  all /= n;
  const Kc = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) Kc[i * n + j] = K[i * n + j] - colMeans[j] - colMeans[i] + all;
  throwIfAborted(signal);
  const { values, vectors } = symmetricEigenDescending(Kc, n);
  throwIfAborted(signal);
  const top = Math.max(0, values[0]);
  const lambda = values.map((v) => (v > top * SMALL_EIGENVALUE ? v : 0));
  let d = nComponents ?? lambda.findIndex((v) => v <= 0);
  if (d < 0) d = n;
  if (d === 0) throw new UnusableInputError("the centred kernel matrix has no positive eigenvalue (every row looks the same to this kernel); change the kernel or its gamma");
  const scaled = new Float64Array(n * d);
  for (let k = 0; k < d; k++) {
    const v = vectors.subarray(k * n, (k + 1) * n);
    let largest = 0;
    for (let i = 1; i < n; i++) if (Math.abs(v[i]) > Math.abs(v[largest])) largest = i;
    const sign = v[largest] < 0 ? -1 : 1;
    const f = lambda[k] > 0 ? sign / Math.sqrt(lambda[k]) : 0;
    for (let i = 0; i < n; i++) scaled[i * d + k] = f * v[i];
  }
  return { scaled_alphas: scaled, eigenvalues: lambda.slice(0, d), k_fit_rows: colMeans, k_fit_all: all };
}

/**
 * Rows' kernel values against the training rows (m × n row-major, overwritten: centred
 * in place) → their coordinates, column by column (d arrays of m).
 */
export function transformKernelRows(map: KernelEigenmap, Kx: Float64Array, m: number): Float64Array[] {
  const n = map.k_fit_rows.length;
  const d = map.eigenvalues.length;
  const outputs = Array.from({ length: d }, () => new Float64Array(m));
  for (let i = 0; i < m; i++) {
    const o = i * n;
    let rowMean = 0;
    for (let l = 0; l < n; l++) rowMean += Kx[o + l];
    rowMean /= n;
    for (let l = 0; l < n; l++) Kx[o + l] += map.k_fit_all - map.k_fit_rows[l] - rowMean;
    for (let k = 0; k < d; k++) {
      let s = 0;
      for (let l = 0; l < n; l++) s += Kx[o + l] * map.scaled_alphas[l * d + k];
      outputs[k][i] = s;
    }
  }
  return outputs;
}

/** Rows at a time whose kernel values against the training rows are held together. */
const BLOCK_ROWS = 256;

/**
 * Coordinates of m rows, BLOCK_ROWS at a time: `fill(start, size, out)` writes the kernel
 * values of rows [start, start + size) against the training rows (size × n) into `out`.
 * Memory stays BLOCK_ROWS × n however many rows are transformed.
 */
export function transformInBlocks(map: KernelEigenmap, m: number, fill: (start: number, size: number, out: Float64Array) => void): Float64Array[] {
  const n = map.k_fit_rows.length;
  const d = map.eigenvalues.length;
  const outputs = Array.from({ length: d }, () => new Float64Array(m));
  const block = new Float64Array(Math.min(BLOCK_ROWS, m) * n);
  for (let start = 0; start < m; start += BLOCK_ROWS) {
    const size = Math.min(BLOCK_ROWS, m - start);
    const Kx = block.subarray(0, size * n);
    fill(start, size, Kx);
    transformKernelRows(map, Kx, size).forEach((out, k) => outputs[k].set(out, start));
  }
  return outputs;
}
