/**
 * POST /v1/metrics: xigua's metric definitions (src/evaluation) on labels, scores
 * or a confusion matrix a client already has — no model, no dataset. The same
 * functions score every evaluation, so a notebook or dashboard gets the numbers an
 * evaluation would give for the same predictions.
 *
 * What is scored:
 * - `confusion_matrix` {labels, matrix} (rows actual, columns predicted): the
 *   classification metrics of the counts (binary ones for positive_class when 2 labels).
 * - `y_true` of 0/1 rows (multi-label): hamming_loss with `y_pred` (0/1 rows),
 *   ranking_loss (scikit-learn's label_ranking_loss) with `y_score`.
 * - `y_true` of values: classification or regression (`task`, or inferred: any string or
 *   boolean, or labels / positive_class / y_score given → classification; otherwise
 *   integers in both y_true and y_pred → classification, else regression). Classes are
 *   `labels` in that order, else the values sorted (numbers numerically). `y_score` is one
 *   score per row for the positive class (binary) or one row per sample of class scores
 *   in class order; with it come auc, average_precision, bep and curves (binary) or the
 *   one-vs-rest auc (multiclass), and log_loss when the scores are probabilities.
 */
import { z } from "zod";
import { sortLevels } from "../../data/frame.js";
import {
  aucFromCounts,
  averagePrecisionFromCounts,
  downsampleCurve,
  breakEvenFromCounts,
  hammingLoss,
  labelRankingLoss,
  logLoss,
  oneVsRestAuc,
  positiveIndex,
  prFromCounts,
  prToWire,
  probabilityColumn,
  regressionMetrics,
  rocFromCounts,
  rocToWire,
  summarizeClassification,
  thresholdCounts,
  type MetricRecord,
} from "../../evaluation/index.js";
import { ApiError } from "../errors.js";

/** Samples per request (each array), and labels per multi-label row: bounds on what a request may allocate. */
export const METRICS_MAX_SAMPLES = 1_000_000;
export const METRICS_MAX_LABELS = 10_000;
/** Cells of a multi-label matrix, or of a y_score matrix. */
export const METRICS_MAX_CELLS = 10_000_000;

/** Default points per curve: a curve of a million scores stays a few kilobytes. */
export const CURVE_POINTS = 1000;

const label = z.union([z.string(), z.number(), z.boolean()]);
const values = z.array(label).min(1).max(METRICS_MAX_SAMPLES);
const matrix = z.array(z.array(z.number()).min(1).max(METRICS_MAX_LABELS)).min(1).max(METRICS_MAX_SAMPLES);

export const metricsBody = z
  .object({
    task: z.enum(["classification", "regression", "multilabel"]).optional().describe("Default: inferred (see the operation's description)."),
    y_true: z.union([values, matrix]).optional().describe("Actual values, or (multi-label) rows of 0/1 per label."),
    y_pred: z.union([values, matrix]).optional().describe("Predicted values, or (multi-label) rows of 0/1."),
    y_score: z
      .union([z.array(z.number()).min(1).max(METRICS_MAX_SAMPLES), matrix])
      .optional()
      .describe("Binary: the positive class's score per row; multiclass: a row of class scores per sample, in class order; multi-label: a row of label scores."),
    labels: z.array(label).min(2).max(10_000).optional().describe("The classes, in order (default: the values of y_true and y_pred, sorted)."),
    positive_class: label.optional().describe("Binary metrics' positive class (default: the second of the sorted classes)."),
    beta: z.number().positive().max(1e6).optional().describe("Adds fbeta (binary)."),
    curve_points: z
      .number()
      .int()
      .min(2)
      .max(100_000)
      .default(CURVE_POINTS)
      .describe("Thin each curve to at most this many points (end points and the ROC convex hull kept), as GET /v1/evaluations/{id} does."),
    confusion_matrix: z
      .object({ labels: z.array(label).min(2).max(1000), matrix: z.array(z.array(z.number().nonnegative())).min(2).max(1000).describe("Rows actual, columns predicted.") })
      .strict()
      .optional(),
  })
  .strict()
  .meta({ id: "MetricsRequest" });

