import { z } from "zod";
import { cellValue, jobStatus, problemSchema } from "./common.js";
import { modelName } from "./model-name.js";
import { listSteps } from "../../training/steps.js";
import { MAX_CURVE_FOLDS, MAX_CURVE_POINTS } from "../../training/validation.js";
import { EXPLAIN_DEFAULT_MAX_NODES, EXPLAIN_MAX_NODES } from "../../models/tree/explain.js";
import { EXPLAIN_DEFAULT_MAX_VALUES, EXPLAIN_MAX_VALUES } from "../../models/explain-bounds.js";

const metricsSchema = z.record(z.string(), z.number().nullable());

export const validationRequestSchema = z
  .union([
    z.object({ method: z.literal("holdout"), test_size: z.number().gt(0).lt(1).optional(), stratify: z.boolean().optional() }).strict(),
    z.object({ method: z.literal("kfold"), k: z.number().int().min(2).max(1000).optional(), stratify: z.boolean().optional(), repeats: z.number().int().min(1).max(100).optional() }).strict(),
    z.object({ method: z.literal("loo") }).strict(),
    z.object({ method: z.literal("bootstrap"), rounds: z.number().int().min(1).max(1000).optional() }).strict(),
    z.object({ method: z.literal("five_by_two"), stratify: z.boolean().optional() }).strict(),
    z.object({ method: z.literal("bias_variance"), rounds: z.number().int().min(2).max(500).optional(), test_size: z.number().gt(0).lt(1).optional() }).strict(),
    z.object({ method: z.literal("none") }).strict(),
    z
      .object({ method: z.literal("learning_curve"), train_sizes: z.array(z.number().gt(0).max(1)).min(1).max(MAX_CURVE_POINTS).optional(), k: z.number().int().min(2).max(MAX_CURVE_FOLDS).optional(), stratify: z.boolean().optional() })
      .strict(),
    z
      .object({ method: z.literal("validation_curve"), param: z.string().min(1), values: z.array(z.unknown()).min(1).max(MAX_CURVE_POINTS), k: z.number().int().min(2).max(MAX_CURVE_FOLDS).optional(), stratify: z.boolean().optional() })
      .strict(),
  ])
  .describe("Default: holdout 0.25 (stratified) for classification and regression, none otherwise. bias_variance, learning_curve and validation_curve are evaluations only (POST /v1/evaluations).");

/**
 * A preprocessing step on the wire. Validation of the options happens when the spec
 * is resolved (so a bad option is a 422 naming `preprocessing[i].<field>`); the
 * document lists every step's options here, generated from the same zod schemas.
 */
export const preprocessingStepSchema = z
  .object({ step: z.string().describe(`Step name: ${listSteps().map((s) => s.name).join(", ")} (GET /v1/steps lists their options).`) })
  .catchall(z.unknown())
  .describe("A preprocessing step; its other fields are the step's options.")
  .meta({
    anyOf: listSteps().map((s) => {
      const options = z.toJSONSchema(s.spec, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, unknown>; [k: string]: unknown };
      const { $schema: _schema, ...rest } = options;
      return { ...rest, title: s.name, description: s.description, properties: { step: { const: s.name }, ...(options.properties ?? {}) }, required: ["step", ...((options.required as string[]) ?? [])] };
    }),
  });

/** The request field `auto_scale`, shared by trains, evaluations and searches. */
export const autoScale = z
  .boolean()
  .optional()
  .describe(
    "Default true: for a scale-sensitive algorithm (svm, svr, mlp, perceptron, penalised linear models: GET /v1/algorithms, scale_sensitive) the pipeline standardises the numeric input columns (not one-hot indicators) after imputing and encoding, fitted on training rows only and listed on the model as an automatic scale step. Skipped when preprocessing has a scale step of its own; false turns it off.",
  );

export const createModelBody = z
  .object({
    dataset_id: z.string().min(1),
    algorithm: z.string().min(1),
    target: z.string().min(1).optional().describe("Required for supervised algorithms."),
    features: z.array(z.string().min(1)).min(1).optional().describe("Default: every column but the target."),
    params: z.record(z.string(), z.unknown()).optional().describe("Validated against the algorithm's params_schema (GET /v1/algorithms)."),
    preprocessing: z.array(preprocessingStepSchema).max(50).optional(),
    auto_scale: autoScale,
    validation: validationRequestSchema.optional(),
    seed: z.number().int().min(0).max(2 ** 32 - 1).optional().describe("Default: drawn at random and recorded on the model."),
    positive_class: z.string().optional().describe("Positive class for binary metrics (default: the second of the sorted classes)."),
    name: modelName.optional(),
  })
  .strict();

