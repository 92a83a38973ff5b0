/**
 * Parameters shared by svm and svr, named as scikit-learn names them.
 * gamma is a tagged union rather than scikit-learn's number-or-string, so that one
 * field never carries two kinds of value:
 *   { "kind": "scale" } (default, 1/(n_features·Var(X))) · { "kind": "auto" } (1/n_features)
 *   · { "kind": "value", "value": 0.5 }.
 */
import { z } from "zod";

const MAX_DEGREE = 20;
const MAX_CACHE_MB = 16_384;
const MAX_SMO_ITER = 100_000_000;

export const gammaSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("scale") }).strict(),
  z.object({ kind: z.literal("auto") }).strict(),
  z.object({ kind: z.literal("value"), value: z.number().positive() }).strict(),
]);

export const kernelParamsShape = {
  kernel: z.enum(["linear", "poly", "rbf", "sigmoid"]).default("rbf"),
  /** poly only. */
  degree: z
    .number()
    .int()
    .min(1)
    .max(MAX_DEGREE)
    .default(3)
    .describe(`poly kernel only. At most ${MAX_DEGREE}: (γ·x·x' + coef0)^degree overflows or vanishes well before that.`),
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
  cache_size: z
    .number()
    .positive()
    .max(MAX_CACHE_MB)
    .default(200)
    .describe(
      `Kernel-row cache in MB. At most ${MAX_CACHE_MB} (16 GiB); the cache never holds more than rows² kernel values, and that smaller figure counts against the job's memory budget (XIGUA_JOB_MEMORY_MB) before the job is queued.`,
    ),
  /** SMO iteration cap; null = libsvm's own bound max(10⁷, 100·n). */
  max_iter: z
    .number()
    .int()
    .positive()
    .max(MAX_SMO_ITER)
    .nullable()
    .default(null)
    .describe(`SMO iterations at most; null is libsvm's own bound max(10⁷, 100·rows). At most ${MAX_SMO_ITER.toExponential()}: a fit needing more would outlast any job time limit.`),
};

export const MB = 1 << 20;
