/**
 * Softmax regression as seed 002 writes it: one weight vector per class,
 * p(k | x) = e^{w_kᵀx + b_k} / Σ_j e^{w_jᵀx + b_j}, fitted by maximum likelihood
 * (with an optional L2 penalty). The multinomial case of logistic_regression,
 * kept with one score per class even for two classes.
 */
import type { Algorithm } from "../contract.js";
import { predictClassifier } from "./classifier-predict.js";
import { explainClassifier } from "./explain.js";
import { classifierStateSchema, type ClassifierState } from "./linear-state.js";
import { fitLogistic } from "./logistic-fit.js";
import { penalisedParams, type PenalisedSettings } from "./logistic-params.js";

const NAME = "softmax_regression";

/** logistic_regression's penalty and solver options (logistic-params.ts), always multinomial. */
export type SoftmaxRegressionParams = PenalisedSettings;
export const softmaxRegressionParams = penalisedParams<SoftmaxRegressionParams>({});

export const softmaxRegression: Algorithm<SoftmaxRegressionParams, ClassifierState> = {
  name: NAME,
  family: "linear",
  tasks: ["classification"],
  description: "Softmax (multinomial logistic) regression: one linear score per class, fitted by maximum likelihood.",
  params: softmaxRegressionParams,
  state: classifierStateSchema,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // L2-penalised (C = 1) by default
  fit: (train, params, ctx) => fitLogistic(train, NAME, { ...params, multi_class: "multinomial" }, ctx),
  /** With a gradient solver: one epoch over the new rows from the coefficients (logistic-fit.ts). */
  partialFit: (state, train, params, ctx) => fitLogistic(train, NAME, { ...params, multi_class: "multinomial" }, ctx, state),
  predict: (state, X) => predictClassifier(state, X, NAME),
  explain: (state) => explainClassifier(state),
};
