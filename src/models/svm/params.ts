/**
 * Parameters shared by svm and svr, named as scikit-learn names them.
 * gamma is a tagged union rather than scikit-learn's number-or-string, so that one
 * field never carries two kinds of value:
 *   { "kind": "scale" } (default, 1/(n_features·Var(X))) · { "kind": "auto" } (1/n_features)
 *   · { "kind": "value", "value": 0.5 }.
 */
import { z } from "zod";

export const gammaSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("scale") }).strict(),
  z.object({ kind: z.literal("auto") }).strict(),
  z.object({ kind: z.literal("value"), value: z.number().positive() }).strict(),
]);

export const kernelParamsShape = {
  kernel: z.enum(["linear", "poly", "rbf", "sigmoid"]).default("rbf"),
  /** poly only. */
  degree: z.number().int().min(1).max(20).default(3),
  /** poly, rbf and sigmoid. */
  gamma: gammaSchema.default({ kind: "scale" }),
  /** poly and sigmoid. */
  coef0: z.number().default(0),
  /** Soft-margin penalty: the bound on every dual coefficient. */
  C: z.number().positive().default(1),
  /** Stopping tolerance on the maximal KKT violation. */
  tol: z.number().positive().default(1e-3),
  shrinking: z.boolean().default(true),
  /** Kernel-row cache budget in MB. */
  cache_size: z.number().positive().max(65536).default(200),
  /** SMO iteration cap; null = libsvm's own bound max(10⁷, 100·n). */
  max_iter: z.number().int().positive().nullable().default(null),
};

export const MB = 1 << 20;
