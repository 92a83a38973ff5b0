/**
 * Runs a validation scheme: for each split, fit the whole pipeline on the
 * training rows only (so no statistic of a test row leaks into preprocessing),
 * predict the test rows, score. Pure and synchronous.
 *
 * Randomness: the split takes the first fork of the root generator, each fit the
 * next fork in split order, so the same spec and seed give the same folds and fits.
 */
import { createHash } from "node:crypto";
import type { Rng } from "../data/random.js";
import type { Frame } from "../data/frame.js";
import { biasVarianceDecomposition, type BiasVarianceResult } from "../evaluation/estimators/bias-variance.js";
import { bootstrap632 } from "../evaluation/estimators/bootstrap632.js";
import { bootstrap, holdout } from "../data/split.js";
import { cellValue } from "../data/frame.js";
import type { FitContext, Prediction, Target } from "../models/contract.js";
import { subset, type LearningData } from "./dataset-view.js";
import { fitPipeline, predictPipeline, type FittedPipeline } from "./pipeline.js";
import { aggregate, applyThreshold, classCounts, rowOutcomes, scorePredictions, type RowOutcomes, type Scored, type ScoringOptions } from "./scoring.js";
import type { ResolvedSpec } from "./train.js";
import { plan, pools } from "./validation.js";

export interface EvaluationResult extends Scored {
  folds?: { metrics: Record<string, number | null> }[];
  metrics_std?: Record<string, number | null>;
  /** Bootstrap: the share of rows never drawn, averaged over rounds (→ 1/e ≈ 0.368). */
  oob_fraction?: number;
  /** Bootstrap: ε = 0.368·ε_train + 0.632·ε_oob, for accuracy and error_rate. */
  estimate_632?: Record<string, number | null>;
  test_rows?: number;
  /** Equal for two evaluations exactly when their splits were the same rows: paired tests need it. */
  folds_fingerprint?: string;
  /** bias_variance: the seed's decomposition of the expected squared error. */
  bias_variance?: BiasVarianceResult;
  /** Which held-out rows each evaluation got right (internal: McNemar's test reads it; not on the wire). */
  row_outcomes?: RowOutcomes;
}

export interface Hooks {
  progress(fraction: number): void;
  signal?: AbortSignal;
}

export interface ValidationRun {
  evaluation: EvaluationResult | null;
  /** Holdout: the pipeline fitted on the training part (it becomes the model). */
  heldOut: { pipeline: FittedPipeline; seconds: number; trainRows: Int32Array } | null;
}

export function fitOn(spec: ResolvedSpec, data: { X: Frame; target: Target | null }, rng: Rng, hooks: Hooks, onProgress: (f: number) => void): FittedPipeline {
  const ctx: FitContext = { rng, progress: onProgress, signal: hooks.signal };
  return fitPipeline(spec.algorithm, spec.params, spec.steps, { X: data.X, target: data.target }, ctx);
}

