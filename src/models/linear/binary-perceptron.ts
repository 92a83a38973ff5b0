/**
 * The perceptron of seeds 002/003: y = step(wᵀx − θ), trained by
 * w ← w + η(y − ŷ)x with the threshold θ learnt as the weight of a dummy input
 * fixed at −1. Two classes only; `perceptron` wraps it for more. Training
 * stops after an epoch without a mistake (converged) or after max_iter epochs —
 * which is how XOR, not linearly separable, ends: with converged: false.
 * Its decision wᵀx − θ is the confidence the multiclass wrapper breaks OvR ties with.
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import { shuffleInPlace } from "../../data/random.js";
import { UnusableInputError, throwIfAborted, type FitContext, type TrainingSet } from "../contract.js";
import type { BinaryLearner } from "../multiclass/binary-learner.js";
import { checkClasses, checkFinite, checkLength, f64, structural } from "../state-schemas.js";
import { classificationTarget } from "./classification.js";
import { fittedColumns, moments, numericDesign } from "./design.js";
import { checkFeatures, diagnosticsSchema } from "./linear-state.js";
import { maxIterParam } from "./params.js";

const NAME = "perceptron";

export const binaryPerceptronParamsShape = {
  /** Learning rate η. */
  eta0: z.number().positive().default(1),
  /** Epochs (passes over the rows), at most MAX_ITER. */
  max_iter: maxIterParam(1000),
  /** Visit the rows in a new seeded order every epoch. */
  shuffle: z.boolean().default(true),
  /** Learn the threshold θ; false fixes θ = 0. */
  fit_intercept: z.boolean().default(true),
};
export const binaryPerceptronParams = z.object(binaryPerceptronParamsShape).strict();
export type BinaryPerceptronParams = z.infer<typeof binaryPerceptronParams>;

export const binaryPerceptronState = z
  .object({
    features: z.array(z.string()),
    classes: z.array(z.string()),
    coef: f64,
    threshold: z.number(),
    feature_std: f64,
    diagnostics: diagnosticsSchema,
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      const p = s.features.length;
      if (!checkFeatures(s.features, report) || !checkClasses(s.classes, report, 2)) return;
      if (s.classes.length !== 2) return report(`a binary perceptron has exactly two classes, not ${s.classes.length}`, ["classes"]);
      if (checkLength(s.coef, p, "coef", report, "features") && checkLength(s.feature_std, p, "feature_std", report, "features")) checkFinite(s.coef, "coef", report);
    }),
  );
export type BinaryPerceptronState = z.infer<typeof binaryPerceptronState>;

/** wᵀx − θ per row: ≥ 0 predicts classes[1]. */
function decision(state: BinaryPerceptronState, X: Frame): Float64Array {
  const columns = fittedColumns(X, state.features, NAME);
  const n = X.rowCount;
  const scores = new Float64Array(n).fill(-state.threshold);
  columns.forEach((c, j) => {
    const wj = state.coef[j];
    for (let i = 0; i < n; i++) scores[i] += wj * c[i];
  });
  return scores;
}

/** Row-major n × p copy of the design's columns: the update loop reads one row at a time. */
function rowMajor(columns: readonly Float64Array[], n: number, p: number): Float64Array {
  const rows = new Float64Array(n * p);
  columns.forEach((c, j) => {
    for (let i = 0; i < n; i++) rows[i * p + j] = c[i];
  });
  return rows;
}

/** What the update loop needs of the params (the tree's perceptrons pass their own). */
export type EpochParams = Pick<BinaryPerceptronParams, "eta0" | "shuffle" | "fit_intercept">;

/** Options of the update loop that `perceptron` itself does not use (the perceptron tree does, tree/linear-node.ts). */
export interface EpochOptions {
  /** Per-row weights: a mistake on row i moves the plane η·wᵢ as far, and a weight-0 row never moves it nor counts as a mistake. */
  readonly weights?: Float64Array;
  /**
   * Gallant's pocket algorithm (1990): at the end of every epoch the plane is scored by its
   * (weighted) training mistakes and the best one seen, starting from the initial plane, is kept
   * in the pocket; on data that are not linearly separable the loop then returns the pocket's
   * plane instead of wherever the last epoch left it.
   */
  readonly pocket?: boolean;
}

export interface EpochRun {
  readonly theta: number;
  readonly epochs: number;
  /** Mistakes during the last epoch (0: converged). */
  readonly mistakes: number;
}

/**
 * The update loop, shared by fit and partial_fit: up to `maxEpochs` passes (each in a new seeded
 * order with shuffle), stopping after a pass without a mistake; `w` is updated in place.
 */
