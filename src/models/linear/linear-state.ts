/**
 * The state shapes shared by the linear models. Coefficients are always kept on
 * the original feature scale (any standardisation used while fitting is undone),
 * so predict is one dot product per output and needs nothing else.
 */
import { z } from "zod";
import { f64 } from "../state-schemas.js";

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
  .strict();
export type RegressorState = z.infer<typeof regressorStateSchema>;

/**
 * binary: one row of coef scoring classes[1] (probability by the logistic function);
 * multinomial: one row per class (softmax). One-vs-rest models are not flat: they
 * are the multiclass wrapper's state over binary ones (logistic-ovr.ts).
 */
export const classifierKind = z.enum(["binary", "multinomial"]);
export type ClassifierKind = z.infer<typeof classifierKind>;

export const classifierStateSchema = z
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