export type MetricsBody = z.infer<typeof metricsBody>;

const curve = z.object({ roc: z.object({ fpr: z.array(z.number().nullable()), tpr: z.array(z.number().nullable()), thresholds: z.array(z.number().nullable()) }), pr: z.object({ precision: z.array(z.number().nullable()), recall: z.array(z.number().nullable()), thresholds: z.array(z.number().nullable()) }) });

export const metricsResponse = z
  .object({
    task: z.enum(["classification", "regression", "multilabel"]),
    metrics: z.record(z.string(), z.number().nullable()).describe("API.md's metric names; null where undefined (e.g. auc with one class present)."),
    per_class: z.record(z.string(), z.object({ precision: z.number(), recall: z.number(), f1: z.number(), support: z.number() })).optional(),
    confusion_matrix: z.object({ labels: z.array(z.string()), matrix: z.array(z.array(z.number())) }).optional(),
    positive_class: z.string().optional(),
    auc_per_class: z.record(z.string(), z.number().nullable()).optional(),
    curves: curve.optional().describe("Binary with y_score: ROC and precision-recall curves of the positive class."),
  })
  .meta({ id: "MetricsResult" });

export type MetricsResult = z.infer<typeof metricsResponse>;

const unusable = (path: string, message: string) => new ApiError("invalid_request", `${path}: ${message}`, [{ path, message }]);

const isMatrix = (v: unknown): v is number[][] => Array.isArray(v) && v.length > 0 && Array.isArray(v[0]);

function sameLength(name: string, actual: unknown[] | undefined, expected: number): void {
  if (actual !== undefined && actual.length !== expected) throw unusable(name, `has ${actual.length} entries; y_true has ${expected}`);
}

/** Row-major cells of a matrix whose rows all have `width` entries (0/1 when `binary`). */
function flatMatrix(name: string, rows: number[][], width: number, binary: boolean): Float64Array {
  if (rows.length * width > METRICS_MAX_CELLS) throw new ApiError("payload_too_large", `${name} has more than ${METRICS_MAX_CELLS} cells`);
  const out = new Float64Array(rows.length * width);
  rows.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== width) throw unusable(`${name}[${i}]`, `expected ${width} entries, as y_true's rows`);
    row.forEach((v, j) => {
      if (typeof v !== "number" || !Number.isFinite(v) || (binary && v !== 0 && v !== 1)) throw unusable(`${name}[${i}][${j}]`, binary ? "expected 0 or 1" : "expected a finite number");
      out[i * width + j] = v;
    });
  });
  return out;
}

function multilabel(body: MetricsBody): MetricsResult {
  const yTrue = body.y_true as number[][];
  if (!isMatrix(yTrue)) throw unusable("y_true", "multi-label y_true is rows of 0/1 per label");
  if (body.y_pred === undefined && body.y_score === undefined) throw unusable("body", "multi-label needs y_pred (hamming_loss) or y_score (ranking_loss)");
  const width = yTrue[0].length;
  const truth = flatMatrix("y_true", yTrue, width, true);
  const metrics: MetricRecord = {};
  if (body.y_pred !== undefined) {
    if (!isMatrix(body.y_pred)) throw unusable("y_pred", "expected rows of 0/1, as y_true");
    sameLength("y_pred", body.y_pred, yTrue.length);
    metrics.hamming_loss = hammingLoss(truth, flatMatrix("y_pred", body.y_pred, width, true), width);
  }
  if (body.y_score !== undefined) {
    if (!isMatrix(body.y_score)) throw unusable("y_score", "expected rows of label scores, as y_true");
    sameLength("y_score", body.y_score, yTrue.length);
    metrics.ranking_loss = labelRankingLoss(truth, flatMatrix("y_score", body.y_score, width, false), width);
  }
  return { task: "multilabel", metrics };
}

const text = (v: string | number | boolean) => String(v);

