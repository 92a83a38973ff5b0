/**
 * logistic_regression's parameters, apart from the algorithm so the binary learner
 * its one-vs-rest wraps (logistic-ovr.ts) can share them without an import cycle.
 * The solver options are the tagged union of params.ts; the penalty's own options
 * are refused where the penalty makes them inert (C without a penalty, l1_ratio
 * outside elasticnet), and an L1 term needs a solver that can minimise it.
 */
import { z } from "zod";
import { refuseInert } from "../optim/solver-options.js";
import type { ClassWeight } from "./classification.js";
import { solverParams, type IterativeSettings } from "./params.js";

export const classWeightParam = z
  .union([z.literal("balanced"), z.record(z.string(), z.number().positive())])
  .nullable()
  .default(null);

export type Penalty = "l2" | "l1" | "elasticnet" | "none";

export type PenalisedSettings = IterativeSettings & {
  penalty: Penalty;
  C: number;
  l1_ratio: number;
  fit_intercept: boolean;
  class_weight: ClassWeight;
};

const C_DEFAULT = 1;
const L1_RATIO_DEFAULT = 0.5;

export const penaltyFields = {
  penalty: z.enum(["l2", "l1", "elasticnet", "none"]).default("l2"),
  /** Inverse penalty strength (not with penalty "none"). */
  C: z.number().positive().default(C_DEFAULT),
  /** Share of L1 in the elasticnet penalty (elasticnet only). */
  l1_ratio: z.number().min(0).max(1).default(L1_RATIO_DEFAULT),
  fit_intercept: z.boolean().default(true),
  class_weight: classWeightParam,
};

/** Only proximal gradient descent (gd) and OWL-QN (lbfgs) minimise an L1 term exactly. */
export function hasL1(p: { penalty: Penalty; l1_ratio: number }): boolean {
  return p.penalty === "l1" || (p.penalty === "elasticnet" && p.l1_ratio > 0);
}

export function penalisedParams<P extends PenalisedSettings>(extra: z.ZodRawShape): z.ZodType<P> {
  return solverParams<P>({ ...penaltyFields, ...extra }, { max_iter: 100, tol: 1e-4 }, "lbfgs").superRefine((p, ctx) => {
    if (p.penalty === "none") refuseInert(ctx, p.C, C_DEFAULT, "C", 'with penalty "none"');
    if (p.penalty !== "elasticnet") refuseInert(ctx, p.l1_ratio, L1_RATIO_DEFAULT, "l1_ratio", 'unless penalty is "elasticnet"');
    if (hasL1(p) && p.solver !== "gd" && p.solver !== "lbfgs") {
      ctx.addIssue({ code: "custom", path: ["solver"], message: `penalty "${p.penalty}" needs solver "lbfgs" (OWL-QN) or "gd" (proximal), not "${p.solver}"` });
    }
  });
}

/** auto: binary for two classes, multinomial above; ovr: the generic multiclass wrapper's one-vs-rest. Named `multiclass` like the same choice on svm and perceptron (scikit-learn: multi_class). */
export type LogisticRegressionParams = PenalisedSettings & { multiclass: "auto" | "ovr" | "multinomial" };
/** tol is on the gradient of the mean log-loss objective. */
export const logisticRegressionParams = penalisedParams<LogisticRegressionParams>({ multiclass: z.enum(["auto", "ovr", "multinomial"]).default("auto") });
