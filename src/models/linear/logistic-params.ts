/**
 * logistic_regression's parameters, apart from the algorithm so the binary learner
 * its one-vs-rest wraps (logistic-ovr.ts) can share them without an import cycle.
 */
import { z } from "zod";
import { gradientFields, solverEnum } from "./params.js";

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
    /**
     * auto: multinomial when there are more than two classes; ovr: the generic multiclass wrapper's
     * one-vs-rest. Named `multiclass` like the same choice on svm and perceptron (scikit-learn: multi_class).
     */
    multiclass: z.enum(["auto", "ovr", "multinomial"]).default("auto"),
    max_iter: z.number().int().positive().default(100),
    /** Gradient tolerance on the mean log-loss objective. */
    tol: z.number().positive().default(1e-4),
    ...gradientFields,
  })
  .strict();
export type LogisticRegressionParams = z.infer<typeof logisticRegressionParams>;
