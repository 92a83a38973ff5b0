/**
 * Ridge regression (seed 002): minimises Σ w_i (y_i − b − x_iᵀβ)² + α‖β‖² as
 * scikit-learn's Ridge does (intercept unpenalised). "cholesky" is the closed
 * form — solved as least squares on the design stacked over √α·I, which is
 * better conditioned than forming XᵀX — and the optimisers minimise the same
 * objective divided by 2Σw.
 */
import { z } from "zod";
import type { Algorithm } from "../contract.js";
import { explainRegressor } from "./explain.js";
import { regressorStateSchema, type RegressorState } from "./linear-state.js";
import { solverParams, type IterativeSettings } from "./params.js";
import { closedForm, iterative, partialIterative } from "./regression-fit.js";
import { predictRegressor } from "./regressor-predict.js";

const NAME = "ridge";

/** solver "cholesky" (the default) takes alpha and fit_intercept alone; the iterative solvers add their own options (params.ts). */
export type RidgeParams = { alpha: number; fit_intercept: boolean } & ({ solver: "cholesky" } | IterativeSettings);
export const ridgeParams = solverParams<RidgeParams>(
  { alpha: z.number().nonnegative().default(1), fit_intercept: z.boolean().default(true) },
  { max_iter: 1000, tol: 1e-6 },
  "cholesky",
  { cholesky: {} },
);

export const ridge: Algorithm<RidgeParams, RegressorState> = {
  name: NAME,
  family: "linear",
  tasks: ["regression"],
  description: "Ridge regression (L2-penalised least squares): closed form or any iterative solver.",
  params: ridgeParams,
  state: regressorStateSchema,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // the L2 penalty weighs coefficients in the units of their columns
  fit(train, params, ctx) {
    if (params.solver === "cholesky") return closedForm(train, NAME, params.alpha, params.fit_intercept, "cholesky");
    return iterative(train, NAME, params.alpha, params, ctx);
  },
  /** The SGD models (a gradient solver): one epoch over the new rows from the coefficients (regression-fit.ts). */
  partialFit: (state, train, params, ctx) => partialIterative(state, train, NAME, params.alpha, params, ctx),
  predict: (state, X) => predictRegressor(state, X, NAME),
  explain: (state) => explainRegressor(state),
};