export const modelSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    version: z.number().int().nullable().describe("The model's version of its name (1 + the highest before it); null without a name."),
    status: jobStatus,
    progress: z.number(),
    algorithm: z.string(),
    params: z.record(z.string(), z.unknown()),
    task: z.string(),
    dataset_id: z.string().nullable().describe("null for an imported model"),
    target: z.string().nullable(),
    features: z.array(z.string()),
    preprocessing: z.array(z.record(z.string(), z.unknown())),
    auto_scale: z.boolean().optional().describe("As requested (absent on models trained or imported before the field existed)."),
    validation: z.record(z.string(), z.unknown()),
    positive_class: z.string().nullable(),
    classes: z.array(z.string()).optional(),
    seed: z.number().int(),
    parent_model_id: z.string().optional().describe("A model made by POST /v1/models/{id}/partial-fit: the model it was updated from."),
    partial_fit_rows: z.number().int().optional().describe("A model made by partial-fit: the rows it added to its parent's."),
    partial_fit_dataset_id: z.string().optional().describe("A model made by partial-fit from a stored dataset: that dataset."),
    evaluation_id: z.string().optional(),
    metrics: metricsSchema.optional(),
    n_clusters: z.number().int().optional().describe("Clustering: the clusters found on the training rows (noise not counted)."),
    noise_count: z.number().int().optional().describe("Clustering: training rows labelled noise (−1), as DBSCAN leaves them."),
    outlier_count: z.number().int().optional().describe("Anomaly: training rows the model flags as outliers (score above its threshold)."),
    labelled_rows: z.number().int().optional().describe("Semi-supervised: training rows with a target value."),
    unlabelled_rows: z.number().int().optional().describe("Semi-supervised: training rows without one, used as unlabelled data."),
    warnings: z.array(z.string()).optional().describe("E.g. an optimiser that did not converge, or rows left out for a missing target."),
    pipeline: z
      .array(z.object({ step: z.string(), automatic: z.boolean(), options: z.unknown(), fitted: z.record(z.string(), z.unknown()).nullable() }))
      .optional()
      .describe("The fitted preprocessing steps (automatic: added because the algorithm takes no missing / categorical input, or is scale-sensitive: see auto_scale)."),
    fit_seconds: z.number().optional(),
    error: problemSchema.optional(),
    created_at: z.string(),
    started_at: z.string().optional(),
    finished_at: z.string().optional(),
  })
  .meta({ id: "Model" });

export const listModelsQuery = z.object({
  dataset_id: z.string().optional(),
  algorithm: z.string().optional(),
  status: jobStatus.optional(),
});

export const decisionThresholdSchema = z
  .union([z.number().min(0).max(1), z.literal("rescale")])
  .describe('Binary classifiers: predict the positive class when its probability exceeds this; "rescale" uses m⁺/(m⁺+m⁻) of the training rows (seed 002 threshold moving).');

export const predictBody = z
  .object({
    rows: z
      .array(z.record(z.string(), cellValue))
      .min(1)
      .describe("Raw rows: an absent key or null is missing; an unseen category is treated as missing. At most XIGUA_PREDICT_MAX_ROWS rows (default 100,000; more → 413)."),
    probabilities: z.boolean().optional(),
    decision_threshold: decisionThresholdSchema.optional(),
  })
  .strict();

export type PredictBody = z.infer<typeof predictBody>;

/** Options of a text/csv predict body (a JSON body carries them itself). */
export const predictCsvQuery = z
  .object({
    probabilities: z.enum(["true", "false"]).optional().describe("CSV bodies with a JSON answer: add probabilities (a CSV answer has them whenever the model gives them)."),
    decision_threshold: z
      .union([z.literal("rescale"), z.coerce.number().min(0).max(1)])
      .optional()
      .describe("CSV bodies: as decision_threshold in a JSON body."),
  })
  .strict();

/** Sent pre-serialised (src/server/predict.ts): this schema documents the response; tests hold responses to it. */
export const labelsQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(10000).default(1000),
});

export const labelsResponse = z
  .object({
    items: z.array(z.object({ row: z.number().int().describe("Row index in the training dataset (0-based)"), label: z.number().int().describe("Cluster index; −1 for noise") })),
    total: z.number().int().describe("Training rows in all"),
  })
  .meta({ id: "ClusterLabels" });

export const predictResponse = z.object({
  model_id: z.string().describe("The model that answered (a name, version or alias in the path resolved to it)."),
  name: z.string().optional().describe("A named model's registry name."),
  version: z.number().int().optional().describe("A named model's version."),
  predictions: z
    .array(z.union([z.string(), z.number(), z.null()]))
    .optional()
    .describe('One per row: a class, a number (regression), a cluster index, or "outlier" / "inlier" (anomaly); null where the output is not a finite number (see warnings).'),
  probabilities: z
    .array(z.record(z.string(), z.number().nullable()))
    .optional()
    .describe("With probabilities: true, one object per row in class order (clustering: membership probability per cluster index, where the method defines it, as gmm); null where not finite."),
  projections: z.array(z.array(z.number().nullable())).optional(),
  scores: z
    .array(z.number().nullable())
    .optional()
    .describe("Anomaly models: one per row, the anomaly score s(x, ψ) = 2^(−E[h(x)]/c(ψ)) in (0, 1] (higher is more anomalous; scikit-learn's score_samples is its negative). A row is an outlier when its score is above the model's threshold (explain)."),
  warnings: z
    .array(z.string())
    .optional()
    .describe("Present when some output is not a finite number (an input too extreme for the model, e.g. 1e308, overflowed): those rows' outputs are null."),
});

export const explainQuery = z.object({
  format: z.enum(["json", "text", "dot"]).default("json"),
  /** Trees: nodes shown at most, breadth-first from the root; the rest is marked truncated (the artifact has the whole tree). */
  max_nodes: z.coerce.number().int().min(1).max(EXPLAIN_MAX_NODES).default(EXPLAIN_DEFAULT_MAX_NODES),
  /** Trees: levels below the root shown at most. */
  max_depth: z.coerce.number().int().min(0).max(10_000).optional(),
  /** SVM, SVR, MLP: numbers listed at most (dual coefficients and primal weights in all problems together; weights per layer); the rest is marked truncated. */
  max_values: z.coerce.number().int().min(1).max(EXPLAIN_MAX_VALUES).default(EXPLAIN_DEFAULT_MAX_VALUES),
});
