/**
 * `rbf_network` (seed 003, the book's §5.5.1 RBF 网络): one hidden layer of radial units
 * and a linear output, φ(x) = Σ_i w_i ρ(x, c_i) + b with ρ(x, c) = exp(−β‖x − c‖²).
 *
 * Training is the book's two stages, with the second done in closed form rather than by BP:
 *   1. centres c_i: the k-means centres of the training rows (kmeans-engine.ts, k-means++
 *      seeded) or `n_centers` distinct random training rows;
 *   2. output weights: ridge least squares on the n × m design of ρ(x_j, c_i)
 *      (linear/least-squares.ts, intercept unpenalised), one output per class for
 *      classification (least squares on the class indicators) or one for regression.
 *
 * β is one width for every unit: `gamma` {"kind":"value"} gives it; {"kind":"mean_distance"}
 * (the default) takes σ = the mean distance between two distinct centres and β = 1/(2σ²), so
 * that a unit has fallen to e^(−1/2) at a typical neighbour (with one centre, or centres
 * all equal, σ is the root-mean-square distance of the rows to the centres, or 1 if that is 0).
 *
 * Probabilities: least squares on indicators gives scores that sum to 1 (the intercept is
 * unpenalised, and the indicators sum to the constant 1) but may leave [0, 1]; negative
 * scores are clipped to 0 and the rest renormalised. The label is the highest score.
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { throwIfAborted, UnusableInputError, type Algorithm, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { maxValuesOf, ValueBudget } from "../explain-bounds.js";
import { absoluteTolerance, kmeansPlusPlus, centresAtRows, lloyd, randomRows } from "../cluster/kmeans-engine.js";
import { leastSquares } from "../linear/least-squares.js";
import { checkClasses, checkFinite, checkLength, checkUnique, f64, structural } from "../state-schemas.js";
import { groupDigits } from "../../data/group-digits.js";

/** Most radial units: the fit holds the n × m design (and predict scans every centre per row). */
export const MAX_CENTERS = 2000;
const KMEANS_MAX_ITER = 300;

export const rbfGammaSchema = z
  .discriminatedUnion("kind", [z.object({ kind: z.literal("mean_distance") }).strict(), z.object({ kind: z.literal("value"), value: z.number().positive().max(1e12) }).strict()])
  .default({ kind: "mean_distance" })
  .describe('β of ρ(x, c) = exp(−β‖x − c‖²): {"kind":"mean_distance"} (σ = the mean distance between two distinct centres, β = 1/(2σ²)) or {"kind":"value","value":β}.');

export const rbfNetworkParams = z
  .object({
    n_centers: z
      .int()
      .min(1)
      .max(MAX_CENTERS)
      .default(10)
      .describe(`Radial (hidden) units. At most ${groupDigits(MAX_CENTERS)}; never more than the training rows (the fit then uses one per row).`),
    centers: z.enum(["kmeans", "random_rows"]).default("kmeans").describe("kmeans: the k-means centres of the training rows (k-means++ seeding); random_rows: distinct training rows drawn at random (seeded)."),
    gamma: rbfGammaSchema,
    alpha: z.number().min(0).max(1e12).default(1e-6).describe("Ridge penalty on the output weights (not the bias): α‖w‖² beside the squared error. 0 is plain least squares (minimum-norm when the design is rank deficient)."),
  })
  .strict();
export type RbfNetworkParams = z.infer<typeof rbfNetworkParams>;

export const rbfNetworkState = z
  .object({
    features: z.array(z.string()),
    task: z.enum(["classification", "regression"]),
    classes: z.array(z.string()).nullable(),
    /** m × features, row-major. */
    centers: f64,
    gamma: z.number().positive(),
    /** outputs × m, row-major: output o's weight on unit i. */
    weights: f64,
    /** One bias per output. */
    biases: f64,
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      const d = s.features.length;
      if (d === 0 || s.centers.length === 0 || s.centers.length % d !== 0) return report(`centers has ${s.centers.length} entries, not a whole number of ${d}-feature rows`, ["centers"]);
      const m = s.centers.length / d;
      if (m > MAX_CENTERS) return report(`${m} centres; at most ${MAX_CENTERS}`, ["centers"]);
      let outputs = 1;
      if (s.task === "classification") {
        if (s.classes === null) return report("a classifier needs its classes", ["classes"]);
        if (!checkClasses(s.classes, report, 2)) return;
        outputs = s.classes.length;
      } else if (s.classes !== null) return report("a regression network has no classes", ["classes"]);
      if (!checkLength(s.biases, outputs, "biases", report, `${outputs} outputs`) || !checkLength(s.weights, outputs * m, "weights", report, `${outputs} outputs × ${m} units`)) return;
      if (!checkFinite(s.centers, "centers", report) || !checkFinite(s.weights, "weights", report)) return;
      if (!Number.isFinite(s.gamma)) return report("gamma is not finite", ["gamma"], true);
      checkFinite(s.biases, "biases", report);
    }),
  );
export type RbfNetworkState = z.infer<typeof rbfNetworkState>;

function squaredDistance(a: Float64Array, i: number, b: Float64Array, j: number, d: number): number {
  let s = 0;
  for (let t = 0; t < d; t++) {
    const v = a[i * d + t] - b[j * d + t];
    s += v * v;
  }
  return s;
}

function chooseCentres(X: Float64Array, n: number, d: number, m: number, params: RbfNetworkParams, ctx: FitContext): Float64Array<ArrayBuffer> {
  if (params.centers === "random_rows") return centresAtRows(X, d, randomRows(n, m, ctx.rng));
  const init = centresAtRows(X, d, kmeansPlusPlus(X, n, d, m, ctx.rng, ctx.signal));
  return lloyd(X, n, d, init, m, { maxIter: KMEANS_MAX_ITER, tol: absoluteTolerance(X, n, d, 1e-4), signal: ctx.signal }).centres;
}

