/**
 * The perceptron of seeds 002/003: y = step(wᵀx − θ), trained by
 * w ← w + η(y − ŷ)x with the threshold θ learnt as the weight of a dummy input
 * fixed at −1. Binary only (one-vs-rest wrappers make it multiclass). Training
 * stops after an epoch without a mistake (converged) or after max_iter epochs —
 * which is how XOR, not linearly separable, ends: with converged: false.
 */
import { z } from "zod";
import { UnusableInputError, throwIfAborted, type Algorithm } from "../contract.js";
import { shuffleInPlace } from "../../data/random.js";
import { f64 } from "../state-schemas.js";
import { classificationTarget } from "./classification.js";
import { fittedColumns, moments, numericDesign } from "./design.js";
import { diagnosticsSchema } from "./linear-state.js";

const NAME = "perceptron";

export const perceptronParams = z
  .object({
    /** Learning rate η. */
    eta0: z.number().positive().default(1),
    /** Epochs (passes over the rows). */
    max_iter: z.number().int().positive().default(1000),
    /** Visit the rows in a new seeded order every epoch. */
    shuffle: z.boolean().default(true),
    /** Learn the threshold θ; false fixes θ = 0. */
    fit_intercept: z.boolean().default(true),
  })
  .strict();
export type PerceptronParams = z.infer<typeof perceptronParams>;

export const perceptronStateSchema = z
  .object({
    features: z.array(z.string()),
    classes: z.array(z.string()),
    coef: f64,
    threshold: z.number(),
    feature_std: f64,
    diagnostics: diagnosticsSchema,
  })
  .strict();
export type PerceptronState = z.infer<typeof perceptronStateSchema>;

export const perceptron: Algorithm<PerceptronParams, PerceptronState> = {
  name: NAME,
  family: "linear",
  tasks: ["classification"],
  description: "Rosenblatt's perceptron (binary): w ← w + η(y − ŷ)x with a learnt threshold; reports non-convergence on non-separable data.",
  params: perceptronParams,
  state: perceptronStateSchema,
  accepts: { categorical: false, missing: false, weights: false },
  fit(train, params, ctx) {
    const design = numericDesign(train.X, NAME);
    const { y, classes } = classificationTarget(train, NAME);
    if (classes.length !== 2) throw new UnusableInputError(`${NAME} is binary; wrap it one-vs-rest for ${classes.length} classes`);
    const { n, p } = design;
    const rows = new Float64Array(n * p);
    design.columns.forEach((c, j) => {
      for (let i = 0; i < n; i++) rows[i * p + j] = c[i];
    });
    const w = new Float64Array(p);
    let theta = 0;
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    let epochs = 0;
    let mistakes = n;
    while (epochs < params.max_iter && mistakes > 0) {
      throwIfAborted(ctx.signal);
      if (params.shuffle) shuffleInPlace(order, ctx.rng);
      mistakes = 0;
      for (let t = 0; t < n; t++) {
        const i = order[t];
        const o = i * p;
        let s = -theta;
        for (let j = 0; j < p; j++) s += w[j] * rows[o + j];
        const predicted = s >= 0 ? 1 : 0;
        const err = y[i] - predicted;
        if (err === 0) continue;
        mistakes++;
        const step = params.eta0 * err;
        for (let j = 0; j < p; j++) w[j] += step * rows[o + j];
        if (params.fit_intercept) theta -= step;
      }
      epochs++;
    }
    return {
      features: design.names,
      classes: [...classes],
      coef: w,
      threshold: theta,
      feature_std: moments(design.columns, n).std,
      diagnostics: { solver: "perceptron", converged: mistakes === 0, iterations: epochs, loss: mistakes, grad_norm: null },
    };
  },
  predict(state, X) {
    const columns = fittedColumns(X, state.features, NAME);
    const n = X.rowCount;
    const scores = new Float64Array(n).fill(-state.threshold);
    columns.forEach((c, j) => {
      const wj = state.coef[j];
      for (let i = 0; i < n; i++) scores[i] += wj * c[i];
    });
    const labels = new Int32Array(n);
    for (let i = 0; i < n; i++) labels[i] = scores[i] >= 0 ? 1 : 0;
    return { task: "classification", labels };
  },
  explain(state) {
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
  },
};
