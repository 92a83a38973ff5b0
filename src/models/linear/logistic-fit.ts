/**
 * Fitting of logistic (binary, one-vs-rest) and softmax regression with
 * scikit-learn's penalties, divided through by C·Σw so the loss is a mean:
 *   l2:         (1/Σw) Σ w_i ℓ_i + (1/(2CΣw)) ‖W‖²
 *   l1:         (1/Σw) Σ w_i ℓ_i + (1/(CΣw)) ‖W‖₁
 *   elasticnet: (1/Σw) Σ w_i ℓ_i + ((1 − ρ)/(2CΣw)) ‖W‖² + (ρ/(CΣw)) ‖W‖₁
 * Intercepts are never penalised. L1 terms need solver gd (proximal) or lbfgs (OWL-QN).
 */
import { UnusableInputError, type FitContext, type TrainingSet } from "../contract.js";
import { minimize, type Method, type MinimizeResult } from "../optim/minimize.js";
import { classificationTarget, classWeights, rowWeights, type ClassWeight } from "./classification.js";
import { checkWeights, numericDesign } from "./design.js";
import type { ClassifierKind, ClassifierState } from "./linear-state.js";
import { binaryLogisticLoss, multinomialLoss } from "./logistic-loss.js";
import { checkDenseSolver, minimizeOptions } from "./params.js";
import type { GradientParams } from "./regression-fit.js";
import { penaltyWeights, standardize, unstandardize, type Standardized } from "./standardize.js";

export interface LogisticSettings extends GradientParams {
  penalty: "l2" | "l1" | "elasticnet" | "none";
  C: number;
  l1_ratio: number;
  class_weight: ClassWeight;
  solver: Method;
  multi_class: "auto" | "ovr" | "multinomial";
}

export function fitLogistic(train: TrainingSet, algorithm: string, settings: LogisticSettings, ctx: FitContext): ClassifierState {
  const design = numericDesign(train.X, algorithm);
  const { y, classes } = classificationTarget(train, algorithm);
  checkWeights(train.weights, design.n, algorithm);
  const hasL1 = settings.penalty === "l1" || (settings.penalty === "elasticnet" && settings.l1_ratio > 0);
  if (hasL1 && settings.solver !== "gd" && settings.solver !== "lbfgs") {
    throw new UnusableInputError(`${algorithm}: penalty ${settings.penalty} needs solver "lbfgs" (OWL-QN) or "gd" (proximal), not ${settings.solver}`);
  }
  const K = classes.length;
  const kind: ClassifierKind = settings.multi_class === "multinomial" ? "multinomial" : K === 2 ? "binary" : settings.multi_class === "ovr" ? "ovr" : "multinomial";
  const { n, p } = design;
  const s = standardize(design, train.weights, settings.fit_intercept, settings.normalize_features);
  const options = minimizeOptions(settings.solver, settings, ctx);

  const penalties = (total: number): { l2?: Float64Array; l1?: Float64Array } => {
    if (settings.penalty === "none") return {};
    const base = 1 / (settings.C * total);
    const rho = settings.penalty === "l1" ? 1 : settings.penalty === "l2" ? 0 : settings.l1_ratio;
    return {
      l2: rho < 1 ? penaltyWeights((1 - rho) * base, s.scale, 2) : undefined,
      l1: rho > 0 ? penaltyWeights(rho * base, s.scale, 1) : undefined,
    };
  };

  const q = p + (settings.fit_intercept ? 1 : 0);
  const rows = kind === "binary" ? 1 : K;
  checkDenseSolver(settings.solver, kind === "multinomial" ? K * q : q, algorithm);
  const coef = new Float64Array(rows * p);
  const intercept = new Float64Array(rows);
  const results: MinimizeResult[] = [];

  const fitBinary = (positive: number, r: number, perClass: Float64Array): void => {
    const y01 = new Float64Array(n);
    for (let i = 0; i < n; i++) y01[i] = y[i] === positive ? 1 : 0;
    const weights = rowWeights(y, perClass, train.weights);
    const { l2, l1 } = penalties(sum(weights, n));
    const objective = binaryLogisticLoss(s.z, y01, n, p, { fitIntercept: settings.fit_intercept, weights, l2 });
    const result = minimize(objective, new Float64Array(q), { ...options, l1: l1 && padded(l1, 1, p, q) });
    results.push(result);
    store(result.x, 0, r, s);
  };

  const store = (x: Float64Array, offset: number, r: number, st: Standardized): void => {
    const { coef: w, intercept: b } = unstandardize(x, offset, settings.fit_intercept ? x[offset + p] : 0, st.shift, st.scale);
    coef.set(w, r * p);
    intercept[r] = b;
  };

  if (kind === "binary") {
    fitBinary(1, 0, classWeights(settings.class_weight, y, classes, algorithm));
  } else if (kind === "ovr") {
    for (let c = 0; c < K; c++) {
      ctx.progress(c / K);
      fitBinary(c, c, ovrClassWeights(settings.class_weight, y, c, classes, algorithm));
    }
  } else {
    const weights = rowWeights(y, classWeights(settings.class_weight, y, classes, algorithm), train.weights);
    const { l2, l1 } = penalties(sum(weights, n));
    const objective = multinomialLoss(s.z, y, n, p, K, { fitIntercept: settings.fit_intercept, weights, l2 });
    const result = minimize(objective, new Float64Array(K * q), { ...options, l1: l1 && padded(l1, K, p, q) });
    results.push(result);
    for (let c = 0; c < K; c++) store(result.x, c * q, c, s);
    // Softmax is unchanged by a common shift of the intercepts: fix the one with zero mean.
    const mean = intercept.reduce((a, b) => a + b, 0) / K;
    for (let c = 0; c < K; c++) intercept[c] -= mean;
  }

  return {
    features: design.names,
    classes: [...classes],
    kind,
    coef,
    intercept,
    feature_std: s.std,
    diagnostics: {
      solver: settings.solver,
      converged: results.every((r) => r.converged),
      iterations: Math.max(...results.map((r) => r.iterations)),
      loss: results.reduce((a, r) => a + r.loss, 0) / results.length,
      grad_norm: Math.max(...results.map((r) => r.gradNorm)),
    },
  };
}

function sum(weights: Float64Array | undefined, n: number): number {
  if (!weights) return n;
  let t = 0;
  for (let i = 0; i < n; i++) t += weights[i];
  return t;
}

/** Per-feature L1 weights laid out over `rows` blocks of q parameters (the intercept slot stays 0). */
function padded(l1: Float64Array, rows: number, p: number, q: number): Float64Array {
  const out = new Float64Array(rows * q);
  for (let r = 0; r < rows; r++) out.set(l1, r * q);
  return out;
}

/** One-vs-rest: "balanced" is computed on the binary problem (scikit-learn), a record applies as given. */
function ovrClassWeights(classWeight: ClassWeight, y: Int32Array, positive: number, classes: readonly string[], algorithm: string): Float64Array {
  if (classWeight !== "balanced") return classWeights(classWeight, y, classes, algorithm);
  let pos = 0;
  for (let i = 0; i < y.length; i++) if (y[i] === positive) pos++;
  const neg = y.length - pos;
  const wPos = pos > 0 ? y.length / (2 * pos) : 1;
  const wNeg = neg > 0 ? y.length / (2 * neg) : 1;
  return Float64Array.from(classes, (_, c) => (c === positive ? wPos : wNeg));
}
