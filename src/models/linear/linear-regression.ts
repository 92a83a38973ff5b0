/**
 * Ordinary least squares (seed 000): closed form by QR/SVD ("lstsq", scikit-learn's
 * LinearRegression) or by any optimiser of optim/ on ½·mean squared error,
 * which is where seed 000's gradient descent, normalisation and adaptive rates live.
 */
import { z } from "zod";
import type { Algorithm } from "../contract.js";
import { explainRegressor } from "./explain.js";
import { regressorStateSchema, type RegressorState } from "./linear-state.js";
import { solverParams, type IterativeSettings } from "./params.js";
import { closedForm, iterative, partialIterative } from "./regression-fit.js";
import { predictRegressor } from "./regressor-predict.js";

const NAME = "linear_regression";

/** solver "lstsq" (the default) takes fit_intercept alone; the iterative solvers add their own options (params.ts). */
export type LinearRegressionParams = { fit_intercept: boolean } & ({ solver: "lstsq" } | IterativeSettings);
/** tol is on max |∂loss/∂θ| of ½·mean squared error. */
export const linearRegressionParams = solverParams<LinearRegressionParams>({ fit_intercept: z.boolean().default(true) }, { max_iter: 1000, tol: 1e-6 }, "lstsq", { lstsq: {} });

export const linearRegression: Algorithm<LinearRegressionParams, RegressorState> = {
  name: NAME,
  family: "linear",
  tasks: ["regression"],
  description: "Least-squares linear regression: closed form (QR + SVD, minimum-norm when rank-deficient) or any gradient, Newton or quasi-Newton solver.",
  params: linearRegressionParams,
  state: regressorStateSchema,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: false, // unpenalised least squares: rescaling a column rescales its coefficient
  fit(train, params, ctx) {
    if (params.solver === "lstsq") return closedForm(train, NAME, 0, params.fit_intercept, "lstsq");
    return iterative(train, NAME, 0, params, ctx);
  },
  /** The SGD models (a gradient solver): one epoch over the new rows from the coefficients (regression-fit.ts). */
  partialFit: (state, train, params, ctx) => partialIterative(state, train, NAME, 0, params, ctx),
  predict: (state, X) => predictRegressor(state, X, NAME),
  explain: (state) => explainRegressor(state),
};
