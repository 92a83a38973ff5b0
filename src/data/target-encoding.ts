/**
 * Target encoding (scikit-learn's TargetEncoder; Micci-Barreca 2001): a level is
 * replaced by the mean of the target over its rows, shrunk towards the overall
 * mean. With smooth = m, (Σ y + m·ȳ) / (count + m); with "auto", the empirical
 * Bayes weight λ = σ²·count / (σ²·count + s²), s² the within-level variance and
 * σ² the target's, gives λ·mean + (1 − λ)·ȳ. A level with no rows gets ȳ.
 *
 * A categorical target is encoded one 0/1 indicator at a time: its positive-class
 * rate when binary, one column per class otherwise. Codes here are category
 * indices in [0, categories); any other value (an unseen level) is skipped.
 */

export type Smoothing = "auto" | number;

/** Per-category encodings of y over `rows` (all rows when null), and the mean unseen categories get. */
export function levelEncodings(codes: Int32Array, categories: number, y: Float64Array, rows: Int32Array | null, smooth: Smoothing): { encodings: Float64Array; mean: number } {
  const m = rows ? rows.length : codes.length;
  let total = 0;
  for (let t = 0; t < m; t++) total += y[rows ? rows[t] : t];
  const mean = total / m;
  const sums = new Float64Array(categories);
  const counts = new Float64Array(categories);
  for (let t = 0; t < m; t++) {
    const i = rows ? rows[t] : t;
    const k = codes[i];
    if (k < 0 || k >= categories) continue;
    sums[k] += y[i];
    counts[k]++;
  }
  const encodings = new Float64Array(categories);
  if (smooth !== "auto") {
    for (let k = 0; k < categories; k++) {
      const count = counts[k] + smooth;
      encodings[k] = count === 0 ? mean : (sums[k] + smooth * mean) / count;
    }
    return { encodings, mean };
  }
  let variance = 0;
  for (let t = 0; t < m; t++) variance += (y[rows ? rows[t] : t] - mean) ** 2;
  variance /= m;
  const means = sums.map((s, k) => s / counts[k]);
  const squares = new Float64Array(categories);
  for (let t = 0; t < m; t++) {
    const i = rows ? rows[t] : t;
    const k = codes[i];
    if (k < 0 || k >= categories) continue;
    squares[k] += (y[i] - means[k]) ** 2;
  }
  for (let k = 0; k < categories; k++) {
    const lambda = (variance * counts[k]) / (variance * counts[k] + squares[k] / counts[k]);
    encodings[k] = Number.isNaN(lambda) ? mean : lambda * means[k] + (1 - lambda) * mean;
  }
  return { encodings, mean };
}

/**
 * Cross-fitted encodings of the rows themselves: each fold's rows (`folds[f]`, a
 * partition of the rows) are encoded from the other folds alone, so no row's
 * own target reaches its encoding. Returns one column per output.
 */
export function crossFittedEncodings(codes: Int32Array, categories: number, outputs: readonly Float64Array[], folds: readonly Int32Array[], smooth: Smoothing): Float64Array[] {
  const n = codes.length;
  const columns = outputs.map(() => new Float64Array(n));
  const inFold = new Int32Array(n);
  folds.forEach((rows, f) => rows.forEach((i) => (inFold[i] = f)));
  folds.forEach((test, f) => {
    const train = new Int32Array(n - test.length);
    let t = 0;
    for (let i = 0; i < n; i++) if (inFold[i] !== f) train[t++] = i;
    outputs.forEach((y, o) => {
      const { encodings, mean } = levelEncodings(codes, categories, y, train, smooth);
      for (const i of test) {
        const k = codes[i];
        columns[o][i] = k >= 0 && k < categories ? encodings[k] : mean;
      }
    });
  });
  return columns;
}
