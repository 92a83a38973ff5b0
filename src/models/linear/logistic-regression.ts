/**
 * Logistic regression (seed 002: the log-likelihood, fitted by Newton's method or
 * any other optimiser), binary, one-vs-rest or multinomial, with scikit-learn's
 * LogisticRegression parameters (C is the inverse penalty strength).
 */
import { z } from "zod";
import type { Algorithm } from "../contract.js";
import { predictClassifier } from "./classifier-predict.js";
import { explainClassifier } from "./explain.js";
import { classifierStateSchema, type ClassifierState } from "./linear-state.js";
import { fitLogistic } from "./logistic-fit.js";
import { gradientFields, solverEnum } from "./params.js";

const NAME = "logistic_regression";

export const classWeightParam = z
  .union([z.literal("balanced"), z.record(z.string(), z.number().positive())])
  .nullable()
  .default(null);

export const logisticRegressionParams = z
  .object({
    penalty: z.enum(["l2", "l1", "elasticnet", "none"]).default("l2"),
    C: z.number().positive().default(1),
    /** Share of L1 in the elasticnet penalty (only read when penalty is elasticnet). */
    l1_ratio: z.number().min(0).max(1).default(0.5),
    fit_intercept: z.boolean().default(true),
    class_weight: classWeightParam,
    solver: solverEnum.default("lbfgs"),
    /** auto: multinomial when there are more than two classes. */
    multi_class: z.enum(["auto", "ovr", "multinomial"]).default("auto"),
    max_iter: z.number().int().positive().default(100),
    /** Gradient tolerance on the mean log-loss objective. */
    tol: z.number().positive().default(1e-4),
    ...gradientFields,
  })
  .strict();
export type LogisticRegressionParams = z.infer<typeof logisticRegressionParams>;

export const logisticRegression: Algorithm<LogisticRegressionParams, ClassifierState> = {
  name: NAME,
  family: "linear",
  tasks: ["classification"],
  description: "Logistic regression: binary, one-vs-rest or multinomial; L2, L1 or elastic-net penalty; Newton, quasi-Newton or gradient solvers.",
  params: logisticRegressionParams,
  state: classifierStateSchema,
  accepts: { categorical: false, missing: false, weights: true },
  fit: (train, params, ctx) => fitLogistic(train, NAME, params, ctx),
  predict: (state, X) => predictClassifier(state, X, NAME),
  explain: (state) => explainClassifier(state),
};
