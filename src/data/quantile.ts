/**
 * Quantiles of sorted values by NumPy's default ("linear", Hyndman & Fan type 7),
 * written the way NumPy 1.24 computes them — the same index, the same two-sided
 * interpolation — so that bin edges and robust-scaler statistics agree with
 * scikit-learn to the last bit, and a value lying exactly on an edge falls into the
 * same bin.
 */

/** q in [0, 1]; `sorted` ascending, without NaN, not empty. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const virtual = (n - 1) * q;
  if (virtual >= n - 1) return sorted[n - 1];
  if (virtual < 0) return sorted[0];
  const previous = Math.floor(virtual);
  const a = sorted[previous];
  const b = sorted[previous + 1];
  const t = virtual - previous;
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/** The present (non-NaN) values, sorted ascending. */
export function sortedPresent(values: Float64Array): Float64Array {
  let m = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) m++;
  const out = new Float64Array(m);
  for (let i = 0, o = 0; i < values.length; i++) if (!Number.isNaN(values[i])) out[o++] = values[i];
  return out.sort();
}

/** NumPy's percentile: p in [0, 100]. */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  return quantileSorted(sorted, p / 100);
}
