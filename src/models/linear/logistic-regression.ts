/**
 * Logistic regression (seed 002: the log-likelihood, fitted by Newton's method or
 * any other optimiser), binary, one-vs-rest or multinomial, with scikit-learn's
 * LogisticRegression parameters (C is the inverse penalty strength). One-vs-rest
 * (multiclass "ovr" with more than two classes) is the generic multiclass wrapper
 * over the binary model; see logistic-ovr.ts.
 */
import type { Algorithm } from "../contract.js";
import { predictMulticlass } from "../multiclass/wrapper.js";
import { classificationTarget } from "./classification.js";
import { predictClassifier } from "./classifier-predict.js";
import { explainClassifier } from "./explain.js";
import { fitLogistic } from "./logistic-fit.js";
import { binaryLogistic, explainLogisticOvr, fitLogisticOvr, isLogisticOvr, partialFitLogisticOvr, logisticStateSchema, type LogisticState } from "./logistic-ovr.js";
import { logisticRegressionParams, type LogisticRegressionParams } from "./logistic-params.js";

export { classWeightParam, logisticRegressionParams, type LogisticRegressionParams } from "./logistic-params.js";
export { isLogisticOvr, logisticStateSchema, type LogisticOvrState, type LogisticState } from "./logistic-ovr.js";

const NAME = "logistic_regression";

export const logisticRegression: Algorithm<LogisticRegressionParams, LogisticState> = {
  name: NAME,
  family: "linear",
  tasks: ["classification"],
  description: "Logistic regression: binary, one-vs-rest or multinomial; L2, L1 or elastic-net penalty; Newton, quasi-Newton or gradient solvers.",
  params: logisticRegressionParams,
  state: logisticStateSchema,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // L2-penalised (C = 1) by default
  fit(train, params, ctx) {
    if (params.multiclass === "ovr" && classificationTarget(train, NAME).classes.length > 2) return fitLogisticOvr(train, params, ctx);
    return fitLogistic(train, NAME, { ...params, multi_class: params.multiclass === "multinomial" ? "multinomial" : "auto" }, ctx);
  },
  /** The SGD models (a gradient solver): one epoch over the new rows from the coefficients (logistic-fit.ts). */
  partialFit(state, train, params, ctx) {
    if (isLogisticOvr(state)) return partialFitLogisticOvr(state, train, params, ctx);
    return fitLogistic(train, NAME, { ...params, multi_class: params.multiclass === "multinomial" ? "multinomial" : "auto" }, ctx, state);
  },
  predict: (state, X) => (isLogisticOvr(state) ? predictMulticlass(binaryLogistic, state.model, X) : predictClassifier(state, X, NAME)),
  explain: (state) => (isLogisticOvr(state) ? explainLogisticOvr(state) : explainClassifier(state)),
};
