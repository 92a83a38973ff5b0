import { z } from "zod";
import { jobStatus, problemSchema } from "./common.js";
import { autoScale, decisionThresholdSchema, preprocessingStepSchema, validationRequestSchema } from "./models.js";

const metrics = z.record(z.string(), z.number().nullable());
const series = z.array(z.number().nullable());
const rocCurve = z.object({ fpr: series, tpr: series, thresholds: series });
const prCurve = z.object({ precision: series, recall: series, thresholds: series });
const curves = z.object({ roc: rocCurve, pr: prCurve });

const curvePoint = z.object({
  fraction: z.number().optional().describe("learning_curve: the share of each fold's training part."),
  train_size: z.number().optional().describe("learning_curve: rows fitted on (mean over folds)."),
  value: z.unknown().optional().describe("validation_curve: the parameter's value."),
  metrics,
  metrics_std: metrics,
  train_metrics: metrics,
  error: z.string().optional().describe("Why this point has no scores (a fit refused its rows, e.g. a subset with one class)."),
});
const curveResult = z.object({
  kind: z.enum(["learning_curve", "validation_curve"]),
  param: z.string().optional(),
  scoring: z.string().optional().describe("validation_curve: the metric that chose the value whose metrics the evaluation reports."),
  points: z.array(curvePoint),
});

export const evaluationSchema = z
  .object({
    id: z.string(),
    status: jobStatus,
    progress: z.number(),
    model_id: z.string().optional(),
    search_id: z.string().optional(),
    dataset_id: z.string(),
    algorithm: z.string(),
    params: z.record(z.string(), z.unknown()),
    task: z.string(),
    method: z.string().describe("The validation scheme, or `dataset` for a model scored on a dataset."),
    target: z.string().nullable().optional(),
    validation: z.record(z.string(), z.unknown()).optional(),
    seed: z.number().int().optional(),
    positive_class: z.string().optional(),
    metrics,
    metrics_std: metrics.optional().describe("Across folds / rounds (population standard deviation)."),
    per_class: z.record(z.string(), z.object({ precision: z.number().nullable(), recall: z.number().nullable(), f1: z.number().nullable(), support: z.number() })).optional(),
    confusion_matrix: z.object({ labels: z.array(z.string()), matrix: z.array(z.array(z.number())) }).optional().describe("Rows actual, columns predicted; k-fold pools the out-of-fold predictions."),
    curves: curves.optional().describe("Binary classification with probabilities: ROC and P-R curves of the positive class."),
    auc_per_class: z.record(z.string(), z.number().nullable()).optional().describe("Multiclass: one-vs-rest AUC per class (metrics.auc is their macro mean)."),
    train_metrics: metrics
      .optional()
      .describe(
        "The same metrics on each fold's own training rows (at most 10,000 per fold, evenly spaced), averaged: the gap to metrics shows over-fitting. Absent for leave-one-out, clustering and scored models.",
      ),
    folds: z.array(z.object({ metrics, train_metrics: metrics.optional() })).optional(),
    folds_fingerprint: z.string().optional().describe("Equal for two evaluations exactly when they used the same splits (paired tests need it)."),
    oob_fraction: z.number().optional().describe("Bootstrap: share of rows never drawn, → 1/e."),
    estimate_632: metrics.optional().describe("Bootstrap: the .632 estimate, 0.368·train + 0.632·out-of-bag."),
    learning_curve: curveResult.optional().describe("Validation scores and training scores per training-set size; metrics are the largest size's."),
    validation_curve: curveResult.optional().describe("Validation scores and training scores per value of one parameter; metrics are the best value's by accuracy (classification) or r2."),
    bias_variance: z
      .object({ error: z.number(), bias2: z.number(), variance: z.number(), noise: z.number(), n_models: z.number(), n_rows: z.number(), true_label: z.string() })
      .optional(),
    test_rows: z.number().int().optional(),
    warnings: z.array(z.string()).optional(),
    error: problemSchema.optional(),
    created_at: z.string(),
    finished_at: z.string().optional(),
    updated_at: z.string(),
  })
  .meta({ id: "Evaluation" });

export const listEvaluationsQuery = z.object({
  model_id: z.string().optional(),
  dataset_id: z.string().optional(),
  algorithm: z.string().optional(),
  updated_since: z.iso.datetime({ offset: true }).optional().describe("Only evaluations changed after this instant (ISO-8601)."),
});

export const curvePointsQuery = z.object({
  curve_points: z.coerce.number().int().min(2).max(100000).default(200).describe("Thin each curve to at most this many points (end points and the ROC convex hull kept)."),
});

export const createEvaluationBody = z
  .object({
    model_id: z.string().min(1).optional().describe("Score this stored model on dataset_id (then give no algorithm)."),
    dataset_id: z
      .string()
      .min(1)
      .optional()
      .describe("Required, except with the model_id of a clustering or anomaly model: it defaults to the dataset the model was trained on (the only one a transductive model can be scored on)."),
    reference: z
      .string()
      .min(1)
      .optional()
      .describe("Clustering (a model_id or a clustering algorithm): a column of the dataset with a reference labelling, for the external indices (jaccard, fowlkes_mallows, rand_index, adjusted_rand_index, normalized_mutual_info). Not a feature of the clustering. Anomaly (a model_id of task anomaly; required): the column marking the known outliers, numeric 1 (outlier) / 0 (inlier) or categorical with positive_class (default \"outlier\") naming the outliers' level; metrics roc_auc and average_precision of the scores, precision, recall, f1, accuracy, specificity of the outlier flag, flagged_rate and reference_outlier_rate."),
    algorithm: z.string().min(1).optional().describe("Or cross-validate this algorithm on dataset_id without keeping a model."),
    target: z.string().min(1).optional(),
    features: z.array(z.string().min(1)).min(1).optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    preprocessing: z.array(preprocessingStepSchema).max(50).optional(),
    auto_scale: autoScale,
    validation: validationRequestSchema.optional().describe("Default: kfold, k = 5 (stratified for classification). Also bias_variance for regression. A clustering algorithm takes none (its default): it is fitted on every row and scored by the internal indices on them."),
    seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
    positive_class: z.string().optional().describe('Binary classifiers: the positive class. Anomaly models: the level of a categorical reference that marks an outlier (default "outlier").'),
    beta: z.number().positive().max(1000).optional().describe("Also report F_β for the positive class (binary)."),
    decision_threshold: decisionThresholdSchema.optional(),
  })
  .strict();
