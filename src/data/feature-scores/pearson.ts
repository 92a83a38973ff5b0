/**
 * |r|, Pearson's correlation of a numeric feature with a numeric target, over the
 * rows where both are present. A constant feature (or target) has no correlation
 * to speak of and scores 0.
 */
export function pearsonScore(x: Float64Array, y: Float64Array): number {
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < x.length; i++) {
    if (Number.isNaN(x[i]) || Number.isNaN(y[i])) continue;
    n++;
    sx += x[i];
    sy += y[i];
  }
  if (n < 2) return 0;
  const mx = sx / n;
  const my = sy / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    if (Number.isNaN(x[i]) || Number.isNaN(y[i])) continue;
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return 0;
  return Math.min(1, Math.abs(sxy) / Math.sqrt(sxx * syy));
}
