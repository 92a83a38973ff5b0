/**
 * Bias–variance decomposition of the squared error of a regression learner, following
 * seed 002 "模型误差 → 误差来源 → 偏差方差分解" (after the watermelon book §2.5):
 *   f̄(x)    = E_D[f(x; D)]                    the expected prediction over training sets D
 *   var(x)   = E_D[(f(x; D) − f̄(x))²]
 *   bias²(x) = (f̄(x) − y)²                    y: the TRUE label of x
 *   ε²       = E_D[(y_D − y)²]                 y_D: the label x carries in the data set
 *   E(f; D)  = E_D[(f(x; D) − y_D)²] = bias²(x) + var(x) + ε²
 * Expectations over D become means over the R models (each trained on its own bootstrap
 * sample); every term is then averaged over the test rows.
 *
 * The true label y is not observable in real data, so it comes from, in order:
 *  - `yTrue` when the caller knows it (synthetic data: the noise-free function value);
 *  - else the mean of y_D over `groups` of test rows sharing the same x (repeated
 *    measurements): ε² is then the within-group spread of the labels;
 *  - else y_D itself: ε² = 0 and bias² absorbs the noise — with one label per x the two
 *    cannot be told apart, and the report says which case applies.
 * In the last two cases the identity error = bias² + variance + noise holds exactly for
 * the empirical means (the cross terms vanish); with a given yTrue it holds in expectation.
 */
import { checkSameLength } from "../wire.js";

export interface BiasVarianceInput {
  /** Row-major nModels × nRows: model r's prediction for test row i at r·nRows + i. */
  readonly predictions: ArrayLike<number>;
  readonly nModels: number;
  /** y_D: the test rows' labels as recorded in the data. */
  readonly yObserved: ArrayLike<number>;
  readonly yTrue?: ArrayLike<number>;
  /** Group id per test row; rows with equal ids share the same x. */
  readonly groups?: ArrayLike<number>;
}

export interface BiasVarianceResult {
  /** Mean over models and rows of (f(x; D) − y_D)². */
  error: number;
  bias2: number;
  variance: number;
  noise: number;
  n_models: number;
  n_rows: number;
  true_label: "given" | "group_mean" | "observed";
}

export function biasVarianceDecomposition(input: BiasVarianceInput): BiasVarianceResult {
  const { predictions, nModels, yObserved } = input;
  const n = yObserved.length;
  if (!(nModels >= 1) || n === 0) throw new RangeError("need at least one model and one test row");
  checkSameLength("predictions", nModels * n, predictions);
  checkSameLength("yTrue", n, input.yTrue);
  checkSameLength("groups", n, input.groups);
  const y = input.yTrue ? Float64Array.from(input.yTrue) : input.groups ? groupMeans(yObserved, input.groups) : Float64Array.from(yObserved);

  let error = 0;
  let bias2 = 0;
  let variance = 0;
  let noise = 0;
  for (let i = 0; i < n; i++) {
    let mean = 0;
    for (let r = 0; r < nModels; r++) mean += predictions[r * n + i];
    mean /= nModels;
    let v = 0;
    let e = 0;
    for (let r = 0; r < nModels; r++) {
      const f = predictions[r * n + i];
      v += (f - mean) * (f - mean);
      e += (f - yObserved[i]) * (f - yObserved[i]);
    }
    variance += v / nModels;
    error += e / nModels;
    bias2 += (mean - y[i]) * (mean - y[i]);
    noise += (yObserved[i] - y[i]) * (yObserved[i] - y[i]);
  }
  return {
    error: error / n,
    bias2: bias2 / n,
    variance: variance / n,
    noise: noise / n,
    n_models: nModels,
    n_rows: n,
    true_label: input.yTrue ? "given" : input.groups ? "group_mean" : "observed",
  };
}

function groupMeans(values: ArrayLike<number>, groups: ArrayLike<number>): Float64Array {
  const sums = new Map<number, { sum: number; count: number }>();
  for (let i = 0; i < values.length; i++) {
    const g = sums.get(groups[i]) ?? { sum: 0, count: 0 };
    g.sum += values[i];
    g.count++;
    sums.set(groups[i], g);
  }
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const g = sums.get(groups[i])!;
    out[i] = g.sum / g.count;
  }
  return out;
}
