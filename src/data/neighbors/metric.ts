/**
 * Distances between rows of row-major Float64Arrays: the one place where xigua
 * defines them, shared by the neighbour index (kNN, and later DBSCAN, OPTICS,
 * SMOTE, Relief) and by clustering.
 *
 * Every metric works on a "reduced" distance that orders rows the same way as the
 * true one and is cheaper: Σ|Δ|^p for Minkowski (Σ Δ² for euclidean, so no square
 * root per pair), max |Δ| for chebyshev. Searches compare reduced values and
 * convert the few they return with `toDistance` at the end (as scikit-learn's
 * `rdist`). Fitted metrics (VDM, HVDM: vdm.ts) implement the same interface.
 */

export interface RowMetric {
  /** Name for messages and explain. */
  readonly name: string;
  /** Minkowski exponent when the metric is one (Infinity: chebyshev); null for metrics the trees cannot bound (vdm, hvdm). */
  readonly p: number | null;
  /** Reduced distance between row `ai` of `a` and row `bi` of `b` (rows of width d). */
  reduced(a: Float64Array, ai: number, b: Float64Array, bi: number, d: number): number;
  toDistance(reduced: number): number;
  toReduced(distance: number): number;
}

function squaredEuclidean(a: Float64Array, ai: number, b: Float64Array, bi: number, d: number): number {
  const oa = ai * d;
  const ob = bi * d;
  let s = 0;
  for (let j = 0; j < d; j++) {
    const t = a[oa + j] - b[ob + j];
    s += t * t;
  }
  return s;
}

function cityBlock(a: Float64Array, ai: number, b: Float64Array, bi: number, d: number): number {
  const oa = ai * d;
  const ob = bi * d;
  let s = 0;
  for (let j = 0; j < d; j++) s += Math.abs(a[oa + j] - b[ob + j]);
  return s;
}

function maxAbs(a: Float64Array, ai: number, b: Float64Array, bi: number, d: number): number {
  const oa = ai * d;
  const ob = bi * d;
  let s = 0;
  for (let j = 0; j < d; j++) {
    const t = Math.abs(a[oa + j] - b[ob + j]);
    if (t > s) s = t;
  }
  return s;
}

const identity = (v: number) => v;

export const euclidean: RowMetric = { name: "euclidean", p: 2, reduced: squaredEuclidean, toDistance: Math.sqrt, toReduced: (v) => v * v };
export const manhattan: RowMetric = { name: "manhattan", p: 1, reduced: cityBlock, toDistance: identity, toReduced: identity };
export const chebyshev: RowMetric = { name: "chebyshev", p: Infinity, reduced: maxAbs, toDistance: identity, toReduced: identity };

/** Minkowski of order p ≥ 1 (p = 1, 2, ∞ return the specialised metrics, which give the same numbers faster). */
export function minkowski(p: number): RowMetric {
  if (!(p >= 1)) throw new RangeError(`minkowski needs p >= 1, got ${p}`);
  if (p === 1) return manhattan;
  if (p === 2) return euclidean;
  if (p === Infinity) return chebyshev;
  return {
    name: "minkowski",
    p,
    reduced(a, ai, b, bi, d) {
      const oa = ai * d;
      const ob = bi * d;
      let s = 0;
      for (let j = 0; j < d; j++) s += Math.abs(a[oa + j] - b[ob + j]) ** p;
      return s;
    },
    toDistance: (r) => r ** (1 / p),
    toReduced: (v) => v ** p,
  };
}

export type VectorMetricName = "euclidean" | "manhattan" | "chebyshev" | "minkowski";

/** The metric a name (and, for minkowski, p) stands for: a lookup, not a ladder. */
export function vectorMetric(name: VectorMetricName, p = 2): RowMetric {
  const table: Record<VectorMetricName, () => RowMetric> = { euclidean: () => euclidean, manhattan: () => manhattan, chebyshev: () => chebyshev, minkowski: () => minkowski(p) };
  return table[name]();
}

/** True distance between two rows. */
export function distance(metric: RowMetric, a: Float64Array, ai: number, b: Float64Array, bi: number, d: number): number {
  return metric.toDistance(metric.reduced(a, ai, b, bi, d));
}
