/**
 * `cascade_correlation` (seed 003, the book's §5.5.5 级联相关网络; Fahlman & Lebiere 1990):
 * a network that grows. It starts with inputs wired straight to the outputs; then, one at a
 * time, a hidden unit is added:
 *   1. a pool of `n_candidates` candidate units (tanh of a weighted sum of the inputs, every
 *      earlier hidden unit and a bias; seeded initial weights in [−1, 1]) is trained by gradient
 *      ascent (Adam, `candidate_epochs` full-batch steps) on the correlation of its output V with
 *      the residual error E of each output: S = Σ_o |Σ_p (V_p − V̄)(E_po − Ē_o)|, divided by
 *      the rows and the residual's size so the step does not depend on either;
 *   2. the candidate with the highest S joins the network and its input weights are frozen
 *      (the cascade: later units see its output);
 *   3. the output layer is trained again on [inputs, hidden units]: ridge least squares
 *      (linear/least-squares.ts), one output per class on the class indicators for
 *      classification (probabilities as in rbf_network: negative scores clipped, renormalised),
 *      one output for regression.
 * Growth stops at `max_hidden_units`, when a unit lowers the training mean squared error by
 * less than the fraction `tol` (that unit is not kept), or once the error is at rounding level.
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { throwIfAborted, UnusableInputError, type Algorithm, type FitContext, type Prediction, type Target, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { maxValuesOf, ValueBudget } from "../explain-bounds.js";
import { leastSquares } from "../linear/least-squares.js";
import { createStepper } from "../optim/steppers.js";
import { checkClasses, checkFinite, checkLength, checkUnique, f64, structural } from "../state-schemas.js";
import { groupDigits } from "../../data/group-digits.js";

/** Hidden units: each one adds a column to the output layer's least squares and a row of cascade weights. */
export const MAX_CASCADE_UNITS = 200;
export const MAX_CANDIDATES = 100;
export const MAX_CANDIDATE_EPOCHS = 100_000;

export const cascadeCorrelationParams = z
  .object({
    max_hidden_units: z.int().min(0).max(MAX_CASCADE_UNITS).default(10).describe(`Most hidden units grown (0: the inputs' linear least squares). At most ${MAX_CASCADE_UNITS}.`),
    n_candidates: z.int().min(1).max(MAX_CANDIDATES).default(8).describe(`Candidate units trained for each place; the most correlated joins. At most ${MAX_CANDIDATES}.`),
    candidate_epochs: z.int().min(1).max(MAX_CANDIDATE_EPOCHS).default(200).describe(`Full-batch gradient steps per candidate. At most ${groupDigits(MAX_CANDIDATE_EPOCHS)}.`),
    candidate_learning_rate: z.number().gt(0).max(10).default(0.05).describe("Adam's step size for the candidates' weights."),
    alpha: z.number().min(0).max(1e12).default(1e-6).describe("Ridge penalty on the output weights (not the biases)."),
    tol: z.number().min(0).max(1).default(1e-3).describe("Stop growing when a new unit lowers the training mean squared error by less than this fraction of it."),
  })
  .strict();
export type CascadeCorrelationParams = z.infer<typeof cascadeCorrelationParams>;

export const cascadeCorrelationState = z
  .object({
    features: z.array(z.string()).min(1),
    task: z.enum(["classification", "regression"]),
    classes: z.array(z.string()).nullable(),
    n_hidden: z.int().min(0).max(MAX_CASCADE_UNITS),
    /** Unit k's weights: features + k earlier units + a bias, units one after another. */
    hidden_weights: f64,
    /** outputs × (features + n_hidden), row-major. */
    output_weights: f64,
    output_biases: f64,
    /** Training mean squared error of the outputs after 0, 1, … hidden units. */
    mse_curve: z.array(z.number()),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      const d = s.features.length;
      const H = s.n_hidden;
      let outputs = 1;
      if (s.task === "classification") {
        if (s.classes === null) return report("a classifier needs its classes", ["classes"]);
        if (!checkClasses(s.classes, report, 2)) return;
        outputs = s.classes.length;
      } else if (s.classes !== null) return report("a regression network has no classes", ["classes"]);
      if (!checkLength(s.hidden_weights, H * (d + 1) + (H * (H - 1)) / 2, "hidden_weights", report, `${H} cascaded units over ${d} features`)) return;
      if (!checkLength(s.output_weights, outputs * (d + H), "output_weights", report, `${outputs} outputs × ${d + H} inputs`) || !checkLength(s.output_biases, outputs, "output_biases", report)) return;
      if (checkFinite(s.hidden_weights, "hidden_weights", report) && checkFinite(s.output_weights, "output_weights", report)) checkFinite(s.output_biases, "output_biases", report);
    }),
  );
export type CascadeCorrelationState = z.infer<typeof cascadeCorrelationState>;

/** Offset of unit k's weights in hidden_weights. */
const unitOffset = (k: number, d: number) => k * (d + 1) + (k * (k - 1)) / 2;

