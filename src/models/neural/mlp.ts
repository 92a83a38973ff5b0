/**
 * `mlp`: the multi-layer feed-forward network trained by error backpropagation
 * (seeds 000 and 003, chapter 5), for classification and regression.
 * Regression targets are standardised inside the fit (and restored at predict) so
 * that learning rates do not depend on the target's units.
 */
import { z } from "zod";
import { selectColumns } from "../../data/frame.js";
import { permutation, type Rng } from "../../data/random.js";
import { UnusableInputError, type Algorithm, type FitContext, type Target, type TrainingSet } from "../contract.js";
import { checkClasses, checkFinite, checkLength, checkUnique, f64, structural } from "../state-schemas.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { maxValuesOf } from "../explain-bounds.js";
import { layoutOf, Network, type NetworkSpec } from "./network.js";
import type { LossName, OutputName } from "./output-layer.js";
import { mlpParams, type MlpParams } from "./params.js";
import { trainRun, type Rows, type RunResult } from "./trainer.js";

export const mlpState = z
  .object({
    features: z.array(z.string()),
    task: z.enum(["classification", "regression"]),
    classes: z.array(z.string()).nullable(),
    sizes: z.array(z.number().int().positive()).min(2),
    activation: z.enum(["sigmoid", "tanh", "relu"]),
    output: z.enum(["softmax", "sigmoid", "identity"]),
    loss: z.enum(["cross_entropy", "squared_error"]),
    params: f64,
    /** Regression only: the target's training mean and std (predictions are scaled back). */
    y_mean: z.number(),
    y_std: z.number(),
    n_iter: z.number().int().nonnegative(),
    loss_curve: z.array(z.number()),
    /** Validation loss per epoch with early_stopping, else empty. */
    validation_curve: z.array(z.number()),
    validation_loss: z.number().nullable(),
    /** Ranking loss of every run (first the initial one, then the restarts); the lowest was kept. */
    run_scores: z.array(z.number()),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      if (s.sizes[0] !== s.features.length) return report(`the input layer has ${s.sizes[0]} units for ${s.features.length} features`, ["sizes", 0]);
      const units = s.sizes[s.sizes.length - 1];
      if (s.task === "classification") {
        if (s.classes === null) return report("a classifier needs its classes", ["classes"]);
        if (!checkClasses(s.classes, report, 2)) return;
        const expected = s.output === "sigmoid" && s.classes.length === 2 ? 1 : s.classes.length;
        if (s.output === "identity" || units !== expected) return report(`the ${s.output} output layer has ${units} units for ${s.classes.length} classes`, ["sizes", s.sizes.length - 1]);
      } else if (s.classes !== null || s.output !== "identity" || units !== 1) return report("a regression network has one identity output and no classes", ["sizes", s.sizes.length - 1]);
      // The layer shapes chain (each weight matrix is previous × next units): their sum is the parameter count.
      const total = layoutOf(s.sizes).total;
      if (!checkLength(s.params, total, "params", report, `layers ${s.sizes.join("→")}`)) return;
      if (!checkFinite(s.params, "params", report)) return;
      if (!(s.y_std > 0)) report("y_std must be positive", ["y_std"]);
    }),
  );
export type MlpState = z.infer<typeof mlpState>;

function resolveHead(params: MlpParams, target: Target): { output: OutputName; loss: LossName; units: number } {
  if (target.task === "classification") {
    const k = target.classes.length;
    if (k < 2) throw new UnusableInputError("the target has fewer than two classes");
    if (params.output === "identity") throw new UnusableInputError('output "identity" is for regression; use softmax or sigmoid');
    const output: OutputName = params.output === "auto" ? (k === 2 ? "sigmoid" : "softmax") : params.output;
    const loss: LossName = params.loss === "auto" ? "cross_entropy" : params.loss;
    return { output, loss, units: output === "sigmoid" && k === 2 ? 1 : k };
  }
  if (params.output === "softmax" || params.output === "sigmoid") throw new UnusableInputError(`output "${params.output}" is for classification; regression uses identity`);
  if (params.loss === "cross_entropy") throw new UnusableInputError("cross_entropy is for classification; regression uses squared_error");
  return { output: "identity", loss: "squared_error", units: 1 };
}

function encodeTargets(target: Target, units: number, yMean: number, yStd: number): Float64Array {
  const n = target.y.length;
  const Y = new Float64Array(n * units);
  if (target.task === "regression") {
    for (let i = 0; i < n; i++) Y[i] = (target.y[i] - yMean) / yStd;
  } else if (units === 1) {
    for (let i = 0; i < n; i++) Y[i] = target.y[i];
  } else {
    for (let i = 0; i < n; i++) Y[i * units + target.y[i]] = 1;
  }
  return Y;
}

