/**
 * Fitting of binary logistic and softmax regression with
 * scikit-learn's penalties, divided through by C·Σw so the loss is a mean:
 *   l2:         (1/Σw) Σ w_i ℓ_i + (1/(2CΣw)) ‖W‖²
 *   l1:         (1/Σw) Σ w_i ℓ_i + (1/(CΣw)) ‖W‖₁
 *   elasticnet: (1/Σw) Σ w_i ℓ_i + ((1 − ρ)/(2CΣw)) ‖W‖² + (ρ/(CΣw)) ‖W‖₁
 * Intercepts are never penalised. L1 terms need solver gd (proximal) or lbfgs (OWL-QN).
 * One-vs-rest is not here: it is the multiclass wrapper over the binary fit (logistic-ovr.ts).
 */
import { UnusableInputError, type FitContext, type TrainingSet } from "../contract.js";
import { minimize } from "../optim/minimize.js";
import { FIRST_ORDER_METHODS } from "../optim/types.js";
import { reusingDesignMemory } from "./blocks.js";
import { classificationTarget, classWeights, rowWeights } from "./classification.js";
import { checkWeights, numericDesign } from "./design.js";
import type { ClassifierKind, ClassifierState } from "./linear-state.js";
import { binaryLogisticLoss, multinomialLoss } from "./logistic-loss.js";
import { hasL1, type PenalisedSettings } from "./logistic-params.js";
import { checkDenseSolver, minimizeOptions } from "./params.js";
import { penaltyWeights, standardize, unstandardize } from "./standardize.js";

export type LogisticSettings = PenalisedSettings & {
  /** auto: binary for two classes, multinomial above; multinomial: one softmax row per class even for two. */
  multi_class: "auto" | "multinomial";
};

/**
 * `start` (partial_fit, the SGD models): one epoch of a gradient solver over these rows from the
 * state's coefficients, in the features' own units (no normalize_features: the new rows' statistics
 * would move the origin) and with the optimiser's moments afresh (not in the artifact), so plain
 * gd continues exactly; the classes and the binary / multinomial kind are the state's.
 */
export function fitLogistic(train: TrainingSet, algorithm: string, settings: LogisticSettings, ctx: FitContext, start?: ClassifierState): ClassifierState {
  // The standardised design lives only inside the fit (the state holds fresh arrays), so its memory can serve the next fit's.
  return reusingDesignMemory(() => fitInScope(train, algorithm, settings, ctx, start));
}

function fitInScope(train: TrainingSet, algorithm: string, settings: LogisticSettings, ctx: FitContext, start?: ClassifierState): ClassifierState {
  const design = numericDesign(train.X, algorithm);
  const { y, classes } = classificationTarget(train, algorithm);
  if (start) checkContinuation(start, design.names, classes, settings.solver, algorithm);
  checkWeights(train.weights, design.n, algorithm);
  if (hasL1(settings) && settings.solver !== "gd" && settings.solver !== "lbfgs") {
    throw new UnusableInputError(`${algorithm}: penalty ${settings.penalty} needs solver "lbfgs" (OWL-QN) or "gd" (proximal), not ${settings.solver}`);
  }
  const K = classes.length;
  const kind: ClassifierKind = start ? start.kind : settings.multi_class === "auto" && K === 2 ? "binary" : "multinomial";
  const { n, p } = design;
  const s = standardize(design, train.weights, settings.fit_intercept, start ? false : settings.normalize_features);
  const options = start ? { ...minimizeOptions(settings, ctx), maxIter: 1 } : minimizeOptions(settings, ctx);

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
  checkDenseSolver(settings.solver, rows * q, algorithm);
  const weights = rowWeights(y, classWeights(settings.class_weight, y, classes, algorithm), train.weights);
  const { l2, l1 } = penalties(sum(weights, n));
  const lossOptions = { fitIntercept: settings.fit_intercept, weights, l2 };
  const objective = kind === "binary" ? binaryLogisticLoss(s.features, Float64Array.from(y), lossOptions) : multinomialLoss(s.features, y, K, lossOptions);
  const x0 = new Float64Array(rows * q);
  if (start) {
    for (let r = 0; r < rows; r++) {
      x0.set(start.coef.subarray(r * p, (r + 1) * p), r * q);
      if (settings.fit_intercept) x0[r * q + p] = start.intercept[r];
    }
  }
  const result = minimize(objective, x0, { ...options, l1: l1 && padded(l1, rows, p, q) });

  const coef = new Float64Array(rows * p);
  const intercept = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    const { coef: w, intercept: b } = unstandardize(result.x, r * q, settings.fit_intercept ? result.x[r * q + p] : 0, s.shift, s.scale);
    coef.set(w, r * p);
    intercept[r] = b;
  }
  if (kind === "multinomial") {
    // Softmax is unchanged by a common shift of the intercepts: fix the one with zero mean.
    const mean = intercept.reduce((t, v) => t + v, 0) / K;
    for (let c = 0; c < K; c++) intercept[c] -= mean;
  }

  return {
    features: design.names,
    classes: [...classes],
    kind,
    coef,
    intercept,
    feature_std: start ? start.feature_std : s.std,
    diagnostics: { solver: settings.solver, converged: result.converged, iterations: (start?.diagnostics.iterations ?? 0) + result.iterations, loss: result.loss, grad_norm: result.gradNorm },
  };
}

function checkContinuation(start: ClassifierState, features: readonly string[], classes: readonly string[], solver: string, algorithm: string): void {
  if (!(FIRST_ORDER_METHODS as readonly string[]).includes(solver)) {
    throw new UnusableInputError(`${algorithm} with solver ${solver} has no epochs to continue; partial_fit needs a gradient solver (${FIRST_ORDER_METHODS.join(", ")})`);
  }
  if (features.length !== start.features.length || features.some((f, j) => f !== start.features[j])) throw new UnusableInputError(`partial_fit rows must have the model's features`);
  if (classes.length !== start.classes.length || classes.some((c, k) => c !== start.classes[k])) throw new UnusableInputError("partial_fit rows must use the model's classes");
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
