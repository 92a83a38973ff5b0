/** Population variance of the present values (scikit-learn's VarianceThreshold, np.nanvar). */
export function varianceScore(values: Float64Array): number {
  let n = 0;
  let sum = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    n++;
    sum += v;
  }
  if (n === 0) return 0;
  const mean = sum / n;
  let squares = 0;
  for (const v of values) if (!Number.isNaN(v)) squares += (v - mean) * (v - mean);
  return squares / n;
}