/** Seeded hold-out of about `fraction` of the rows, stratified by class for classification. */
function validationRows(target: Target, fraction: number, rng: Rng): Uint8Array {
  const n = target.y.length;
  if (n < 2) throw new UnusableInputError("early_stopping needs at least two training rows");
  const held = new Uint8Array(n);
  const order = permutation(n, rng);
  const groups = new Map<number, number[]>();
  for (const i of order) {
    const g = target.task === "classification" ? target.y[i] : 0;
    const list = groups.get(g) ?? [];
    list.push(i);
    groups.set(g, list);
  }
  let count = 0;
  for (const list of groups.values()) {
    const take = Math.round(fraction * list.length);
    for (let t = 0; t < take; t++) held[list[t]] = 1;
    count += take;
  }
  if (count === 0) held[order[0]] = 1;
  if (count >= n) held[order[0]] = 0;
  return held;
}

function subset(X: Float64Array, Y: Float64Array, d: number, out: number, keep: Uint8Array, want: number): Rows {
  let n = 0;
  for (let i = 0; i < keep.length; i++) if (keep[i] === want) n++;
  const Xs = new Float64Array(n * d);
  const Ys = new Float64Array(n * out);
  let r = 0;
  for (let i = 0; i < keep.length; i++) {
    if (keep[i] !== want) continue;
    Xs.set(X.subarray(i * d, i * d + d), r * d);
    Ys.set(Y.subarray(i * out, i * out + out), r * out);
    r++;
  }
  return { X: Xs, Y: Ys, n };
}

function fit(train: TrainingSet, params: MlpParams, ctx: FitContext): MlpState {
  const target = train.target;
  if (!target) throw new UnusableInputError("mlp needs a target");
  const features = numericFeatureNames(train.X);
  const n = train.X.rowCount;
  if (n === 0) throw new UnusableInputError("no training rows");
  const d = features.length;
  const head = resolveHead(params, target);
  let yMean = 0;
  let yStd = 1;
  if (target.task === "regression") {
    for (let i = 0; i < n; i++) yMean += target.y[i];
    yMean /= n;
    let v = 0;
    for (let i = 0; i < n; i++) v += (target.y[i] - yMean) ** 2;
    yStd = Math.sqrt(v / n) || 1;
  }
  const X = rowMajor(train.X);
  const Y = encodeTargets(target, head.units, yMean, yStd);
  const spec: NetworkSpec = { sizes: [d, ...params.hidden_layer_sizes, head.units], activation: params.activation, output: head.output, loss: head.loss };

  let trainRows: Rows = { X, Y, n };
  let validation: Rows | null = null;
  if (params.early_stopping) {
    const held = validationRows(target, params.validation_fraction, ctx.rng.fork());
    trainRows = subset(X, Y, d, head.units, held, 0);
    validation = subset(X, Y, d, head.units, held, 1);
  }

  const runs = 1 + params.n_restarts;
  const rngs = Array.from({ length: runs }, () => ctx.rng.fork());
  let best: RunResult | null = null;
  const scores: number[] = [];
  for (let run = 0; run < runs; run++) {
    const result = trainRun(spec, params, trainRows, validation, rngs[run], ctx.signal, (epoch) => ctx.progress((run + epoch / params.max_iter) / runs));
    scores.push(result.score);
    if (best === null || result.score < best.score) best = result;
  }
  const kept = best as RunResult;
  return {
    features,
    task: target.task,
    classes: target.task === "classification" ? [...target.classes] : null,
    sizes: [...spec.sizes],
    activation: spec.activation,
    output: spec.output,
    loss: spec.loss,
    params: new Float64Array(kept.params),
    y_mean: yMean,
    y_std: yStd,
    n_iter: kept.epochs,
    loss_curve: kept.lossCurve,
    validation_curve: kept.validationCurve,
    validation_loss: kept.validationLoss,
    run_scores: scores,
  };
}

function specOf(state: MlpState): NetworkSpec {
  return { sizes: state.sizes, activation: state.activation, output: state.output, loss: state.loss };
}

function predict(state: MlpState, frame: Parameters<Algorithm["predict"]>[1]) {
  const Xf = selectColumns(frame, state.features);
  const n = Xf.rowCount;
  const X = rowMajor(Xf);
  const units = state.sizes[state.sizes.length - 1];
  const net = new Network(specOf(state), Math.max(1, Math.min(n, 256)));
  const out = new Float64Array(n * units);
  net.predictInto(state.params, X, n, out);
  if (state.task === "regression") {
    for (let i = 0; i < n; i++) out[i] = out[i] * state.y_std + state.y_mean;
    return { task: "regression" as const, values: out };
  }
  const k = (state.classes as string[]).length;
  const proba = units === 1 ? new Float64Array(2 * n) : out;
  if (units === 1) {
    for (let i = 0; i < n; i++) {
      proba[2 * i] = 1 - out[i];
      proba[2 * i + 1] = out[i];
    }
  } else if (state.output !== "softmax") {
    // k independent sigmoid units: normalise into a distribution.
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let c = 0; c < k; c++) s += proba[i * k + c];
      for (let c = 0; c < k; c++) proba[i * k + c] = s > 0 ? proba[i * k + c] / s : 1 / k;
    }
  }
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let bestC = 0;
    for (let c = 1; c < k; c++) if (proba[i * k + c] > proba[i * k + bestC]) bestC = c;
    labels[i] = bestC;
  }
  return { task: "classification" as const, labels, proba };
}

