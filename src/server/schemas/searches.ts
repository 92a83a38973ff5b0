import { z } from "zod";
import { paramDistributionsSchema, paramGridSchema } from "../../evaluation/search-space.js";
import { jobStatus, problemSchema } from "./common.js";
import { autoScale, preprocessingStepSchema, validationRequestSchema } from "./models.js";

/** A bayesian search's candidates at most: each proposal fits a GP in O(n³) and scores thousands of points in O(n²). */
export const MAX_BAYESIAN_ITER = 200;
/** A bayesian search's random start when n_initial is not given: min(this, n_iter). */
export const DEFAULT_N_INITIAL = 5;

export const LOWER_IS_BETTER = new Set(["error_rate", "log_loss", "mse", "rmse", "mae", "sse", "davies_bouldin"]);

export const createSearchBody = z
  .object({
    dataset_id: z.string().min(1),
    algorithm: z.string().min(1),
    target: z.string().min(1).optional().describe("Required for classification and regression; a clustering algorithm takes none."),
    reference: z
      .string()
      .min(1)
      .optional()
      .describe("Clustering: a column with a reference labelling, so candidates can be ranked by an external index (adjusted_rand_index, …). Never a default feature."),
    features: z.array(z.string().min(1)).min(1).optional(),
    preprocessing: z.array(preprocessingStepSchema).max(50).optional(),
    auto_scale: autoScale,
    method: z
      .enum(["grid", "random", "bayesian"])
      .default("grid")
      .describe(
        "grid: every combination of param_grid. random: n_iter draws from param_distributions. bayesian: n_initial random draws, then one candidate at a time where a Gaussian process (Matérn 5/2) fitted to the scores so far has the largest expected improvement, up to n_iter.",
      ),
    param_grid: paramGridSchema
      .optional()
      .describe("method grid: parameter → values. At most XIGUA_MAX_SEARCH_CANDIDATES (default 1000) combinations: more is 422 with the count."),
    param_distributions: paramDistributionsSchema
      .optional()
      .describe("method random or bayesian: parameter → list or {distribution: uniform | loguniform | randint, low, high} with low < high (loguniform: 0 < low). Bayesian: numbers on a linear (uniform, randint) or log (loguniform) scale, lists one-hot."),
    n_iter: z
      .number()
      .int()
      .min(1)
      .default(10)
      .describe(
        `method random: how many candidates; at most XIGUA_MAX_SEARCH_CANDIDATES (default 1000): more is 422. Lists alone spanning fewer combinations give each once. Method bayesian: candidates in all, at most ${MAX_BAYESIAN_ITER} (each proposal refits the Gaussian process); a discrete space with fewer candidates ends when every one is evaluated.`,
      ),
    n_initial: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("method bayesian: random candidates evaluated (together) before the first proposal; default min(5, n_iter), at most n_iter."),
    validation: validationRequestSchema.optional().describe("How each candidate is scored. Default: kfold, k = 5; none for clustering (each candidate is fitted on every row and scored on them)."),
    scoring: z
      .string()
      .optional()
      .describe(
        `Metric to rank by. Default accuracy (classification), r2 (regression) or silhouette (clustering: also davies_bouldin, calinski_harabasz, dunn, sse, and with reference the external indices). Lower is better for ${[...LOWER_IS_BETTER].join(", ")}.`,
      ),
    seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
    refit: z.boolean().default(true).describe("Train a model on all rows with the best params."),
    positive_class: z.string().optional(),
  })
  .strict();

export type CreateSearchBody = z.infer<typeof createSearchBody>;

const resultSchema = z.object({
  params: z.record(z.string(), z.unknown()),
  mean_score: z.number().nullable(),
  std_score: z.number().nullable(),
  rank: z.number().nullable(),
  evaluation_id: z.string(),
  status: z.string().describe("The candidate's evaluation status as of its end; queued until then."),
});

export const searchSchema = z
  .object({
    id: z.string(),
    status: jobStatus,
    progress: z.number(),
    dataset_id: z.string(),
    algorithm: z.string(),
    method: z.string(),
    scoring: z.string(),
    target: z.string().nullable().describe("null for a clustering search."),
    validation: z.record(z.string(), z.unknown()),
    seed: z.number().int(),
    results: z.array(resultSchema),
    best_params: z.record(z.string(), z.unknown()).nullable(),
    best_score: z.number().nullable(),
    model_id: z.string().optional(),
    error: problemSchema.optional(),
    created_at: z.string(),
    started_at: z.string().optional(),
    finished_at: z.string().optional(),
  })
  .meta({ id: "Search" });
