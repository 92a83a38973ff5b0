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
import { applyDecisionThreshold, type DecisionThreshold } from "../evaluation/threshold.js";

export const STORED_CURVE_POINTS = 1000;

export interface ScoringOptions {
  classes: readonly string[] | null;
  positiveClass: string | null;
  beta?: number;
  /** Binary: threshold moving (seed 002 阈值移动); `trainingCounts` (per class) are needed for "rescale". */
  decisionThreshold?: DecisionThreshold;
  trainingCounts?: readonly number[];
}

/** Class counts of a target, in class order (the "rescale" threshold needs m⁺ and m⁻). */
export function classCounts(target: Target | null): number[] | null {
  if (target?.task !== "classification") return null;
  const counts = new Array<number>(target.classes.length).fill(0);
  for (const y of target.y) if (y >= 0) counts[y]++; // −1: an unlabelled row of a semi-supervised fit
  return counts;
}

export class ThresholdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ThresholdError";
  }
}

/**
 * Re-labels a binary prediction by its positive-class probability: positive when
 * p > threshold ("rescale": threshold = m⁺ / (m⁺ + m⁻) of the training rows).
 */
export function applyThreshold(prediction: Prediction, options: ScoringOptions): Prediction {
  const threshold = options.decisionThreshold;
  if (threshold === undefined || prediction.task !== "classification") return prediction;
  const classes = options.classes ?? [];
  if (classes.length !== 2) throw new ThresholdError("decision_threshold applies to binary classification only");
  if (!prediction.proba) throw new ThresholdError("decision_threshold needs a model with probabilities");
  const positive = classes.indexOf(options.positiveClass ?? classes[1]) as 0 | 1;
  const counts = options.trainingCounts;
  const labels = applyDecisionThreshold(prediction.proba, positive, threshold, counts ? { positives: counts[positive], negatives: counts[1 - positive] } : undefined);
  return { ...prediction, labels };
}

export type Scored = { metrics: MetricRecord } & Partial<Omit<ClassificationSummary, "metrics">>;

export function scorePredictions(target: Target | null, rawPrediction: Prediction, options: ScoringOptions): Scored {
  if (!target) throw new Error("scoring needs a target");
  const prediction = applyThreshold(rawPrediction, options);
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

export function rowOutcomes(target: Target | null, rawPrediction: Prediction, rowIds: Int32Array, options?: ScoringOptions): RowOutcomes | undefined {
  const prediction = options ? applyThreshold(rawPrediction, options) : rawPrediction;
  if (target?.task !== "classification" || prediction.task !== "classification") return undefined;
  const bits = new Uint8Array(Math.ceil(rowIds.length / 8));
  for (let i = 0; i < rowIds.length; i++) if (prediction.labels[i] === target.y[i]) bits[i >> 3] |= 1 << (i & 7);
  return {
    rows: createHash("sha256").update(Buffer.from(rowIds.buffer, rowIds.byteOffset, rowIds.byteLength)).digest("hex"),
    correct: Buffer.from(bits).toString("base64"),
    count: rowIds.length,
  };
}
