/**
 * Lasso and elastic net with scikit-learn's parameterisation:
 *   (1/(2Σw)) Σ w_i (y_i − b − x_iᵀβ)² + α·l1_ratio·‖β‖₁ + ½·α·(1 − l1_ratio)·‖β‖²
 * (Lasso is l1_ratio = 1). Multiplied through by Σw this is coordinate descent's
 * form with λ1 = α·l1_ratio·Σw and λ2 = α·(1 − l1_ratio)·Σw.
 */
import type { FitContext, TrainingSet } from "../contract.js";
import { enetCoordinateDescent } from "./coordinate-descent.js";
import { checkWeights, moments, numericDesign, weightedMean } from "./design.js";
import type { RegressorState } from "./linear-state.js";
import { regressionTarget } from "./regression-fit.js";

export interface ElasticNetSettings {
  alpha: number;
  l1_ratio: number;
  fit_intercept: boolean;
  max_iter: number;
  tol: number;
  selection: "cyclic" | "random";
}

export function fitElasticNet(train: TrainingSet, algorithm: string, settings: ElasticNetSettings, ctx: FitContext): RegressorState {
  const design = numericDesign(train.X, algorithm);
  const y = regressionTarget(train, algorithm);
  const weights = train.weights;
  checkWeights(weights, design.n, algorithm);
  const { n, p } = design;
  const m = moments(design.columns, n, weights);
  const yMean = settings.fit_intercept ? weightedMean(y, weights) : 0;
  const root = weights ? weights.map(Math.sqrt) : null;
  const columns = design.columns.map((c, j) => {
    const shift = settings.fit_intercept ? m.mean[j] : 0;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = (c[i] - shift) * (root ? root[i] : 1);
    return out;
  });
  const yc = new Float64Array(n);
  for (let i = 0; i < n; i++) yc[i] = (y[i] - yMean) * (root ? root[i] : 1);

  const l1 = settings.alpha * settings.l1_ratio * m.total;
  const l2 = settings.alpha * (1 - settings.l1_ratio) * m.total;
  const r = enetCoordinateDescent(columns, yc, l1, l2, {
    maxIter: settings.max_iter,
    tol: settings.tol,
    rng: settings.selection === "random" ? ctx.rng : undefined,
    signal: ctx.signal,
  });
  let intercept = yMean;
  if (settings.fit_intercept) for (let j = 0; j < p; j++) intercept -= m.mean[j] * r.coef[j];
  return {
    features: design.names,
    coef: r.coef,
    intercept,
    feature_std: m.std,
    diagnostics: { solver: "coordinate_descent", converged: r.converged, iterations: r.iterations, loss: null, grad_norm: r.gap },
  };
}
