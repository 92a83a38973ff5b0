/**
 * A train spec + the dataset's Frame → fitted pipeline, its evaluation, warnings.
 * Pure and synchronous: the worker calls it, and so can a test or a benchmark.
 * Holdout keeps the pipeline fitted on the training part; every other scheme
 * reports its estimate and then fits on all rows.
 */
import type { Frame } from "../data/frame.js";
import type { Algorithm, Task } from "../models/contract.js";
import type { FittedModel } from "./artifact.js";
import { learningData } from "./dataset-view.js";
import type { FittedPipeline } from "./pipeline.js";
import { fitOn, fitRng, runBiasVariance, runValidation, type EvaluationResult, type Hooks } from "./validate.js";
import type { Validation } from "./validation.js";
import type { DecisionThreshold } from "../evaluation/threshold.js";
import { classCounts } from "./scoring.js";
import { subset } from "./dataset-view.js";
import { scoreClustering, trainingClusterCounts } from "./clustering.js";
import { runCurve } from "./curves.js";
import { trainingOutlierCount } from "./anomaly.js";

export type { EvaluationResult } from "./validate.js";

export interface ResolvedSpec {
  algorithm: Algorithm;
  params: Record<string, unknown>;
  task: Task;
  target: string | null;
  features: string[];
  steps: { step: string; spec: unknown }[];
  /** The request's auto_scale: standardise a scale-sensitive algorithm's numeric inputs (pipeline.ts autoScaleColumns). */
  autoScale: boolean;
  /** Columns flagged role_hint "identifier" that the default features left out (named in a warning). */
  leftOutIdentifiers: string[];
  validation: Validation;
  seed: number;
  positiveClass: string | null;
  /** F_β's β for evaluations (reported as `fbeta`). */
  beta?: number;
  /** Evaluations of binary classifiers: threshold moving. */
  decisionThreshold?: DecisionThreshold;
  /** validation_curve: the resolved params of each value of the varied parameter, in order. */
  curveParams?: Record<string, unknown>[];
}

export interface TrainResult {
  model: FittedModel;
  /** What the fit found out about its training rows, shown as model fields: clustering's n_clusters and noise_count, anomaly's outlier_count. */
  facts: Record<string, number> | null;
  evaluation: EvaluationResult | null;
  warnings: string[];
  fitSeconds: number;
}

function convergenceWarnings(pipeline: FittedPipeline): string[] {
  const diagnostics = (pipeline.state as { diagnostics?: { converged?: boolean; iterations?: number } } | null)?.diagnostics;
  if (!diagnostics || diagnostics.converged !== false) return [];
  return [`the optimiser did not converge${diagnostics.iterations ? ` in ${diagnostics.iterations} iterations` : ""}; consider raising max_iter or scaling the features`];
}

/** What resolving the request decided that the client should hear about. */
function specWarnings(spec: ResolvedSpec): string[] {
  return identifierWarnings(spec.leftOutIdentifiers);
}

/** The warning for each identifier-like column the default features left out (also used by the fold-parallel path in jobs.ts). */
export function identifierWarnings(names: readonly string[]): string[] {
  return names.map(
    (name) => `column "${name}" was left out of the default features: it looks like an identifier (a distinct value in almost every row), which a model can only memorise; name it in features to use it`,
  );
}

export function trainModel(frame: Frame, spec: ResolvedSpec, hooks: Hooks): TrainResult {
  const data = learningData(frame, spec.features, spec.target, spec.task, spec.algorithm.accepts.unlabelled);
  const warnings = specWarnings(spec);
  if (data.droppedRows > 0) warnings.push(`${data.droppedRows} rows with a missing target were left out`);
  const refit = spec.validation.method !== "holdout";
  const { evaluation, heldOut } = runValidation(spec, data, hooks, refit ? 1 : 0);

  let pipeline: FittedPipeline;
  let fitSeconds: number;
  let counts = classCounts(data.target);
  if (heldOut) {
    ({ pipeline, seconds: fitSeconds } = heldOut);
    counts = classCounts(subset(data, heldOut.trainRows).target);
  } else {
    const started = performance.now();
    const done = evaluation?.folds?.length ?? 0;
    pipeline = fitOn(spec, data, fitRng(spec.seed, -1), hooks, (f) => hooks.progress((done + f) / (done + 1)));
    fitSeconds = (performance.now() - started) / 1000;
  }
  hooks.progress(1);
  warnings.push(...convergenceWarnings(pipeline));

  // A supervised projection fits against classes but predicts none: it keeps no classes.
  const classes = spec.task === "classification" && data.target?.task === "classification" ? [...data.target.classes] : null;
  const model: FittedModel = {
    algorithm: spec.algorithm,
    params: spec.params,
    task: spec.task,
    features: data.X.columns.map((c) => (c.type === "numeric" ? { name: c.name, type: "numeric" } : { name: c.name, type: "categorical", levels: [...c.levels] })),
    target: spec.target,
    classes,
    positiveClass: spec.positiveClass,
    classCounts: counts,
    pipeline,
    trainedAt: new Date().toISOString(),
  };
  const clusters = trainingClusterCounts(model);
  const semi = spec.algorithm.accepts.unlabelled && data.target ? { labelled_rows: data.rows.length - data.unlabelledRows, unlabelled_rows: data.unlabelledRows } : null;
  const outliers = trainingOutlierCount(model, data.X);
  return { model, evaluation, warnings, fitSeconds, facts: clusters ? { ...clusters } : (semi ?? outliers) };
}

/**
 * Cross-validates a spec without keeping a model (POST /v1/evaluations with an algorithm). A
 * clustering spec has nothing to hold out: it is fitted on every row and scored by the
 * internal indices on those rows (and the external ones against `reference`), which is what
 * a search over k or eps ranks.
 */
export function evaluateSpec(frame: Frame, spec: ResolvedSpec, hooks: Hooks, options: { reference?: string } = {}): { evaluation: EvaluationResult; warnings: string[] } {
  if (spec.task === "clustering") {
    const fitted = trainModel(frame, spec, { ...hooks, progress: (f) => hooks.progress(f * 0.7) });
    const evaluation = scoreClustering(fitted.model, frame, { trainingRows: true, reference: options.reference, seed: spec.seed }, (f) => hooks.progress(0.7 + f * 0.3));
    return { evaluation, warnings: fitted.warnings };
  }
  const data = learningData(frame, spec.features, spec.target, spec.task, spec.algorithm.accepts.unlabelled);
  const method = spec.validation.method;
  const { evaluation } =
    method === "bias_variance" ? { evaluation: runBiasVariance(spec, data, hooks) } : method === "learning_curve" || method === "validation_curve" ? { evaluation: runCurve(spec, data, hooks) } : runValidation(spec, data, hooks, 0);
  hooks.progress(1);
  if (!evaluation) throw new Error("an evaluation needs a validation scheme other than none");
  const warnings = specWarnings(spec);
  if (data.droppedRows > 0) warnings.push(`${data.droppedRows} rows with a missing target were left out`);
  return { evaluation, warnings };
}
