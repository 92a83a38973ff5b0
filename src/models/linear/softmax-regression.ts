/**
 * Softmax regression as seed 002 writes it: one weight vector per class,
 * p(k | x) = e^{w_kᵀx + b_k} / Σ_j e^{w_jᵀx + b_j}, fitted by maximum likelihood
 * (with an optional L2 penalty). The multinomial case of logistic_regression,
 * kept with one score per class even for two classes.
 */
import { z } from "zod";
import type { Algorithm } from "../contract.js";
import { predictClassifier } from "./classifier-predict.js";
import { explainClassifier } from "./explain.js";
import { classifierStateSchema, type ClassifierState } from "./linear-state.js";
import { fitLogistic } from "./logistic-fit.js";
import { classWeightParam } from "./logistic-regression.js";
import { gradientFields, solverEnum } from "./params.js";

const NAME = "softmax_regression";

export const softmaxRegressionParams = z
  .object({
    penalty: z.enum(["l2", "l1", "elasticnet", "none"]).default("l2"),
    C: z.number().positive().default(1),
    l1_ratio: z.number().min(0).max(1).default(0.5),
    fit_intercept: z.boolean().default(true),
    class_weight: classWeightParam,
    solver: solverEnum.default("lbfgs"),
    max_iter: z.number().int().positive().default(100),
    tol: z.number().positive().default(1e-4),
    ...gradientFields,
  })
  .strict();
export type SoftmaxRegressionParams = z.infer<typeof softmaxRegressionParams>;

export const softmaxRegression: Algorithm<SoftmaxRegressionParams, ClassifierState> = {
  name: NAME,
  family: "linear",
  tasks: ["classification"],
  description: "Softmax (multinomial logistic) regression: one linear score per class, fitted by maximum likelihood.",
  params: softmaxRegressionParams,
  state: classifierStateSchema,
  accepts: { categorical: false, missing: false, weights: true },
  fit: (train, params, ctx) => fitLogistic(train, NAME, { ...params, multi_class: "multinomial" }, ctx),
  predict: (state, X) => predictClassifier(state, X, NAME),
  explain: (state) => explainClassifier(state),
};
