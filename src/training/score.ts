/**
 * Scores a trained model on a dataset (POST /v1/evaluations with model_id + dataset_id):
 * against its target, for a clustering model by the indices of ./clustering.ts, for an
 * anomaly model against a reference column of known outliers (./anomaly.ts).
 */
import { conformColumn, conformFrame } from "../data/conform.js";
import { getColumn, takeRows, type Frame } from "../data/frame.js";
import type { Target } from "../models/contract.js";
import { loadArtifact } from "./artifact.js";
import { scoreClustering } from "./clustering.js";
import { scoreAnomaly } from "./anomaly.js";
import { predictPipeline } from "./pipeline.js";
import { applyThreshold, rowOutcomes, scorePredictions } from "./scoring.js";
import type { DecisionThreshold } from "../evaluation/threshold.js";
import type { EvaluationResult } from "./train.js";

export function scoreModel(artifact: Buffer, frame: Frame, spec: Record<string, unknown>, progress: (f: number) => void): EvaluationResult {
  const model = loadArtifact(artifact);
  if (model.task === "clustering") {
    const reference = typeof spec.reference === "string" ? spec.reference : undefined;
    const seed = typeof spec.seed === "number" ? spec.seed : 0;
    return scoreClustering(model, frame, { trainingRows: spec.training_rows === true, reference, seed }, progress);
  }
  if (model.task === "anomaly") {
    if (typeof spec.reference !== "string") throw new Error("an anomaly model is scored against a reference column");
    return scoreAnomaly(model, frame, { reference: spec.reference, outlierLevel: typeof spec.positive_class === "string" ? spec.positive_class : undefined }, progress);
  }
  if (!model.target) throw new Error("the model has no target to score against");
  const targetColumn = getColumn(frame, model.target);
  const keep: number[] = [];
  let target: Target;
  if (model.classes) {
    const column = conformColumn(targetColumn, { name: model.target, type: "categorical", levels: model.classes });
    if (column.type !== "categorical") throw new Error("unreachable");
    column.codes.forEach((c, i) => c >= 0 && keep.push(i));
    target = { task: "classification", classes: model.classes, y: Int32Array.from(keep, (i) => column.codes[i]) };
  } else {
    const column = conformColumn(targetColumn, { name: model.target, type: "numeric" });
    if (column.type !== "numeric") throw new Error("unreachable");
    column.values.forEach((v, i) => !Number.isNaN(v) && keep.push(i));
    target = { task: "regression", y: Float64Array.from(keep, (i) => column.values[i]) };
  }
  const X = takeRows(conformFrame(frame, model.features), Int32Array.from(keep));
  progress(0.5);
  const options = {
    classes: model.classes,
    positiveClass: (spec.positive_class as string | undefined) ?? model.positiveClass,
    beta: spec.beta as number | undefined,
  };
  const prediction = applyThreshold(predictPipeline(model.algorithm, model.pipeline, X), {
    ...options,
    decisionThreshold: spec.decision_threshold as DecisionThreshold | undefined,
    trainingCounts: model.classCounts ?? undefined,
  });
  const scored = scorePredictions(target, prediction, options);
  progress(1);
  const outcomes = rowOutcomes(target, prediction, Int32Array.from(keep));
  return { ...scored, test_rows: keep.length, ...(outcomes ? { row_outcomes: outcomes } : {}) };
}
