/**
 * The principal-component core shared by the `pca` algorithm (src/models/projection/pca.ts)
 * and the `pca` preprocessing step (src/training/steps/pca.ts): centre the columns, take
 * the eigenvectors of their covariance (one pass over the rows for the p × p covariance,
 * then ml-matrix's symmetric EVD — the same subspace as the SVD of the centred rows, at a
 * cost linear in the rows), keep the leading ones.
 *
 * Component signs follow scikit-learn's svd_flip: each component is oriented so that the
 * training row with the largest |projection| on it projects positively. A missing cell at
 * projection time counts as the training mean of its column.
 */
import { symmetricEigen } from "../linear/fisher.js";

const BLOCK_ROWS = 256;

/** Rows [start, start + size) of the columns, centred by `mean`, row-major into `out`. */
function centredBlock(columns: readonly Float64Array[], mean: Float64Array, start: number, size: number, out: Float64Array): void {
  const p = columns.length;
  for (let j = 0; j < p; j++) {
    const c = columns[j];
    const m = mean[j];
    for (let r = 0; r < size; r++) out[r * p + j] = c[start + r] - m;
  }
}

/**
 * Covariance of the columns (p × p, divided by n − 1), accumulated over blocks of
 * rows laid out row-major: each pass over the p × p accumulator takes four rows,
 * so the cost is the arithmetic, not memory traffic.
 */
export function covariance(columns: readonly Float64Array[], mean: Float64Array, n: number): Float64Array<ArrayBuffer> {
  const p = columns.length;
  const g = new Float64Array(p * p);
  const block = new Float64Array(BLOCK_ROWS * p);
  for (let start = 0; start < n; start += BLOCK_ROWS) {
    const size = Math.min(BLOCK_ROWS, n - start);
    centredBlock(columns, mean, start, size, block);
    let r = 0;
    for (; r + 3 < size; r += 4) {
      const o0 = r * p;
      const o1 = o0 + p;
      const o2 = o1 + p;
      const o3 = o2 + p;
      for (let a = 0; a < p; a++) {
        const v0 = block[o0 + a];
        const v1 = block[o1 + a];
        const v2 = block[o2 + a];
        const v3 = block[o3 + a];
        const row = a * p;
        for (let b = a; b < p; b++) g[row + b] += v0 * block[o0 + b] + v1 * block[o1 + b] + v2 * block[o2 + b] + v3 * block[o3 + b];
      }
    }
    for (; r < size; r++) {
      const o = r * p;
      for (let a = 0; a < p; a++) {
        const v = block[o + a];
        const row = a * p;
        for (let b = a; b < p; b++) g[row + b] += v * block[o + b];
      }
    }
  }
  const divisor = Math.max(1, n - 1);
  for (let a = 0; a < p; a++) {
    for (let b = a; b < p; b++) {
      g[a * p + b] /= divisor;
      g[b * p + a] = g[a * p + b];
    }
  }
  return g;
}

/**
 * (x − mean) · componentsᵀ for every row, into `outputs` (d columns), a block of
 * rows at a time so the block stays in cache. A missing cell contributes nothing
 * (it reads as the mean).
 */
export function project(columns: readonly Float64Array[], mean: Float64Array, components: Float64Array, d: number, n: number, outputs: Float64Array[]): void {
  const p = columns.length;
  const block = new Float64Array(BLOCK_ROWS * p);
  for (let start = 0; start < n; start += BLOCK_ROWS) {
    const size = Math.min(BLOCK_ROWS, n - start);
    centredBlock(columns, mean, start, size, block);
    for (let i = 0; i < size * p; i++) if (block[i] !== block[i]) block[i] = 0;
    // Four components at a time: four independent sums instead of one long chain of dependent adds.
    let k = 0;
    for (; k + 3 < d; k += 4) {
      const w0 = k * p;
      const w1 = w0 + p;
      const w2 = w1 + p;
      const w3 = w2 + p;
      for (let r = 0; r < size; r++) {
        const o = r * p;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        for (let j = 0; j < p; j++) {
          const v = block[o + j];
          s0 += v * components[w0 + j];
          s1 += v * components[w1 + j];
          s2 += v * components[w2 + j];
          s3 += v * components[w3 + j];
        }
        outputs[k][start + r] = s0;
        outputs[k + 1][start + r] = s1;
        outputs[k + 2][start + r] = s2;
        outputs[k + 3][start + r] = s3;
      }
    }
    for (; k < d; k++) {
      const out = outputs[k];
      const w = k * p;
      for (let r = 0; r < size; r++) {
        const o = r * p;
        let s = 0;
        for (let j = 0; j < p; j++) s += block[o + j] * components[w + j];
        out[start + r] = s;
      }
    }
  }
}