/** Column-major activations of the cascade: columns 0…d−1 the inputs, then one per hidden unit. */
function cascadeColumns(X: Float64Array, n: number, d: number, hidden: Float64Array, H: number): Float64Array[] {
  const cols: Float64Array[] = Array.from({ length: d }, (_, j) => Float64Array.from({ length: n }, (_, i) => X[i * d + j]));
  for (let k = 0; k < H; k++) cols.push(unitOutput(cols, n, hidden.subarray(unitOffset(k, d), unitOffset(k, d) + d + k + 1)));
  return cols;
}

/** tanh(Σ_j v_j z_j + bias) over the columns z (the bias is v's last entry). */
function unitOutput(cols: readonly Float64Array[], n: number, v: ArrayLike<number>): Float64Array {
  const m = cols.length;
  const out = new Float64Array(n).fill(v[m]);
  for (let j = 0; j < m; j++) {
    const c = cols[j];
    const w = v[j];
    for (let i = 0; i < n; i++) out[i] += w * c[i];
  }
  for (let i = 0; i < n; i++) out[i] = Math.tanh(out[i]);
  return out;
}

function targets(target: Target): Float64Array[] {
  if (target.task === "regression") return [target.y];
  return target.classes.map((_, o) => Float64Array.from(target.y, (c) => (c === o ? 1 : 0)));
}

/** Output layer by least squares on the columns; residuals E (per output) and their mean square. */
function solveOutputs(cols: readonly Float64Array[], Y: readonly Float64Array[], n: number, alpha: number) {
  const weights: Float64Array[] = [];
  const biases: number[] = [];
  const residuals: Float64Array[] = [];
  let sse = 0;
  for (const y of Y) {
    const solved = leastSquares(cols, y, n, { fitIntercept: true, alpha });
    const e = Float64Array.from(y, (v) => v - solved.intercept);
    cols.forEach((c, j) => {
      const w = solved.coef[j];
      for (let i = 0; i < n; i++) e[i] -= w * c[i];
    });
    for (let i = 0; i < n; i++) sse += e[i] * e[i];
    weights.push(solved.coef);
    biases.push(solved.intercept);
    residuals.push(e);
  }
  return { weights, biases, residuals, mse: sse / (n * Y.length) };
}

/** Trains one candidate on the centred residuals; returns its weights and final correlation score S. */
function trainCandidate(cols: readonly Float64Array[], n: number, E: readonly Float64Array[], params: CascadeCorrelationParams, init: Float64Array, signal: FitContext["signal"]): { v: Float64Array; score: number } {
  const m = cols.length;
  const v = init;
  const grad = new Float64Array(m + 1);
  const stepper = createStepper("adam", m + 1, { learningRate: params.candidate_learning_rate });
  let norm = 0;
  for (const e of E) for (let i = 0; i < n; i++) norm += e[i] * e[i];
  const scale = 1 / (n * Math.sqrt(norm / n || 1));
  const V = new Float64Array(n);
  const delta = new Float64Array(n);
  const evaluate = (): number => {
    V.set(unitOutput(cols, n, v));
    let mean = 0;
    for (let i = 0; i < n; i++) mean += V[i];
    mean /= n;
    delta.fill(0);
    let S = 0;
    for (const e of E) {
      let cov = 0;
      for (let i = 0; i < n; i++) cov += (V[i] - mean) * e[i];
      S += Math.abs(cov);
      const sign = cov >= 0 ? 1 : -1;
      // ∂|cov|/∂V_p = sign·(E_p − Ē); E is centred, so Ē = 0.
      for (let i = 0; i < n; i++) delta[i] += sign * e[i];
    }
    return S * scale;
  };
  for (let epoch = 0; epoch < params.candidate_epochs; epoch++) {
    if ((epoch & 63) === 0) throwIfAborted(signal);
    evaluate();
    grad.fill(0);
    for (let i = 0; i < n; i++) {
      const g = -delta[i] * (1 - V[i] * V[i]) * scale; // minimise −S
      for (let j = 0; j < m; j++) grad[j] += g * cols[j][i];
      grad[m] += g;
    }
    stepper.step(v, grad);
  }
  return { v, score: evaluate() };
}

