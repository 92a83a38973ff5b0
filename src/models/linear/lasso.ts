/**
 * LASSO (seed 002): (1/(2n))‖y − Xβ − b‖² + α‖β‖₁ by coordinate descent, as
 * scikit-learn's Lasso. diagnostics.grad_norm carries the final duality gap.
 */
import { z } from "zod";
import type { Algorithm } from "../contract.js";
import { fitElasticNet } from "./elastic-net-fit.js";
import { explainRegressor } from "./explain.js";
import { maxIterParam, tolParam } from "./params.js";
import { regressorStateSchema, type RegressorState } from "./linear-state.js";
import { predictRegressor } from "./regressor-predict.js";

const NAME = "lasso";

export const lassoParams = z
  .object({
    alpha: z.number().nonnegative().default(1),
    fit_intercept: z.boolean().default(true),
    /** Coordinate-descent sweeps. */
    max_iter: maxIterParam(1000),
    /** Converged when the duality gap is at most tol·‖y‖² (scikit-learn's criterion). */
    tol: tolParam(1e-4),
    selection: z.enum(["cyclic", "random"]).default("cyclic"),
  })
  .strict();
export type LassoParams = z.infer<typeof lassoParams>;

export const lasso: Algorithm<LassoParams, RegressorState> = {
  name: NAME,
  family: "linear",
  tasks: ["regression"],
  description: "LASSO: L1-penalised least squares by coordinate descent; irrelevant coefficients become exactly zero.",
  params: lassoParams,
  state: regressorStateSchema,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // the L1 penalty weighs coefficients in the units of their columns
  fit: (train, params, ctx) => fitElasticNet(train, NAME, { ...params, l1_ratio: 1 }, ctx),
  predict: (state, X) => predictRegressor(state, X, NAME),
  explain: (state) => explainRegressor(state),
};
