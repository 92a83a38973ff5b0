/**
 * χ² of a feature against the classes.
 *
 * - numeric (non-negative: counts, frequencies, 0/1 indicators): scikit-learn's
 *   chi2 — observed = the feature's sum within each class, expected = its total
 *   sum spread by class frequency, χ² = Σ (O − E)² / E;
 * - categorical: Pearson's statistic of the level × class contingency table, which
 *   is exactly the sum of scikit-learn's chi2 over the column's one-hot indicators.
 *
 * Rows where the feature or the class is missing are left out. A feature that is
 * zero everywhere (scikit-learn: NaN) scores 0.
 */
export class NegativeValueError extends Error {
  constructor(readonly value: number) {
    super(`chi2 needs non-negative values (counts, frequencies or 0/1 indicators), and found ${value}`);
  }
}

export function chi2Numeric(x: Float64Array, y: Int32Array, classes: number): number {
  const observed = new Float64Array(classes);
  const counts = new Float64Array(classes);
  let n = 0;
  let total = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (Number.isNaN(v) || y[i] < 0) continue;
    if (v < 0) throw new NegativeValueError(v);
    observed[y[i]] += v;
    counts[y[i]]++;
    total += v;
    n++;
  }
  let chi2 = 0;
  for (let c = 0; c < classes; c++) {
    const expected = (counts[c] / n) * total;
    if (expected > 0) chi2 += (observed[c] - expected) ** 2 / expected;
  }
  return chi2;
}

export function chi2Categorical(x: Int32Array, levels: number, y: Int32Array, classes: number): number {
  const table = new Float64Array(levels * classes);
  const rowSums = new Float64Array(levels);
  const colSums = new Float64Array(classes);
  let n = 0;
  for (let i = 0; i < x.length; i++) {
    if (x[i] < 0 || y[i] < 0) continue;
    table[x[i] * classes + y[i]]++;
    rowSums[x[i]]++;
    colSums[y[i]]++;
    n++;
  }
  let chi2 = 0;
  for (let l = 0; l < levels; l++) {
    for (let c = 0; c < classes; c++) {
      const expected = (rowSums[l] * colSums[c]) / n;
      if (expected > 0) chi2 += (table[l * classes + c] - expected) ** 2 / expected;
    }
  }
  return chi2;
}