function fit(train: TrainingSet, params: CascadeCorrelationParams, ctx: FitContext): CascadeCorrelationState {
  const target = train.target;
  if (!target) throw new UnusableInputError("cascade_correlation needs a target");
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  if (n === 0) throw new UnusableInputError("no training rows");
  if (d === 0) throw new UnusableInputError("cascade_correlation needs at least one feature");
  throwIfAborted(ctx.signal);
  const X = rowMajor(train.X);
  const Y = targets(target);
  const cols = cascadeColumns(X, n, d, new Float64Array(0), 0);
  const hidden: number[] = [];
  let layer = solveOutputs(cols, Y, n, params.alpha);
  const mseCurve = [layer.mse];
  for (let k = 0; k < params.max_hidden_units; k++) {
    // Fitted to rounding: nothing is left for a unit to correlate with.
    if (layer.mse <= 1e-12 * mseCurve[0]) break;
    throwIfAborted(ctx.signal);
    ctx.progress(k / params.max_hidden_units);
    const E = layer.residuals.map((e) => {
      let mean = 0;
      for (let i = 0; i < n; i++) mean += e[i];
      mean /= n;
      return e.map((v) => v - mean);
    });
    let best: { v: Float64Array; score: number } | null = null;
    for (let c = 0; c < params.n_candidates; c++) {
      const init = Float64Array.from({ length: cols.length + 1 }, () => 2 * ctx.rng.next() - 1);
      const candidate = trainCandidate(cols, n, E, params, init, ctx.signal);
      if (best === null || candidate.score > best.score) best = candidate;
    }
    const unit = (best as { v: Float64Array }).v;
    const trial = [...cols, unitOutput(cols, n, unit)];
    const next = solveOutputs(trial, Y, n, params.alpha);
    // A unit that does not lower the error by tol is not kept: growth has stopped paying.
    if (!(next.mse < layer.mse * (1 - params.tol))) break;
    cols.push(trial[trial.length - 1]);
    hidden.push(...unit);
    layer = next;
    mseCurve.push(next.mse);
  }
  ctx.progress(1);
  const H = cols.length - d;
  const outputs = Y.length;
  const outputWeights = new Float64Array(outputs * (d + H));
  layer.weights.forEach((w, o) => outputWeights.set(w, o * (d + H)));
  return {
    features,
    task: target.task,
    classes: target.task === "classification" ? [...target.classes] : null,
    n_hidden: H,
    hidden_weights: Float64Array.from(hidden),
    output_weights: outputWeights,
    output_biases: Float64Array.from(layer.biases),
    mse_curve: mseCurve,
  };
}

function predict(s: CascadeCorrelationState, frame: Frame): Prediction {
  const d = s.features.length;
  const n = frame.rowCount;
  const X = rowMajor(selectColumns(frame, s.features));
  const cols = cascadeColumns(X, n, d, s.hidden_weights, s.n_hidden);
  const m = cols.length;
  const outputs = s.output_biases.length;
  const scores = new Float64Array(n * outputs);
  for (let o = 0; o < outputs; o++) {
    for (let i = 0; i < n; i++) scores[i * outputs + o] = s.output_biases[o];
    for (let j = 0; j < m; j++) {
      const w = s.output_weights[o * m + j];
      const c = cols[j];
      for (let i = 0; i < n; i++) scores[i * outputs + o] += w * c[i];
    }
  }
  if (s.task === "regression") return { task: "regression", values: scores };
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    let total = 0;
    for (let o = 0; o < outputs; o++) {
      if (scores[i * outputs + o] > scores[i * outputs + best]) best = o;
      total += Math.max(0, scores[i * outputs + o]);
    }
    labels[i] = best;
    for (let o = 0; o < outputs; o++) scores[i * outputs + o] = total > 0 ? Math.max(0, scores[i * outputs + o]) / total : 1 / outputs;
  }
  return { task: "classification", labels, proba: scores };
}

function explain(s: CascadeCorrelationState, maxValues: number | undefined): Record<string, unknown> {
  const d = s.features.length;
  const m = d + s.n_hidden;
  const budget = new ValueBudget(maxValuesOf(maxValues));
  const inputs = [...s.features, ...Array.from({ length: s.n_hidden }, (_, k) => `h${k + 1}`)];
  const outputNames = s.task === "classification" ? (s.classes as string[]) : ["prediction"];
  const outputs = outputNames.map((name, o) => {
    const { values, truncated } = budget.take(s.output_weights.subarray(o * m, o * m + m));
    return { output: name, bias: s.output_biases[o], weights: Object.fromEntries(values.map((v, j) => [inputs[j], v])), ...(truncated ? { truncated: true } : {}) };
  });
  const hidden: { unit: string; bias: number; weights: Record<string, number> }[] = [];
  for (let k = 0; k < s.n_hidden && budget.remaining >= d + k + 1; k++) {
    const { values } = budget.take(s.hidden_weights.subarray(unitOffset(k, d), unitOffset(k, d) + d + k + 1));
    hidden.push({ unit: `h${k + 1}`, bias: values[d + k], weights: Object.fromEntries(values.slice(0, d + k).map((v, j) => [inputs[j], v])) });
  }
  return { n_hidden: s.n_hidden, activation: "tanh", mse_curve: s.mse_curve, outputs, hidden, ...(hidden.length < s.n_hidden ? { hidden_truncated: true } : {}) };
}

export const cascadeCorrelation: Algorithm<CascadeCorrelationParams, CascadeCorrelationState> = {
  name: "cascade_correlation",
  family: "neural",
  tasks: ["classification", "regression"],
  description: "Cascade-correlation network: grows tanh hidden units one at a time, each trained to correlate with the residual error and then frozen; the output layer is refitted by least squares after each.",
  params: cascadeCorrelationParams,
  state: cascadeCorrelationState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true, // candidate weights start in [−1, 1] whatever the inputs' units
  fit,
  predict,
  explain: (s, options) => explain(s, options?.maxValues),
};
