/**
 * The state shapes shared by the linear models. Coefficients are always kept on
 * the original feature scale (any standardisation used while fitting is undone),
 * so predict is one dot product per output and needs nothing else.
 */
import { z } from "zod";
import { checkClasses, checkFinite, checkLength, checkUnique, f64, structural, type Check } from "../state-schemas.js";

/** How the fit ended; the service shows converged: false as a warning. */
export const diagnosticsSchema = z
  .object({
    solver: z.string(),
    converged: z.boolean(),
    iterations: z.number().int().nonnegative(),
    /** Objective at the end (residual sum of squares for the closed forms, mistakes in the last epoch for the perceptron). */
    loss: z.number().nullable(),
    /** max |gradient| at the end (the duality gap for coordinate descent). */
    grad_norm: z.number().nullable(),
  })
  .strict();
export type Diagnostics = z.infer<typeof diagnosticsSchema>;

export const regressorStateSchema = z
  .object({
    features: z.array(z.string()),
    coef: f64,
    intercept: z.number(),
    /** Training standard deviation per feature, for |standardised coefficient| importances. */
    feature_std: f64,
    diagnostics: diagnosticsSchema,
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      const p = s.features.length;
      if (checkFeatures(s.features, report) && checkLength(s.coef, p, "coef", report, "features") && checkLength(s.feature_std, p, "feature_std", report, "features")) checkFinite(s.coef, "coef", report);
    }),
  );
export type RegressorState = z.infer<typeof regressorStateSchema>;

/** Feature names of a linear state: unique (columns are looked up by name). */
export function checkFeatures(features: readonly string[], report: Check): boolean {
  return checkUnique(features, "feature", report, ["features"]);
}

/** Coefficient rows of a classifier: one for a binary model (scoring classes[1]), one per class for a multinomial one. */
export function coefRows(kind: ClassifierKind | "ovr", classes: readonly string[]): number {
  return kind === "binary" ? 1 : classes.length;
}

/** coef (rows × features), intercept (rows), feature_std (features), every coefficient finite. */
export function checkClassifierShape(s: Pick<ClassifierState, "features" | "classes" | "coef" | "intercept" | "feature_std"> & { kind: ClassifierKind | "ovr" }, report: Check): boolean {
  const p = s.features.length;
  if (!checkFeatures(s.features, report) || !checkClasses(s.classes, report, 2)) return false;
  if (s.kind === "binary" && s.classes.length !== 2) {
    report(`a binary model has exactly two classes, not ${s.classes.length}`, ["classes"]);
    return false;
  }
  const rows = coefRows(s.kind, s.classes);
  return (
    checkLength(s.coef, rows * p, "coef", report, `${rows} × ${p}`) &&
    checkLength(s.intercept, rows, "intercept", report, `${rows}`) &&
    checkLength(s.feature_std, p, "feature_std", report, "features") &&
    checkFinite(s.coef, "coef", report) &&
    checkFinite(s.intercept, "intercept", report)
  );
}

/**
 * binary: one row of coef scoring classes[1] (probability by the logistic function);
 * multinomial: one row per class (softmax). One-vs-rest models are not flat: they
 * are the multiclass wrapper's state over binary ones (logistic-ovr.ts).
 */
export const classifierKind = z.enum(["binary", "multinomial"]);
export type ClassifierKind = z.infer<typeof classifierKind>;

export const classifierShape = z
  .object({
    features: z.array(z.string()),
    classes: z.array(z.string()),
    kind: classifierKind,
    /** Row-major rows × features. */
    coef: f64,
    intercept: f64,
    feature_std: f64,
    diagnostics: diagnosticsSchema,
  })
  .strict();
export const classifierStateSchema = classifierShape.superRefine(structural((s, report) => void checkClassifierShape(s, report)));
export type ClassifierState = z.infer<typeof classifierStateSchema>;

/** One summary for a model made of several fits (the multiclass wrapper's binary problems): the worst convergence, the mean loss. */
export function combinedDiagnostics(parts: readonly Diagnostics[]): Diagnostics {
  const losses = parts.map((d) => d.loss);
  const norms = parts.map((d) => d.grad_norm);
  return {
    solver: parts[0].solver,
    converged: parts.every((d) => d.converged),
    iterations: Math.max(...parts.map((d) => d.iterations)),
    loss: losses.every((v) => v !== null) ? (losses as number[]).reduce((a, b) => a + b, 0) / parts.length : null,
    grad_norm: norms.every((v) => v !== null) ? Math.max(...(norms as number[])) : null,
  };
}

export function closedFormDiagnostics(solver: string): Diagnostics {
  return { solver, converged: true, iterations: 0, loss: null, grad_norm: null };
}
