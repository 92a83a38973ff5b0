/**
 * Predictions on held-out rows → the evaluation body (API.md), by the
 * evaluation library's summarizers. Curves are stored downsampled to
 * STORED_CURVE_POINTS; GET /v1/evaluations/{id} thins them further on request.
 */
import { createHash } from "node:crypto";
import type { Prediction, Target } from "../models/contract.js";
import { aggregateFolds } from "../evaluation/summarize/aggregate.js";
import { summarizeClassification, type ClassificationSummary } from "../evaluation/summarize/classification.js";
import { summarizeRegression } from "../evaluation/summarize/regression.js";
import type { MetricRecord } from "../evaluation/wire.js";

export const STORED_CURVE_POINTS = 1000;

export interface ScoringOptions {
  classes: readonly string[] | null;
  positiveClass: string | null;
  beta?: number;
}

export type Scored = { metrics: MetricRecord } & Partial<Omit<ClassificationSummary, "metrics">>;

export function scorePredictions(target: Target | null, prediction: Prediction, options: ScoringOptions): Scored {
  if (!target) throw new Error("scoring needs a target");
  if (target.task === "classification" && prediction.task === "classification") {
    return summarizeClassification({
      yTrue: target.y,
      yPred: prediction.labels,
      proba: prediction.proba,
      classes: target.classes,
      positiveClass: options.positiveClass ?? undefined,
      beta: options.beta,
      curvePoints: STORED_CURVE_POINTS,
    });
  }
  if (target.task === "regression" && prediction.task === "regression") {
    return { metrics: { ...summarizeRegression(target.y, prediction.values).metrics } };
  }
  throw new Error(`cannot score a ${prediction.task} prediction against a ${target.task} target`);
}

export function aggregate(folds: readonly MetricRecord[]): { mean: MetricRecord; std: MetricRecord } {
  return aggregateFolds(folds);
}

/** Per held-out row: right or wrong, and which rows (by dataset row id) those were. */
export interface RowOutcomes {
  /** sha256 of the dataset row ids in order: two outcomes compare only when these match. */
  rows: string;
  /** Bit i set when row i was classified correctly (base64, little-endian bit order). */
  correct: string;
  count: number;
}

export function rowOutcomes(target: Target | null, prediction: Prediction, rowIds: Int32Array): RowOutcomes | undefined {
  if (target?.task !== "classification" || prediction.task !== "classification") return undefined;
  const bits = new Uint8Array(Math.ceil(rowIds.length / 8));
  for (let i = 0; i < rowIds.length; i++) if (prediction.labels[i] === target.y[i]) bits[i >> 3] |= 1 << (i & 7);
  return {
    rows: createHash("sha256").update(Buffer.from(rowIds.buffer, rowIds.byteOffset, rowIds.byteLength)).digest("hex"),
    correct: Buffer.from(bits).toString("base64"),
    count: rowIds.length,
  };
}