function regression(body: MetricsBody): MetricsResult {
  const numbers = (name: string, v: unknown[] | undefined): Float64Array => {
    if (v === undefined) throw unusable(name, "regression needs y_true and y_pred");
    return Float64Array.from(v, (x, i) => {
      if (typeof x !== "number") throw unusable(`${name}[${i}]`, "regression values are numbers");
      return x;
    });
  };
  if (body.y_score !== undefined || body.labels !== undefined || body.positive_class !== undefined) {
    throw unusable("body", "y_score, labels and positive_class are for classification (task regression was given or inferred)");
  }
  const yTrue = numbers("y_true", body.y_true);
  sameLength("y_pred", body.y_pred, yTrue.length);
  return { task: "regression", metrics: { ...regressionMetrics(yTrue, numbers("y_pred", body.y_pred)) } };
}

/** Scores as an n × k matrix in class order: a binary score vector becomes (1 − s, s) around the positive class. */
function scoreMatrix(score: number[] | number[][], n: number, k: number, positive: number): Float64Array {
  if (isMatrix(score)) {
    sameLength("y_score", score, n);
    return flatMatrix("y_score", score, k, false);
  }
  if (k !== 2) throw unusable("y_score", `with ${k} classes, y_score is a row of ${k} class scores per sample`);
  sameLength("y_score", score, n);
  const out = new Float64Array(2 * n);
  score.forEach((s, i) => {
    if (!Number.isFinite(s)) throw unusable(`y_score[${i}]`, "expected a finite number");
    out[2 * i + positive] = s;
    out[2 * i + 1 - positive] = 1 - s;
  });
  return out;
}

/** Whether every row is a probability distribution (so that log_loss means something). */
function areProbabilities(proba: Float64Array, k: number): boolean {
  for (let i = 0; i < proba.length; i += k) {
    let sum = 0;
    for (let j = 0; j < k; j++) {
      if (!(proba[i + j] >= 0 && proba[i + j] <= 1)) return false;
      sum += proba[i + j];
    }
    if (Math.abs(sum - 1) > 1e-6) return false;
  }
  return true;
}

function classification(body: MetricsBody): MetricsResult {
  const yTrueRaw = body.y_true as (string | number | boolean)[];
  const yPredRaw = body.y_pred as (string | number | boolean)[] | undefined;
  if (isMatrix(yPredRaw)) throw unusable("y_pred", "expected one value per sample, as y_true");
  sameLength("y_pred", yPredRaw, yTrueRaw.length);
  const classes = body.labels ? body.labels.map(text) : sortLevels([...yTrueRaw, ...(yPredRaw ?? [])].map(text));
  if (new Set(classes).size !== classes.length) throw unusable("labels", "a label is listed twice");
  if (classes.length < 2) throw new ApiError("single_class", "classification metrics need at least two classes (give labels to name the others)", [{ path: "y_true", message: "one class" }]);
  const index = new Map(classes.map((c, i) => [c, i]));
  const indices = (name: string, raw: (string | number | boolean)[]) =>
    Int32Array.from(raw, (v, i) => {
      const k = index.get(text(v));
      if (k === undefined) throw new ApiError("unknown_class", `${name}[${i}] is ${JSON.stringify(v)}, not one of labels`, [{ path: `${name}[${i}]`, message: "not one of labels" }]);
      return k;
    });
  const positiveClass = body.positive_class === undefined ? undefined : text(body.positive_class);
  if (positiveClass !== undefined && !index.has(positiveClass)) throw new ApiError("unknown_class", `positive_class ${JSON.stringify(positiveClass)} is not one of the classes`, [{ path: "positive_class", message: "not a class" }]);
  const k = classes.length;
  const positive = k === 2 ? positiveIndex(classes, positiveClass) : -1;
  const yTrue = indices("y_true", yTrueRaw);
  const proba = body.y_score === undefined ? undefined : scoreMatrix(body.y_score, yTrue.length, k, Math.max(positive, 0));
  const probabilityLike = proba !== undefined && areProbabilities(proba, k);

  if (yPredRaw !== undefined) {
    const summary = summarizeClassification({ yTrue, yPred: indices("y_pred", yPredRaw), proba, classes, positiveClass, beta: body.beta, curvePoints: body.curve_points });
    if (!probabilityLike) delete summary.metrics.log_loss;
    const { per_class_curves: _unused, ...rest } = summary;
    return { task: "classification", ...rest };
  }
  if (!proba) throw unusable("body", "classification needs y_pred, y_score, or both");
  if (body.beta !== undefined) throw unusable("beta", "fbeta needs y_pred");
  const metrics: MetricRecord = {};
  if (probabilityLike) metrics.log_loss = logLoss(yTrue, proba, k);
  if (k === 2) {
    const counts = thresholdCounts(yTrue, probabilityColumn(proba, k, positive), { positiveLabel: positive });
    metrics.auc = aucFromCounts(counts);
    metrics.average_precision = averagePrecisionFromCounts(counts);
    metrics.bep = breakEvenFromCounts(counts);
    const curves = { roc: downsampleCurve(rocToWire(rocFromCounts(counts)), body.curve_points), pr: downsampleCurve(prToWire(prFromCounts(counts)), body.curve_points) };
    return { task: "classification", metrics, positive_class: classes[positive], curves };
  }
  const ovr = oneVsRestAuc(yTrue, proba, k);
  metrics.auc = ovr.macro;
  return { task: "classification", metrics, auc_per_class: Object.fromEntries(ovr.per_class.map((v, i) => [classes[i], v])) };
}