/** Eigenpairs of a symmetric p × p matrix, largest eigenvalue first. */
export function symmetricEigenDescending(a: Float64Array, p: number): { values: Float64Array<ArrayBuffer>; vectors: Float64Array<ArrayBuffer> } {
  const { values: raw, vectors: v } = symmetricEigen(a, p);
  const order = raw.map((_, i) => i).sort((x, y) => raw[y] - raw[x] || x - y);
  const values = Float64Array.from(order, (i) => raw[i]);
  // Row k of `vectors` is the k-th eigenvector.
  const vectors = new Float64Array(p * p);
  order.forEach((i, k) => {
    for (let j = 0; j < p; j++) vectors[k * p + j] = v.get(j, i);
  });
  return { values, vectors };
}


export interface PrincipalComponents {
  readonly mean: Float64Array<ArrayBuffer>;
  /** d × p row-major: component k is row k. */
  readonly components: Float64Array<ArrayBuffer>;
  readonly explainedVariance: Float64Array<ArrayBuffer>;
  readonly explainedVarianceRatio: Float64Array<ArrayBuffer>;
}

/**
 * How many components to keep: `nComponents` when given (the caller has checked it is
 * at most `available`), else the fewest whose cumulative explained-variance ratio exceeds
 * `explainedVariance` (scikit-learn: searchsorted(cumsum(ratio), share, side="right") + 1),
 * else all `available`.
 */
export function componentCount(nComponents: number | null, explainedVariance: number | null, ratios: Float64Array, available: number): number {
  if (nComponents !== null) return nComponents;
  if (explainedVariance === null) return available;
  let cumulative = 0;
  let count = 0;
  for (let k = 0; k < available; k++) {
    cumulative += ratios[k];
    if (cumulative <= explainedVariance) count++;
  }
  return Math.min(available, count + 1);
}

/**
 * Principal components of complete columns (n ≥ 2 rows); `choose` picks how many from
 * the explained-variance ratios and min(n, p), the most there can be.
 */
export function fitPrincipalComponents(columns: readonly Float64Array[], n: number, choose: (ratios: Float64Array, available: number) => number): PrincipalComponents {
  const p = columns.length;
  const mean = columnMeans(columns, n);
  const { values, vectors } = symmetricEigenDescending(covariance(columns, mean, n), p);
  let total = 0;
  for (let k = 0; k < p; k++) total += Math.max(0, values[k]);
  const ratios = values.map((v) => (total > 0 ? Math.max(0, v) / total : 0));
  const d = choose(ratios, Math.min(n, p));
  const components = vectors.slice(0, d * p);
  orientLikeSvdFlip(components, columns, mean, n, p, d);
  return { mean, components, explainedVariance: values.slice(0, d).map((v) => Math.max(0, v)), explainedVarianceRatio: ratios.slice(0, d) };
}

/** Divides each projection by the square root of its variance (components of zero variance stay as they are). */
export function whitenOutputs(outputs: readonly Float64Array[], explainedVariance: Float64Array): void {
  outputs.forEach((out, k) => {
    const s = Math.sqrt(explainedVariance[k]);
    if (s > 0) for (let i = 0; i < out.length; i++) out[i] /= s;
  });
}

export function columnMeans(columns: readonly Float64Array[], n: number): Float64Array<ArrayBuffer> {
  return Float64Array.from(columns, (c) => {
    let s = 0;
    for (let i = 0; i < n; i++) s += c[i];
    return s / n;
  });
}

/** Flips each component so the largest |projection| of a training row is positive (scikit-learn's svd_flip on U). */
function orientLikeSvdFlip(components: Float64Array, columns: readonly Float64Array[], mean: Float64Array, n: number, p: number, d: number): void {
  const projections = Array.from({ length: d }, () => new Float64Array(n));
  project(columns, mean, components, d, n, projections);
  projections.forEach((projection, k) => {
    let best = 0;
    for (let i = 1; i < n; i++) if (Math.abs(projection[i]) > Math.abs(projection[best])) best = i;
    if (projection[best] < 0) for (let j = 0; j < p; j++) components[k * p + j] = -components[k * p + j];
  });
}
