/**
 * A train spec + the dataset's Frame → fitted pipeline, its evaluation, warnings.
 * Pure and synchronous: the worker calls it, and so can a test or a benchmark.
 *
 * Randomness: one root generator from the seed; the split takes the first fork,
 * each fit the next, in a fixed order, so the same spec gives the same model.
 */
import { createRng, type Rng } from "../data/random.js";
import type { Frame } from "../data/frame.js";
import { bootstrap, holdout, kfold } from "../data/split.js";
import type { Algorithm, FitContext, Prediction, Target } from "../models/contract.js";
import type { FittedModel } from "./artifact.js";
import { learningData, subset } from "./dataset-view.js";
import { fitPipeline, predictPipeline, type FittedPipeline } from "./pipeline.js";
import { aggregate, scorePredictions, type Scored, type ScoringOptions } from "./scoring.js";
import type { Validation } from "./validation.js";

export interface ResolvedSpec {
  algorithm: Algorithm;
  params: Record<string, unknown>;
  task: "classification" | "regression" | "clustering" | "projection";
  target: string | null;
  features: string[];
  steps: { step: string; spec: unknown }[];
  validation: Validation;
  seed: number;
  positiveClass: string | null;
}

export interface TrainHooks {
  progress(fraction: number): void;
  signal?: AbortSignal;
}

export interface EvaluationResult extends Scored {
  folds?: { metrics: Record<string, number | null> }[];
  metrics_std?: Record<string, number | null>;
  /** Bootstrap: the share of rows never drawn, averaged over rounds (→ 1/e). */
  oob_fraction?: number;
  test_rows?: number;
}

export interface TrainResult {
  model: FittedModel;
  evaluation: EvaluationResult | null;
  warnings: string[];
  fitSeconds: number;
}

function fitOnce(spec: ResolvedSpec, data: { X: Frame; target: Target | null }, rng: Rng, hooks: TrainHooks, onProgress: (f: number) => void): FittedPipeline {
  const ctx: FitContext = { rng, progress: onProgress, signal: hooks.signal };
  return fitPipeline(spec.algorithm, spec.params, spec.steps, { X: data.X, target: data.target }, ctx);
}