/** A confusion matrix → the metrics of its counts: each non-zero cell is one (actual, predicted) pair weighted by its count. */
function fromConfusion(body: MetricsBody): MetricsResult {
  const { labels, matrix: rows } = body.confusion_matrix!;
  for (const key of ["y_true", "y_pred", "y_score", "labels"] as const) if (body[key] !== undefined) throw unusable(key, "give confusion_matrix or y_true/y_pred/y_score, not both");
  const classes = labels.map(text);
  if (new Set(classes).size !== classes.length) throw unusable("confusion_matrix.labels", "a label is listed twice");
  const k = classes.length;
  if (rows.length !== k) throw unusable("confusion_matrix.matrix", `expected ${k} rows, one per label`);
  const yTrue: number[] = [];
  const yPred: number[] = [];
  const weights: number[] = [];
  rows.forEach((row, i) => {
    if (row.length !== k) throw unusable(`confusion_matrix.matrix[${i}]`, `expected ${k} counts, one per label`);
    row.forEach((count, j) => {
      if (count === 0) return;
      yTrue.push(i);
      yPred.push(j);
      weights.push(count);
    });
  });
  if (weights.length === 0) throw unusable("confusion_matrix.matrix", "every count is 0");
  const positiveClass = body.positive_class === undefined ? undefined : text(body.positive_class);
  if (positiveClass !== undefined && !classes.includes(positiveClass)) throw new ApiError("unknown_class", `positive_class ${JSON.stringify(positiveClass)} is not one of the labels`, [{ path: "positive_class", message: "not a label" }]);
  const summary = summarizeClassification({ yTrue: Int32Array.from(yTrue), yPred: Int32Array.from(yPred), weights: Float64Array.from(weights), classes, positiveClass, beta: body.beta });
  const { per_class_curves: _unused, ...rest } = summary;
  return { task: "classification", ...rest };
}

export function computeMetrics(body: MetricsBody): MetricsResult {
  if (body.confusion_matrix !== undefined) return fromConfusion(body);
  if (body.y_true === undefined) throw unusable("body", "give y_true (with y_pred and/or y_score) or confusion_matrix");
  const task = body.task ?? inferTask(body);
  if (task === "multilabel") return multilabel(body);
  if (isMatrix(body.y_true)) throw unusable("y_true", `rows of labels are multi-label, not ${task}`);
  return task === "regression" ? regression(body) : classification(body);
}

function inferTask(body: MetricsBody): "classification" | "regression" | "multilabel" {
  if (isMatrix(body.y_true)) return "multilabel";
  const all = [...(body.y_true as unknown[]), ...((body.y_pred as unknown[] | undefined) ?? [])];
  if (all.some((v) => typeof v !== "number")) return "classification";
  if (body.labels !== undefined || body.positive_class !== undefined || body.y_score !== undefined || body.beta !== undefined) return "classification";
  return all.every((v) => Number.isInteger(v)) ? "classification" : "regression";
}