/** `extraFits`: fits the caller will do afterwards (the final refit), so progress ends where they begin. */
export function runValidation(spec: ResolvedSpec, data: LearningData, root: Rng, hooks: Hooks, extraFits: number): ValidationRun {
  const v = spec.validation;
  const n = data.X.rowCount;
  const strata = data.target?.task === "classification" ? data.target.y : undefined;
  const splits = plan(v, n, strata, root.fork());
  if (splits.length === 0) return { evaluation: null, heldOut: null };

  const scoring: ScoringOptions = {
    classes: data.target?.task === "classification" ? data.target.classes : null,
    positiveClass: spec.positiveClass,
    beta: spec.beta,
  };
  const threshold: ScoringOptions = { ...scoring, decisionThreshold: spec.decisionThreshold };
  const total = splits.length + extraFits;
  let done = 0;
  const progressOf = (f: number) => hooks.progress(Math.min(1, (done + Math.max(0, Math.min(1, f))) / total));

  // The first repetition covers every row exactly once: its predictions pool into one confusion matrix and curve.
  const firstRepetition = pools(v) ? (v.method === "kfold" ? v.k : v.method === "five_by_two" ? 2 : splits.length) : 0;
  const pooledRows: number[] = [];
  const pooledPredictions: Prediction[] = [];
  const foldScores: Scored[] = [];
  const trainScores: Scored[] = [];
  const fingerprint = createHash("sha256");
  let heldOut: ValidationRun["heldOut"] = null;
  let oobShare = 0;
  let holdoutScore: Scored | null = null;

  splits.forEach((split, index) => {
    const trainPart = subset(data, split.train);
    const testPart = subset(data, split.test);
    const started = performance.now();
    const pipeline = fitOn(spec, trainPart, root.fork(), hooks, progressOf);
    const seconds = (performance.now() - started) / 1000;
    done++;
    progressOf(0);
    fingerprint.update(Buffer.from(Int32Array.from(split.test, (r) => data.rows[r]).buffer)).update("|");
    // "rescale" moves the threshold by this fold's own training counts.
    const foldScoring = { ...threshold, trainingCounts: classCounts(trainPart.target) ?? undefined };
    const prediction = applyThreshold(predictPipeline(spec.algorithm, pipeline, testPart.X), foldScoring);
    const scored = scorePredictions(testPart.target, prediction, scoring);
    foldScores.push(scored);
    if (v.method === "holdout") {
      heldOut = { pipeline, seconds, trainRows: split.train };
      holdoutScore = scored;
      pooledRows.push(...split.test);
      pooledPredictions.push(prediction);
    }
    if (index < firstRepetition) {
      pooledRows.push(...split.test);
      pooledPredictions.push(prediction);
    }
    if (v.method === "bootstrap") {
      oobShare += split.test.length / n;
      trainScores.push(scorePredictions(trainPart.target, applyThreshold(predictPipeline(spec.algorithm, pipeline, trainPart.X), foldScoring), scoring));
    }
  });

  const pooledTarget = pooledRows.length ? subset(data, Int32Array.from(pooledRows)).target : null;
  const pooledPrediction = pooledRows.length ? concatPredictions(pooledPredictions) : null;
  const outcomes =
    pooledTarget && pooledPrediction ? rowOutcomes(pooledTarget, pooledPrediction, Int32Array.from(pooledRows, (r) => data.rows[r])) : undefined;
  const common = { folds_fingerprint: fingerprint.digest("hex"), ...(outcomes ? { row_outcomes: outcomes } : {}) };

  if (holdoutScore) return { evaluation: { ...(holdoutScore as Scored), test_rows: pooledRows.length, ...common }, heldOut };

  const { mean, std } = aggregate(foldScores.map((s) => s.metrics));
  const pooled = pooledTarget && pooledPrediction ? scorePredictions(pooledTarget, pooledPrediction, scoring) : null;
  const evaluation: EvaluationResult = {
    ...(pooled ?? {}),
    metrics: mean,
    metrics_std: std,
    folds: foldScores.map((s) => ({ metrics: s.metrics })),
    ...common,
  };
  if (v.method === "bootstrap") {
    evaluation.oob_fraction = oobShare / splits.length;
    evaluation.estimate_632 = estimate632(trainScores, foldScores);
  }
  return { evaluation, heldOut: null };
}

function estimate632(train: Scored[], oob: Scored[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const metric of ["accuracy", "error_rate", "mse", "rmse", "mae", "r2"]) {
    const t = train.map((s) => s.metrics[metric]);
    const o = oob.map((s) => s.metrics[metric]);
    if (t.every((x) => typeof x === "number") && o.every((x) => typeof x === "number")) {
      out[metric] = bootstrap632(t as number[], o as number[]).estimate;
    }
  }
  return out;
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

/**
 * Seed 002 "偏差方差分解": E(f; D) = bias²(x) + var(x) + ε². `rounds` models, each on a
 * bootstrap sample of the training part (a stand-in for "training sets of the same
 * size from the same distribution"), predict the held-out part. The noise needs the
 * true label, which data does not give; held-out rows with identical features form
 * groups whose label mean stands in for it (otherwise noise is 0 and bias² absorbs it).
 */
export function runBiasVariance(spec: ResolvedSpec, data: LearningData, root: Rng, hooks: Hooks): EvaluationResult {
  const v = spec.validation;
  if (v.method !== "bias_variance") throw new Error("not a bias_variance spec");
  if (data.target?.task !== "regression") throw new Error("bias_variance applies to regression");
  const split = holdout(data.X.rowCount, { testSize: v.test_size }, root.fork());
  const trainPart = subset(data, split.train);
  const testPart = subset(data, split.test);
  const samples = bootstrap(split.train.length, v.rounds, root.fork());
  const n = split.test.length;
  const predictions = new Float64Array(v.rounds * n);
  samples.forEach((sample, r) => {
    const pipeline = fitOn(spec, subset(trainPart, sample.train), root.fork(), hooks, (f) => hooks.progress((r + f) / v.rounds));
    const p = predictPipeline(spec.algorithm, pipeline, testPart.X);
    if (p.task !== "regression") throw new Error("bias_variance needs a regressor");
    predictions.set(p.values, r * n);
  });
  const groupOf = new Map<string, number>();
  const groups = Int32Array.from({ length: n }, (_, i) => {
    const key = JSON.stringify(testPart.X.columns.map((c) => cellValue(c, i)));
    if (!groupOf.has(key)) groupOf.set(key, groupOf.size);
    return groupOf.get(key)!;
  });
  const y = (testPart.target as Extract<Target, { task: "regression" }>).y;
  const result = biasVarianceDecomposition({ predictions, nModels: v.rounds, yObserved: y, groups });
  return { metrics: { mse: result.error, bias2: result.bias2, variance: result.variance, noise: result.noise }, bias_variance: result, test_rows: n };
}