export function trainModel(frame: Frame, spec: ResolvedSpec, hooks: TrainHooks): TrainResult {
  const data = learningData(frame, spec.features, spec.target, spec.task);
  const warnings: string[] = [];
  if (data.droppedRows > 0) warnings.push(`${data.droppedRows} rows with a missing target were left out`);
  const n = data.X.rowCount;
  const root = createRng(spec.seed);
  const splitRng = root.fork();
  const classes = data.target?.task === "classification" ? data.target.classes : null;
  const scoring: ScoringOptions = { classes, positiveClass: spec.positiveClass };
  const strata = data.target?.task === "classification" ? data.target.y : undefined;

  const v = spec.validation;
  const plan =
    v.method === "holdout"
      ? [holdout(n, { testSize: v.test_size, stratify: v.stratify ? strata : undefined }, splitRng)]
      : v.method === "kfold"
        ? kfold(n, { k: v.k, stratify: v.stratify ? strata : undefined }, splitRng)
        : v.method === "bootstrap"
          ? bootstrap(n, v.rounds, splitRng)
          : [];
  // Holdout keeps the model fitted on the training part; k-fold and bootstrap refit on all rows.
  const totalFits = v.method === "holdout" ? 1 : plan.length + 1;
  let fitsDone = 0;
  const progressOf = (f: number) => hooks.progress(Math.min(1, (fitsDone + Math.max(0, Math.min(1, f))) / totalFits));

  const foldScores: Scored[] = [];
  let heldOut: { pipeline: FittedPipeline; scored: Scored; testRows: number; seconds: number } | null = null;
  const oof = v.method === "kfold" ? { rows: [] as number[], predictions: [] as Prediction[] } : null;
  let oobShare = 0;
  for (const split of plan) {
    const trainPart = subset(data, split.train);
    const testPart = subset(data, split.test);
    const started = performance.now();
    const pipeline = fitOnce(spec, trainPart, root.fork(), hooks, progressOf);
    const seconds = (performance.now() - started) / 1000;
    fitsDone++;
    progressOf(0);
    if (split.test.length === 0) continue;
    const prediction = predictPipeline(spec.algorithm, pipeline, testPart.X);
    const scored = scorePredictions(testPart.target, prediction, scoring);
    foldScores.push(scored);
    if (v.method === "holdout") heldOut = { pipeline, scored, testRows: split.test.length, seconds };
    if (oof) {
      oof.rows.push(...split.test);
      oof.predictions.push(prediction);
    }
    if (v.method === "bootstrap") oobShare += new Set(split.train).size / n;
  }

  let pipeline: FittedPipeline;
  let fitSeconds: number;
  if (heldOut) {
    pipeline = heldOut.pipeline;
    fitSeconds = heldOut.seconds;
  } else {
    const started = performance.now();
    pipeline = fitOnce(spec, data, root.fork(), hooks, progressOf);
    fitSeconds = (performance.now() - started) / 1000;
  }
  hooks.progress(1);

  const diagnostics = (pipeline.state as { diagnostics?: { converged?: boolean; iterations?: number } } | null)?.diagnostics;
  if (diagnostics && diagnostics.converged === false) {
    warnings.push(`the optimiser did not converge${diagnostics.iterations ? ` in ${diagnostics.iterations} iterations` : ""}; consider raising max_iter or scaling the features`);
  }

  let evaluation: EvaluationResult | null = null;
  if (heldOut) {
    evaluation = { ...heldOut.scored, test_rows: heldOut.testRows };
  } else if (foldScores.length > 0) {
    const { mean, std } = aggregate(foldScores.map((s) => s.metrics));
    const pooled = oof && data.target ? scorePredictions(subset(data, Int32Array.from(oof.rows)).target, concatPredictions(oof.predictions), scoring) : null;
    evaluation = {
      ...(pooled ?? {}),
      metrics: mean,
      metrics_std: std,
      folds: foldScores.map((s) => ({ metrics: s.metrics })),
      ...(v.method === "bootstrap" ? { oob_fraction: 1 - oobShare / foldScores.length } : {}),
    };
  }

  const model: FittedModel = {
    algorithm: spec.algorithm,
    params: spec.params,
    task: spec.task,
    features: data.X.columns.map((c) => (c.type === "numeric" ? { name: c.name, type: "numeric" } : { name: c.name, type: "categorical", levels: [...c.levels] })),
    target: spec.target,
    classes: classes ? [...classes] : null,
    positiveClass: spec.positiveClass,
    pipeline,
    trainedAt: new Date().toISOString(),
  };
  return { model, evaluation, warnings, fitSeconds };
}

/** Joins per-fold predictions in fold order (matching the concatenated test rows). */
export function concatPredictions(parts: readonly Prediction[]): Prediction {
  const first = parts[0];
  const cat = <T extends Float64Array | Int32Array>(arrays: T[], make: (n: number) => T): T => {
    const out = make(arrays.reduce((s, a) => s + a.length, 0));
    let o = 0;
    for (const a of arrays) {
      out.set(a, o);
      o += a.length;
    }
    return out;
  };
  switch (first.task) {
    case "classification": {
      const ps = parts as Extract<Prediction, { task: "classification" }>[];
      const allProba = ps.every((p) => p.proba);
      return {
        task: "classification",
        labels: cat(ps.map((p) => p.labels), (n) => new Int32Array(n)),
        proba: allProba ? cat(ps.map((p) => p.proba!), (n) => new Float64Array(n)) : undefined,
      };
    }
    case "regression":
      return { task: "regression", values: cat((parts as Extract<Prediction, { task: "regression" }>[]).map((p) => p.values), (n) => new Float64Array(n)) };
    case "clustering":
      return { task: "clustering", labels: cat((parts as Extract<Prediction, { task: "clustering" }>[]).map((p) => p.labels), (n) => new Int32Array(n)) };
    case "projection": {
      const ps = parts as Extract<Prediction, { task: "projection" }>[];
      return { task: "projection", dims: first.dims, values: cat(ps.map((p) => p.values), (n) => new Float64Array(n)) };
    }
  }
}