export function runEpochs(rows: Float64Array, y: Int32Array, n: number, p: number, w: Float64Array, theta0: number, params: EpochParams, ctx: FitContext, maxEpochs: number, options: EpochOptions = {}): EpochRun {
  const { weights } = options;
  let theta = theta0;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let epochs = 0;
  let mistakes = n;
  const pocket = options.pocket ? { w: Float64Array.from(w), theta, errors: trainingErrors(rows, y, n, p, w, theta, weights) } : null;
  while (epochs < maxEpochs && mistakes > 0) {
    throwIfAborted(ctx.signal);
    if (params.shuffle) shuffleInPlace(order, ctx.rng);
    mistakes = 0;
    for (let t = 0; t < n; t++) {
      const i = order[t];
      if (weights && weights[i] === 0) continue;
      const o = i * p;
      let s = -theta;
      for (let j = 0; j < p; j++) s += w[j] * rows[o + j];
      const predicted = s >= 0 ? 1 : 0;
      const err = y[i] - predicted;
      if (err === 0) continue;
      mistakes++;
      const step = weights ? params.eta0 * err * weights[i] : params.eta0 * err;
      for (let j = 0; j < p; j++) w[j] += step * rows[o + j];
      if (params.fit_intercept) theta -= step;
    }
    epochs++;
    if (pocket && mistakes > 0) {
      const errors = trainingErrors(rows, y, n, p, w, theta, weights);
      if (errors < pocket.errors) {
        pocket.w.set(w);
        pocket.theta = theta;
        pocket.errors = errors;
      }
    }
    ctx.progress(epochs / maxEpochs);
  }
  // An epoch without a mistake ends on a plane that makes none; otherwise the pocket holds the best seen.
  if (pocket && mistakes > 0) {
    w.set(pocket.w);
    theta = pocket.theta;
  }
  return { theta, epochs, mistakes };
}

/** Weighted training mistakes of the plane wᵀx − θ (≥ 0 predicts 1). */
function trainingErrors(rows: Float64Array, y: Int32Array, n: number, p: number, w: Float64Array, theta: number, weights: Float64Array | undefined): number {
  let errors = 0;
  for (let i = 0; i < n; i++) {
    const o = i * p;
    let s = -theta;
    for (let j = 0; j < p; j++) s += w[j] * rows[o + j];
    if ((s >= 0 ? 1 : 0) !== y[i]) errors += weights ? weights[i] : 1;
  }
  return errors;
}

/**
 * partial_fit: one pass over the new rows (in a seeded order with shuffle), continuing from the
 * weights and threshold — scikit-learn's Perceptron.partial_fit, one epoch. feature_std (only the
 * importances' scale) stays the fit's.
 */
function partialFit(state: BinaryPerceptronState, train: TrainingSet, params: BinaryPerceptronParams, ctx: FitContext): BinaryPerceptronState {
  const { y, classes } = classificationTarget(train, NAME);
  if (classes.length !== 2 || classes.some((c, k) => c !== state.classes[k])) throw new UnusableInputError(`partial_fit rows must use the model's classes`);
  const columns = fittedColumns(train.X, state.features, NAME);
  const n = train.X.rowCount;
  const p = columns.length;
  const w = Float64Array.from(state.coef);
  const run = runEpochs(rowMajor(columns, n, p), y, n, p, w, state.threshold, params, ctx, 1);
  return {
    ...state,
    coef: w,
    threshold: run.theta,
    diagnostics: { ...state.diagnostics, converged: run.mistakes === 0, iterations: state.diagnostics.iterations + run.epochs, loss: run.mistakes },
  };
}

export const binaryPerceptron: BinaryLearner<BinaryPerceptronParams, BinaryPerceptronState> = {
  name: NAME,
  family: "linear",
  tasks: ["classification"],
  description: "Rosenblatt's two-class perceptron",
  params: binaryPerceptronParams,
  state: binaryPerceptronState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true, // updates are proportional to the inputs
  fit(train, params, ctx) {
    const design = numericDesign(train.X, NAME);
    const { y, classes } = classificationTarget(train, NAME);
    if (classes.length !== 2) throw new UnusableInputError(`the binary ${NAME} got ${classes.length} classes`);
    const { n, p } = design;
    const rows = rowMajor(design.columns, n, p);
    const w = new Float64Array(p);
    const { theta, epochs, mistakes } = runEpochs(rows, y, n, p, w, 0, params, ctx, params.max_iter);
    return {
      features: design.names,
      classes: [...classes],
      coef: w,
      threshold: theta,
      feature_std: moments(design.columns, n).std,
      diagnostics: { solver: "perceptron", converged: mistakes === 0, iterations: epochs, loss: mistakes, grad_norm: null },
    };
  },
  partialFit,
  predict(state, X) {
    const scores = decision(state, X);
    const labels = new Int32Array(scores.length);
    for (let i = 0; i < scores.length; i++) labels[i] = scores[i] >= 0 ? 1 : 0;
    return { task: "classification", labels };
  },
  decision,
  /** No probabilities; saying so lets the wrapper take the decision alone, without a predict pass. */
  probabilityOf: () => null,
};

/** API.md's linear explanation of one binary perceptron: weights, the threshold as a negative intercept. */
export function explainBinaryPerceptron(state: BinaryPerceptronState) {
  const coefficients: Record<string, number> = {};
  const importances: Record<string, number> = {};
  state.features.forEach((f, j) => {
    coefficients[f] = state.coef[j];
    importances[f] = Math.abs(state.coef[j]) * state.feature_std[j];
  });
  return {
    coefficients,
    intercept: -state.threshold,
    threshold: state.threshold,
    positive_class: state.classes[1],
    feature_importances: importances,
    diagnostics: state.diagnostics,
  };
}
