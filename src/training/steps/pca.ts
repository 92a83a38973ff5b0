/**
 * Principal component analysis (seed 002 "特征映射"; scikit-learn's PCA): centre
 * the chosen numeric columns, take the eigenvectors of their covariance (one
 * pass over the rows for the p × p covariance, then ml-matrix's symmetric EVD —
 * the same subspace as the SVD of the centred rows, at a cost linear in the rows),
 * keep the leading ones, and replace the columns by the projections pc1 … pcd.
 *
 * Component signs follow scikit-learn's svd_flip: each component is oriented so
 * that the training row with the largest |projection| on it projects positively.
 * `n_components` (how many) and `explained_variance` (the smallest number whose
 * cumulative explained-variance ratio exceeds this share) are two separate options;
 * with neither, every component is kept. `whiten` divides each projection by the
 * square root of its variance. A missing cell at apply time counts as the
 * training mean of its column.
 */
import { z } from "zod";
import { DataError } from "../../data/errors.js";
import { byColumn, pickColumns } from "../../data/transforms/transform.js";
import { symmetricEigen } from "../../models/linear/fisher.js";
import { columnCountParam } from "../../models/limits.js";
import { f64 } from "../../models/state-schemas.js";
import { columnMeans, completeNumericInputs, numericInputsOf, outputNames, planReplace, replaceInputs } from "./numeric-inputs.js";
import type { TypedStep } from "./typed-step.js";

const STEP = "pca";

export const pcaSpec = z
  .object({
    /** Default: every numeric column. */
    columns: z.array(z.string()).optional(),
    /** How many components to keep. */
    n_components: columnCountParam("How many components to keep.", "the columns or rows"),
    /** Keep the fewest components whose explained-variance ratios add up to more than this. */
    explained_variance: z.number().gt(0).lt(1).nullable().default(null),
    whiten: z.boolean().default(false),
    /** Output columns are <prefix>1, <prefix>2, … */
    prefix: z.string().min(1).default("pc"),
  })
  .strict()
  .refine((s) => s.n_components === null || s.explained_variance === null, {
    message: "give n_components (how many components) or explained_variance (what share of the variance), not both",
    path: ["explained_variance"],
  });

export const pcaFitted = z
  .object({
    columns: z.array(z.string()),
    names: z.array(z.string()),
    mean: f64,
    /** d × p row-major: component k is row k. */
    components: f64,
    explained_variance: f64,
    explained_variance_ratio: f64,
    whiten: z.boolean(),
  })
  .strict()
  .refine((f) => f.mean.length === f.columns.length && f.components.length === f.names.length * f.columns.length && f.explained_variance.length === f.names.length, {
    message: "component shapes do not match the columns",
  });

export type PcaSpec = z.infer<typeof pcaSpec>;
export type PcaFitted = z.infer<typeof pcaFitted>;

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
export function covariance(columns: readonly Float64Array[], mean: Float64Array, n: number): Float64Array {
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
export function symmetricEigenDescending(a: Float64Array, p: number): { values: Float64Array; vectors: Float64Array } {
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

function componentCount(spec: PcaSpec, ratios: Float64Array, available: number): number {
  if (spec.n_components !== null) {
    if (spec.n_components > available) {
      throw new DataError(`${STEP}: n_components = ${spec.n_components}, and there are only ${available} (the smaller of rows and columns)`, "n_components");
    }
    return spec.n_components;
  }
  if (spec.explained_variance === null) return available;
  // scikit-learn: searchsorted(cumsum(ratio), share, side="right") + 1.
  let cumulative = 0;
  let count = 0;
  for (let k = 0; k < available; k++) {
    cumulative += ratios[k];
    if (cumulative <= spec.explained_variance) count++;
  }
  return Math.min(available, count + 1);
}

export const pcaStep: TypedStep<PcaSpec, PcaFitted> = {
  name: STEP,
  description: "Principal component analysis: project numeric columns onto their leading principal components (by count or by explained-variance share), optionally whitened.",
  spec: pcaSpec,
  fitted: pcaFitted,

  fit(frame, spec) {
    const { names: inputs, columns } = completeNumericInputs(frame, spec.columns, STEP);
    const n = frame.rowCount;
    const p = columns.length;
    if (n < 2) throw new DataError(`${STEP}: needs at least two training rows`, "columns");
    const mean = columnMeans(columns, n);
    const { values, vectors } = symmetricEigenDescending(covariance(columns, mean, n), p);
    let total = 0;
    for (let k = 0; k < p; k++) total += Math.max(0, values[k]);
    const ratios = values.map((v) => (total > 0 ? Math.max(0, v) / total : 0));
    const d = componentCount(spec, ratios, Math.min(n, p));
    const components = vectors.slice(0, d * p);
    orientLikeSvdFlip(components, columns, mean, n, p, d);
    const names = outputNames(
      spec.prefix,
      d,
      frame.columns.map((c) => c.name),
      inputs,
      STEP,
    );
    return {
      columns: inputs,
      names,
      mean,
      components,
      explained_variance: values.slice(0, d).map((v) => Math.max(0, v)),
      explained_variance_ratio: ratios.slice(0, d),
      whiten: spec.whiten,
    };
  },

  apply(fitted, frame) {
    const inputs = numericInputsOf(frame, fitted.columns, STEP);
    const n = frame.rowCount;
    const d = fitted.names.length;
    const outputs = Array.from({ length: d }, () => new Float64Array(n));
    project(inputs, fitted.mean, fitted.components, d, n, outputs);
    if (fitted.whiten) {
      for (let k = 0; k < d; k++) {
        const s = Math.sqrt(fitted.explained_variance[k]);
        const out = outputs[k];
        if (s > 0) for (let i = 0; i < n; i++) out[i] /= s;
      }
    }
    return replaceInputs(frame, fitted.columns, fitted.names, outputs);
  },

  describe(fitted) {
    const p = fitted.columns.length;
    return {
      input_columns: [...fitted.columns],
      output_columns: [...fitted.names],
      explained_variance: byColumn(fitted.names, fitted.explained_variance),
      explained_variance_ratio: byColumn(fitted.names, fitted.explained_variance_ratio),
      mean: byColumn(fitted.columns, fitted.mean),
      components: Object.fromEntries(fitted.names.map((name, k) => [name, byColumn(fitted.columns, fitted.components.subarray(k * p, (k + 1) * p))])),
      whiten: fitted.whiten,
    };
  },

  plan(spec, columns) {
    const chosen = pickColumns(columns, spec.columns, ["numeric"], STEP).map((c) => c.name);
    if (spec.n_components !== null && spec.n_components > chosen.length) {
      throw new DataError(`${STEP}: n_components = ${spec.n_components}, and there are only ${chosen.length} numeric columns`, "n_components");
    }
    if (spec.n_components === null || chosen.length === 0) return null;
    const names = Array.from({ length: spec.n_components }, (_, k) => `${spec.prefix}${k + 1}`);
    return planReplace(columns, chosen, names);
  },
};

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
