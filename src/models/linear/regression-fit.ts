/**
 * Shared fitting of the squared-loss regressors (linear_regression, ridge):
 * closed form by least squares, or any optimiser on standardised features.
 */
import { UnusableInputError, type FitContext, type TrainingSet } from "../contract.js";
import { minimize } from "../optim/minimize.js";
import { checkWeights, moments, numericDesign, type Design } from "./design.js";
import { leastSquares } from "./least-squares.js";
import type { RegressorState } from "./linear-state.js";
import { checkDenseSolver, minimizeOptions, type IterativeSettings } from "./params.js";
import { squaredLoss } from "./squared-loss.js";
import { penaltyWeights, standardize, unstandardize } from "./standardize.js";

export type GradientParams = IterativeSettings & { fit_intercept: boolean };

export function regressionTarget(train: TrainingSet, algorithm: string): Float64Array {
  if (!train.target || train.target.task !== "regression") throw new UnusableInputError(`${algorithm} needs a numeric (regression) target`);
  const y = train.target.y;
  for (let i = 0; i < y.length; i++) if (!Number.isFinite(y[i])) throw new UnusableInputError(`${algorithm}: the target has missing or non-finite values`);
  return y;
}

/** Minimises Σ w_i r_i² + α‖w‖² exactly (QR + SVD, minimum norm when rank-deficient). */
export function closedForm(train: TrainingSet, algorithm: string, alpha: number, fitIntercept: boolean, solver: string): RegressorState {
  const design = numericDesign(train.X, algorithm);
  const y = regressionTarget(train, algorithm);
  checkWeights(train.weights, design.n, algorithm);
  const r = leastSquares(design.columns, y, design.n, { fitIntercept, weights: train.weights, alpha });
  return {
    features: design.names,
    coef: r.coef,
    intercept: r.intercept,
    feature_std: moments(design.columns, design.n, train.weights).std,
    diagnostics: { solver, converged: true, iterations: 0, loss: r.residualSumOfSquares, grad_norm: null },
  };
}

/** The same objective, scaled by 1/(2Σw), by an iterative optimiser. */
export function iterative(train: TrainingSet, algorithm: string, alpha: number, params: GradientParams, ctx: FitContext): RegressorState {
  const method = params.solver;
  const design: Design = numericDesign(train.X, algorithm);
  const y = regressionTarget(train, algorithm);
  checkWeights(train.weights, design.n, algorithm);
  checkDenseSolver(method, design.p + 1, algorithm);
  const s = standardize(design, train.weights, params.fit_intercept, params.normalize_features);
  const l2 = alpha > 0 ? penaltyWeights(alpha / s.total, s.scale, 2) : undefined;
  const objective = squaredLoss(s.features, y, { fitIntercept: params.fit_intercept, weights: train.weights, l2 });
  const x0 = new Float64Array(objective.size);
  const result = minimize(objective, x0, minimizeOptions(params, ctx));
  const { coef, intercept } = unstandardize(result.x, 0, params.fit_intercept ? result.x[design.p] : 0, s.shift, s.scale);
  return {
    features: design.names,
    coef,
    intercept,
    feature_std: s.std,
    diagnostics: { solver: method, converged: result.converged, iterations: result.iterations, loss: result.loss, grad_norm: result.gradNorm },
  };
}