/** β from the mean distance between distinct centres (see the file comment). */
export function meanDistanceGamma(C: Float64Array, m: number, X: Float64Array, n: number, d: number): number {
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < m; i++) {
    for (let j = i + 1; j < m; j++) {
      sum += Math.sqrt(squaredDistance(C, i, C, j, d));
      pairs++;
    }
  }
  let sigma = pairs > 0 ? sum / pairs : 0;
  if (!(sigma > 0)) {
    let ss = 0;
    for (let r = 0; r < n; r++) {
      let best = Infinity;
      for (let c = 0; c < m; c++) best = Math.min(best, squaredDistance(X, r, C, c, d));
      ss += best;
    }
    sigma = Math.sqrt(ss / Math.max(1, n)) || 1;
  }
  return 1 / (2 * sigma * sigma);
}

/** Column-major design: column i holds ρ(x_r, c_i) for every row r. */
function design(X: Float64Array, n: number, d: number, C: Float64Array, m: number, gamma: number): Float64Array[] {
  return Array.from({ length: m }, (_, i) => {
    const col = new Float64Array(n);
    for (let r = 0; r < n; r++) col[r] = Math.exp(-gamma * squaredDistance(X, r, C, i, d));
    return col;
  });
}

function fit(train: TrainingSet, params: RbfNetworkParams, ctx: FitContext): RbfNetworkState {
  const target = train.target;
  if (!target) throw new UnusableInputError("rbf_network needs a target");
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  if (n === 0) throw new UnusableInputError("no training rows");
  if (d === 0) throw new UnusableInputError("rbf_network needs at least one feature");
  throwIfAborted(ctx.signal);
  const X = rowMajor(train.X);
  const m = Math.min(params.n_centers, n);
  const C = chooseCentres(X, n, d, m, params, ctx);
  const gamma = params.gamma.kind === "value" ? params.gamma.value : meanDistanceGamma(C, m, X, n, d);
  ctx.progress(0.5);
  throwIfAborted(ctx.signal);
  const columns = design(X, n, d, C, m, gamma);
  const outputs = target.task === "classification" ? target.classes.length : 1;
  const weights = new Float64Array(outputs * m);
  const biases = new Float64Array(outputs);
  for (let o = 0; o < outputs; o++) {
    throwIfAborted(ctx.signal);
    const y = target.task === "regression" ? target.y : Float64Array.from(target.y, (c) => (c === o ? 1 : 0));
    const solved = leastSquares(columns, y, n, { fitIntercept: true, alpha: params.alpha });
    weights.set(solved.coef, o * m);
    biases[o] = solved.intercept;
  }
  ctx.progress(1);
  return { features, task: target.task, classes: target.task === "classification" ? [...target.classes] : null, centers: C, gamma, weights, biases };
}

function predict(s: RbfNetworkState, frame: Frame): Prediction {
  const d = s.features.length;
  const m = s.centers.length / d;
  const X = rowMajor(selectColumns(frame, s.features));
  const n = frame.rowCount;
  const outputs = s.biases.length;
  const scores = new Float64Array(n * outputs);
  const phi = new Float64Array(m);
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < m; i++) phi[i] = Math.exp(-s.gamma * squaredDistance(X, r, s.centers, i, d));
    for (let o = 0; o < outputs; o++) {
      let v = s.biases[o];
      for (let i = 0; i < m; i++) v += s.weights[o * m + i] * phi[i];
      scores[r * outputs + o] = v;
    }
  }
  if (s.task === "regression") return { task: "regression", values: scores };
  const labels = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    let best = 0;
    let total = 0;
    for (let o = 0; o < outputs; o++) {
      const v = scores[r * outputs + o];
      if (v > scores[r * outputs + best]) best = o;
      total += Math.max(0, v);
    }
    labels[r] = best;
    for (let o = 0; o < outputs; o++) scores[r * outputs + o] = total > 0 ? Math.max(0, scores[r * outputs + o]) / total : 1 / outputs;
  }
  return { task: "classification", labels, proba: scores };
}

/** β, the units' centres and the output weights, within max_values numbers. */
function explain(s: RbfNetworkState, maxValues: number | undefined): Record<string, unknown> {
  const d = s.features.length;
  const m = s.centers.length / d;
  const budget = new ValueBudget(maxValuesOf(maxValues));
  const outputNames = s.task === "classification" ? (s.classes as string[]) : ["prediction"];
  const outputs = outputNames.map((name, o) => {
    const { values, truncated } = budget.take(s.weights.subarray(o * m, o * m + m));
    return { output: name, bias: s.biases[o], weights: values, ...(truncated ? { truncated: true } : {}) };
  });
  const centers: Record<string, number>[] = [];
  for (let i = 0; i < m && budget.remaining >= d; i++) {
    const { values } = budget.take(s.centers.subarray(i * d, i * d + d));
    centers.push(Object.fromEntries(values.map((v, j) => [s.features[j], v])));
  }
  return { n_centers: m, gamma: s.gamma, outputs, centers, ...(centers.length < m ? { centers_truncated: true } : {}) };
}

export const rbfNetwork: Algorithm<RbfNetworkParams, RbfNetworkState> = {
  name: "rbf_network",
  family: "neural",
  tasks: ["classification", "regression"],
  description: "Radial basis function network: Gaussian units at k-means centres or random rows, one width by the mean-distance heuristic or given, linear output layer by ridge least squares.",
  params: rbfNetworkParams,
  state: rbfNetworkState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true, // Euclidean distances to the centres in input units
  fit,
  predict,
  explain: (s, options) => explain(s, options?.maxValues),
};
