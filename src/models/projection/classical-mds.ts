/**
 * Classical (Torgerson) multidimensional scaling, as seed 002 writes it, shared by the
 * `mds` algorithm (src/models/projection/mds.ts) and the `mds` preprocessing step
 * (src/training/steps/mds.ts). From the squared distances dist²ᵢⱼ of m rows, the inner products
 *   bᵢⱼ = −½ (dist²ᵢⱼ − dist²ᵢ· − dist²·ⱼ + dist²··),
 * B = V Λ Vᵀ, and the coordinates Z = Λ*^{1/2} V*ᵀ of the top eigenpairs, so that
 * distances between rows survive as well as d dimensions allow.
 *
 * Any row (training or new) is placed by Gower's out-of-sample formula — the one
 * Bengio et al. (2004) show is the Nyström extension of the embedding:
 *   z(x) = ½ Λ*^{−1/2} V*ᵀ (δ̄ − δ(x)),
 * with δ(x) the squared distances from x to the m rows and δ̄ their column means. For
 * one of the m rows it gives back its own coordinates. Dimensions beyond the rank of B
 * (eigenvalues within rounding of zero) come out as 0.
 *
 * This is not scikit-learn's `MDS`, which minimises stress by SMACOF (an iterative,
 * seeded fit with no transform for new rows); classical MDS is its closed form on
 * Euclidean distances, and the same as KernelPCA on −½·dist² (which is what
 * scikit-learn's Isomap runs on geodesic distances).
 */
import { symmetricEigenDescending } from "./pca-core.js";

export interface ClassicalScaling {
  /** δ̄: mean squared distance from each of the m rows to all of them. */
  readonly meanSqDistance: Float64Array<ArrayBuffer>;
  /** d × m row-major: ½ Λ^{−1/2} Vᵀ (rows of zero eigenvalue are zero). */
  readonly projection: Float64Array<ArrayBuffer>;
  /** The d leading eigenvalues of B (0 where B has no such direction). */
  readonly eigenvalues: Float64Array<ArrayBuffer>;
}

/** Squared Euclidean distances from each row of `rows` (n × p) to each landmark (m × p): n × m. */
export function squaredDistances(rows: Float64Array, n: number, landmarks: Float64Array, m: number, p: number): Float64Array {
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    for (let l = 0; l < m; l++) {
      let s = 0;
      for (let j = 0; j < p; j++) {
        const t = rows[i * p + j] - landmarks[l * p + j];
        s += t * t;
      }
      out[i * m + l] = s;
    }
  }
  return out;
}

/** Classical scaling of m rows given their m × m squared distances, to d ≤ m − 1 dimensions. */
export function classicalScaling(d2: Float64Array, m: number, d: number): ClassicalScaling {
  const rowMean = new Float64Array(m);
  let grand = 0;
  for (let a = 0; a < m; a++) {
    let s = 0;
    for (let b = 0; b < m; b++) s += d2[a * m + b];
    rowMean[a] = s / m;
    grand += s;
  }
  grand /= m * m;
  const B = new Float64Array(m * m);
  for (let a = 0; a < m; a++) for (let b = 0; b < m; b++) B[a * m + b] = -0.5 * (d2[a * m + b] - rowMean[a] - rowMean[b] + grand);
  const { values, vectors } = symmetricEigenDescending(B, m);
  const top = Math.max(0, values[0]);
  const projection = new Float64Array(d * m);
  const eigenvalues = new Float64Array(d);
  for (let k = 0; k < d; k++) {
    const lambda = values[k];
    // Below rounding noise B has no such direction: that coordinate is 0, not noise / √noise.
    if (!(lambda > top * 1e-10)) continue;
    eigenvalues[k] = lambda;
    const f = 0.5 / Math.sqrt(lambda);
    for (let l = 0; l < m; l++) projection[k * m + l] = f * vectors[k * m + l];
  }
  return { meanSqDistance: rowMean, projection, eigenvalues };
}

/**
 * Gower's formula for n rows (row-major n × p, complete) against the m landmarks
 * (m × p): coordinate k of row i into outputs[k][offset + i]. In blocks of rows, so
 * the n × m distance matrix never exists at once.
 */
export function placeRows(rows: Float64Array, n: number, p: number, landmarks: Float64Array, scaling: Pick<ClassicalScaling, "meanSqDistance" | "projection">, outputs: readonly Float64Array[], offset = 0): void {
  const m = scaling.meanSqDistance.length;
  const d = outputs.length;
  const block = 256;
  for (let start = 0; start < n; start += block) {
    const size = Math.min(block, n - start);
    const dist = squaredDistances(rows.subarray(start * p, (start + size) * p), size, landmarks, m, p);
    for (let i = 0; i < size; i++) {
      for (let k = 0; k < d; k++) {
        let s = 0;
        for (let l = 0; l < m; l++) s += scaling.projection[k * m + l] * (scaling.meanSqDistance[l] - dist[i * m + l]);
        outputs[k][offset + start + i] = s;
      }
    }
  }
}
