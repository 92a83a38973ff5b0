/**
 * Shared fitting of the squared-loss regressors (linear_regression, ridge):
 * closed form by least squares, or any optimiser on standardised features.
 */
import { UnusableInputError, type FitContext, type TrainingSet } from "../contract.js";
import { minimize } from "../optim/minimize.js";
import { FIRST_ORDER_METHODS, type FirstOrderMethod } from "../optim/types.js";
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
  const r = leastSquares(design.sources, y, design.n, { fitIntercept, weights: train.weights, alpha });
  return {
    features: design.names,
    coef: r.coef,
    intercept: r.intercept,
    feature_std: moments(design.sources, design.n, train.weights).std,
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

/**
 * partial_fit of a gradient-trained regressor (the SGD linear models: solver gd with batch_size for
 * mini-batches, momentum, nesterov, adagrad, rmsprop, adam): one epoch of the solver over the new
 * rows, from the stored coefficients, on the same objective restricted to those rows. The epoch runs
 * in the features' own units (no normalize_features: the new rows' statistics would move the
 * origin), and the optimiser's moments start afresh (they are not in the artifact), so plain gd
 * continues exactly. A closed-form or second-order fit has no epochs to continue: refused.
 */
export function partialIterative(state: RegressorState, train: TrainingSet, algorithm: string, alpha: number, params: { solver: string; fit_intercept: boolean }, ctx: FitContext): RegressorState {
  if (!(FIRST_ORDER_METHODS as readonly string[]).includes(params.solver)) {
    throw new UnusableInputError(`${algorithm} with solver ${params.solver} has no epochs to continue; partial_fit needs a gradient solver (${FIRST_ORDER_METHODS.join(", ")})`);
  }
  const settings = params as GradientParams & { solver: FirstOrderMethod };
  const design: Design = numericDesign(train.X, algorithm);
  if (design.names.length !== state.features.length || design.names.some((f, j) => f !== state.features[j])) {
    throw new UnusableInputError(`partial_fit rows must have the model's features (${state.features.join(", ")})`);
  }
  const y = regressionTarget(train, algorithm);
  checkWeights(train.weights, design.n, algorithm);
  const s = standardize(design, train.weights, settings.fit_intercept, false);
  const l2 = alpha > 0 ? penaltyWeights(alpha / s.total, s.scale, 2) : undefined;
  const objective = squaredLoss(s.features, y, { fitIntercept: settings.fit_intercept, weights: train.weights, l2 });
  const x0 = new Float64Array(objective.size);
  x0.set(state.coef);
  if (settings.fit_intercept) x0[design.p] = state.intercept;
  const result = minimize(objective, x0, { ...minimizeOptions(settings, ctx), maxIter: 1 });
  return {
    ...state,
    coef: Float64Array.from(result.x.subarray(0, design.p)),
    intercept: settings.fit_intercept ? result.x[design.p] : state.intercept,
    diagnostics: { solver: settings.solver, converged: result.converged, iterations: state.diagnostics.iterations + result.iterations, loss: result.loss, grad_norm: result.gradNorm },
  };
}