/**
 * Per layer its shape and at most `maxValues` weights (whole rows of `weights[i][j]`,
 * input i to unit j, from the first input on; part of the first row when a row is
 * longer) and biases, with the input and unit names those cover and `truncated` when
 * anything was left out: a 16 × 4096 network's weights stay in the artifact.
 */
function explain(state: MlpState, options?: { maxValues?: number }) {
  const layout = layoutOf(state.sizes);
  const maxValues = maxValuesOf(options?.maxValues);
  const names = (l: number, count: number): string[] =>
    l === 0 ? state.features.slice(0, count) : l === state.sizes.length - 1 ? outputNames(state).slice(0, count) : Array.from({ length: count }, (_, h) => `h${l}_${h}`);
  const layers = state.sizes.slice(1).map((m, idx) => {
    const nIn = state.sizes[idx];
    const wo = layout.weights[idx];
    const bo = layout.biases[idx];
    const cols = Math.min(m, maxValues);
    const rows = Math.min(nIn, Math.max(1, Math.floor(maxValues / m)));
    return {
      shape: { inputs: nIn, units: m },
      inputs: names(idx, rows),
      units: names(idx + 1, cols),
      /** weights[i][j]: from input i to unit j. */
      weights: Array.from({ length: rows }, (_, i) => Array.from(state.params.subarray(wo + i * m, wo + i * m + cols))),
      biases: Array.from(state.params.subarray(bo, bo + cols)),
      truncated: rows < nIn || cols < m,
    };
  });
  return {
    layer_sizes: state.sizes,
    activation: state.activation,
    output: state.output,
    loss: state.loss,
    n_iter: state.n_iter,
    loss_curve: state.loss_curve,
    validation_curve: state.validation_curve,
    validation_loss: state.validation_loss,
    run_scores: state.run_scores,
    layers,
  };
}

function outputNames(state: MlpState): string[] {
  if (state.task === "regression") return ["prediction"];
  const classes = state.classes as string[];
  return state.sizes[state.sizes.length - 1] === 1 ? [`P(${classes[1]})`] : classes;
}

/**
 * partial_fit: one epoch of the solver over the new rows from the stored weights (scikit-learn's
 * MLPClassifier.partial_fit: one pass, no early stopping, no restarts). The optimiser's own
 * state (momentum velocities, adam's moments and step count) is not in the artifact: it starts
 * afresh for the pass, so plain sgd continues exactly and the others restart their averages.
 * A regression target is standardised with the fit's mean and deviation.
 */
function partialFit(state: MlpState, train: TrainingSet, params: MlpParams, ctx: FitContext): MlpState {
  const target = train.target;
  if (!target || target.task !== state.task) throw new UnusableInputError(`partial_fit rows must have the model's ${state.task} target`);
  if (target.task === "classification" && (target.classes.length !== state.classes!.length || target.classes.some((c, k) => c !== state.classes![k]))) {
    throw new UnusableInputError("partial_fit rows must use the model's classes");
  }
  const spec = specOf(state);
  const units = spec.sizes[spec.sizes.length - 1];
  const n = train.X.rowCount;
  const X = rowMajor(selectColumns(train.X, state.features));
  const Y = encodeTargets(target, units, state.y_mean, state.y_std);
  const once: MlpParams = { ...params, max_iter: 1, early_stopping: false, n_restarts: 0 };
  const run = trainRun(spec, once, { X, Y, n }, null, ctx.rng, ctx.signal, () => {}, state.params);
  return {
    ...state,
    params: new Float64Array(run.params),
    n_iter: state.n_iter + run.epochs,
    loss_curve: [...state.loss_curve, ...run.lossCurve],
  };
}

export const mlp: Algorithm<MlpParams, MlpState> = {
  name: "mlp",
  family: "neural",
  tasks: ["classification", "regression"],
  description:
    "Multi-layer feed-forward network trained by backpropagation: standard, accumulated or mini-batch BP; sgd, momentum or adam; L2 penalty; early stopping on a seeded validation split; seeded restarts.",
  params: mlpParams,
  state: mlpState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true, // weights start at a fixed scale and the L2 penalty (alpha) applies
  fit,
  partialFit,
  predict,
  explain,
};
