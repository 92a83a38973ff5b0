/**
 * An anomaly model scored against known outliers (POST /v1/evaluations with an anomaly
 * model_id and `reference`): the ranking by the scores (roc_auc, average_precision) and
 * the outlier flag as a binary classifier of the reference (precision, recall, f1, …).
 *
 * The reference column says which rows are outliers: numeric 1 (outlier) / 0 (inlier),
 * or categorical with `outlierLevel` naming the outliers (every other level is an
 * inlier). Rows without a reference value are left out.
 */
import { conformFrame } from "../data/conform.js";
import { getColumn, takeRows, type Frame } from "../data/frame.js";
import { averagePrecision } from "../evaluation/curves/precision-recall.js";
import { rocAuc } from "../evaluation/curves/roc.js";
import { binaryMetrics } from "../evaluation/metrics/classification.js";
import type { FittedModel } from "./artifact.js";
import { predictPipeline } from "./pipeline.js";
import type { EvaluationResult } from "./train.js";

/** The level of a categorical reference naming the outliers when the request names none. */
export const DEFAULT_OUTLIER_LEVEL = "outlier";

export interface AnomalyScoreOptions {
  readonly reference: string;
  /** Categorical reference: its level marking an outlier. */
  readonly outlierLevel?: string;
}

/** 1 outlier, 0 inlier, −1 no reference value. Throws for a numeric value other than 0 or 1. */
export function referenceOutliers(frame: Frame, options: AnomalyScoreOptions): Int32Array {
  const c = getColumn(frame, options.reference);
  if (c.type === "categorical") {
    const outlier = c.levels.indexOf(options.outlierLevel ?? DEFAULT_OUTLIER_LEVEL);
    return Int32Array.from(c.codes, (code) => (code < 0 ? -1 : code === outlier ? 1 : 0));
  }
  return Int32Array.from(c.values, (v, i) => {
    if (Number.isNaN(v)) return -1;
    if (v !== 0 && v !== 1) throw new Error(`reference "${options.reference}" has ${v} at row ${i}: a numeric reference is 1 (outlier) or 0 (inlier)`);
    return v;
  });
}

/** The training rows an anomaly model flags (GET /v1/models/{id}: outlier_count); null for any other task. */
export function trainingOutlierCount(model: Pick<FittedModel, "task" | "algorithm" | "pipeline">, X: Frame): { outlier_count: number } | null {
  if (model.task !== "anomaly") return null;
  const p = predictPipeline(model.algorithm, model.pipeline, X);
  if (p.task !== "anomaly") throw new Error(`an anomaly model predicted ${p.task}`);
  return { outlier_count: p.labels.reduce((s, l) => s + l, 0) };
}

export function scoreAnomaly(model: FittedModel, frame: Frame, options: AnomalyScoreOptions, progress: (f: number) => void): EvaluationResult {
  const truth = referenceOutliers(frame, options);
  const keep = Int32Array.from(Array.from(truth.keys()).filter((i) => truth[i] >= 0));
  const y = Int32Array.from(keep, (i) => truth[i]);
  const p = predictPipeline(model.algorithm, model.pipeline, takeRows(conformFrame(frame, model.features), keep));
  if (p.task !== "anomaly") throw new Error(`an anomaly model predicted ${p.task}`);
  progress(0.8);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  y.forEach((t, i) => {
    const flagged = p.labels[i] === 1;
    if (t === 1 && flagged) tp++;
    else if (t === 1) fn++;
    else if (flagged) fp++;
    else tn++;
  });
  const metrics: Record<string, number | null> = {
    roc_auc: rocAuc(y, p.scores),
    average_precision: averagePrecision(y, p.scores),
    ...binaryMetrics({ tp, fp, fn, tn }),
    flagged_rate: y.length ? (tp + fp) / y.length : null,
    reference_outlier_rate: y.length ? (tp + fn) / y.length : null,
  };
  progress(1);
  return { metrics, test_rows: y.length };
}
