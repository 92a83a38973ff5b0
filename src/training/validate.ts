/**
 * Runs a validation scheme: for each split, fit the whole pipeline on the
 * training rows only (so no statistic of a test row leaks into preprocessing),
 * predict the test rows, score. Pure and synchronous.
 *
 * Randomness: the split takes the first fork of the root generator, each fit the
 * next fork in split order, so the same spec and seed give the same folds and fits.
 */
import { createHash } from "node:crypto";
import { createRng, type Rng } from "../data/random.js";
import { cellValue, type Frame } from "../data/frame.js";
import { biasVarianceDecomposition, type BiasVarianceResult } from "../evaluation/estimators/bias-variance.js";
import { bootstrap632 } from "../evaluation/estimators/bootstrap632.js";
import { bootstrap, holdout, type Split } from "../data/split.js";
import type { FitContext, Prediction, Target } from "../models/contract.js";
import { subset, type LearningData } from "./dataset-view.js";
import { fitPipeline, predictPipeline, type FittedPipeline } from "./pipeline.js";
import { aggregate, applyThreshold, classCounts, rowOutcomes, scorePredictions, type RowOutcomes, type Scored, type ScoringOptions } from "./scoring.js";
import type { ResolvedSpec } from "./train.js";
import type { CurveResult } from "./curves.js";
import { plan, pools, type Validation } from "./validation.js";

export interface EvaluationResult extends Scored {
  folds?: { metrics: Record<string, number | null>; train_metrics?: Record<string, number | null> }[];
  /** The same metrics on each fold's own training rows, averaged: beside `metrics`, the gap shows over-fitting. */
  train_metrics?: Record<string, number | null>;
  metrics_std?: Record<string, number | null>;
  /** Bootstrap: the share of rows never drawn, averaged over rounds (→ 1/e ≈ 0.368). */
  oob_fraction?: number;
  /** Bootstrap: ε = 0.368·ε_train + 0.632·ε_oob, for accuracy and error_rate. */
  estimate_632?: Record<string, number | null>;
  test_rows?: number;
  /** Equal for two evaluations exactly when their splits were the same rows: paired tests need it. */
  folds_fingerprint?: string;
  /** learning_curve / validation_curve: one point per training size or parameter value (curves.ts). */
  learning_curve?: CurveResult;
  validation_curve?: CurveResult;
  /** bias_variance: the seed's decomposition of the expected squared error. */
  bias_variance?: BiasVarianceResult;
  /** Which held-out rows each evaluation got right (internal: McNemar's test reads it; not on the wire). */
  row_outcomes?: RowOutcomes;
}

export interface Hooks {
  progress(fraction: number): void;
  signal?: import("../models/contract.js").AbortFlag;
  /** Ensemble members grown on other pool threads too (member-spread.ts); absent: all on this thread. */
  members?: import("../models/contract.js").MemberSpread;
}

export interface ValidationRun {
  evaluation: EvaluationResult | null;
  /** Holdout: the pipeline fitted on the training part (it becomes the model). */
  heldOut: { pipeline: FittedPipeline; seconds: number; trainRows: Int32Array } | null;
}

/** `scoreOnly`: the pipeline only predicts and is then dropped (FitContext.scoreOnly). */
export function fitOn(spec: ResolvedSpec, data: { X: Frame; target: Target | null }, rng: Rng, hooks: Hooks, onProgress: (f: number) => void, scoreOnly = false): FittedPipeline {
  const ctx: FitContext = { rng, progress: onProgress, signal: hooks.signal, ...(hooks.members ? { members: hooks.members } : {}), ...(scoreOnly ? { scoreOnly } : {}) };
  return fitPipeline(spec.algorithm, spec.params, spec.steps, { X: data.X, target: data.target }, ctx, { autoScale: spec.autoScale });
}

/** One split's result: everything assembly needs, and nothing that needs the dataset (so a worker can return it). */
export interface FoldOutcome {
  index: number;
  /** Dataset row ids of the test rows, in order. */
  testIds: Int32Array;
  /** Their targets (class indices or values). */
  yTest: Int32Array | Float64Array;
  /** Thresholded when the spec moves the threshold. */
  prediction: Prediction;
  scored: Scored;
  /** The score on the fold's own training rows (train_metrics; bootstrap's .632 estimate); absent for leave-one-out. */
  trainScored?: Scored;
  /** Bootstrap: share of the rows left out of bag. */
  oobShare?: number;
  seconds: number;
}

/**
 * The fit of split i draws from its own generator, derived from (seed, i), so folds
 * can run on any worker in any order and still give the same models. The refit on
 * all rows is index −1.
 */
export function fitRng(seed: number, index: number): Rng {
  return createRng(seed * 1_048_576 + index + 1);
}

export function planSplits(spec: ResolvedSpec, data: LearningData): Split[] {
  const strata = data.target?.task === "classification" ? data.target.y : undefined;
  if (!strata || data.unlabelledRows === 0) return plan(spec.validation, data.X.rowCount, strata, createRng(spec.seed).fork());
  // Semi-supervised: the scheme splits the labelled rows (only they can be scored); every
  // training part also gets all the unlabelled rows, which cost no label to use.
  const labelled: number[] = [];
  const unlabelled: number[] = [];
  strata.forEach((y, i) => (y >= 0 ? labelled : unlabelled).push(i));
  const y = Int32Array.from(labelled, (i) => strata[i]);
  return plan(spec.validation, labelled.length, y, createRng(spec.seed).fork()).map((s) => ({
    train: Int32Array.from([...Array.from(s.train, (i) => labelled[i]), ...unlabelled]),
    test: Int32Array.from(s.test, (i) => labelled[i]),
  }));
}

/** How many splits a spec means for n usable rows (without drawing them). */
export function splitCount(v: Validation, n: number): number {
  switch (v.method) {
    case "holdout":
      return 1;
    case "kfold":
      return v.k * v.repeats;
    case "loo":
      return n;
    case "bootstrap":
      return v.rounds;
    case "five_by_two":
      return 10;
    default:
      return 0;
  }
}

/** What assembling folds' outcomes needs of a spec: the job runner has it from the stored spec without resolving it. */
export type AssemblySpec = Pick<ResolvedSpec, "validation" | "positiveClass" | "beta">;

function scoringOf(spec: AssemblySpec, classes: readonly string[] | null): ScoringOptions {
  return { classes, positiveClass: spec.positiveClass, beta: spec.beta };
}

function classesOf(data: { target: Target | null }): readonly string[] | null {
  return data.target?.task === "classification" ? data.target.classes : null;
}

/**
 * Fits and scores one split, returning the fitted pipeline too: holdout keeps it as the model
 * (runValidation); every other scheme's folds only predict with it, so their fits are scoreOnly.
 */
export function runFold(spec: ResolvedSpec, data: LearningData, split: Split, index: number, hooks: Hooks, onProgress: (f: number) => void): FoldOutcome & { pipeline: FittedPipeline } {
  const scoring = scoringOf(spec, classesOf(data));
  const trainPart = subset(data, split.train);
  const testPart = subset(data, split.test);
  const started = performance.now();
  const pipeline = fitOn(spec, trainPart, fitRng(spec.seed, index), hooks, onProgress, spec.validation.method !== "holdout");
  const seconds = (performance.now() - started) / 1000;
  // "rescale" moves the threshold by this fold's own training counts.
  const thresholded: ScoringOptions = { ...scoring, decisionThreshold: spec.decisionThreshold, trainingCounts: classCounts(trainPart.target) ?? undefined };
  const prediction = applyThreshold(predictPipeline(spec.algorithm, pipeline, testPart.X), thresholded);
  const outcome: FoldOutcome & { pipeline: FittedPipeline } = {
    index,
    testIds: Int32Array.from(split.test, (r) => data.rows[r]),
    yTest: testPart.target!.y,
    prediction,
    scored: scorePredictions(testPart.target, prediction, scoring),
    seconds,
    pipeline,
  };
  if (spec.validation.method === "bootstrap") outcome.oobShare = split.test.length / data.X.rowCount;
  const scoredRows = trainingRowsToScore(spec.validation.method, data, split.train);
  if (scoredRows) {
    const part = scoredRows === split.train ? trainPart : subset(data, scoredRows);
    outcome.trainScored = scorePredictions(part.target, applyThreshold(predictPipeline(spec.algorithm, pipeline, part.X), thresholded), scoring);
  }
  return outcome;
}

/** Training rows a fold scores its own fit on at most (train_metrics), so the extra predictions cost at most this many per fold. */
export const TRAIN_SCORE_ROWS = 10_000;

/**
 * Which training rows a fold scores its fit on, for train_metrics beside the validation
 * metrics (over-fitting shows as the gap). Labelled rows only (a semi-supervised fold also
 * trains on unlabelled ones); above TRAIN_SCORE_ROWS an evenly spaced sample of them. Bootstrap
 * scores them all: its .632 estimate is defined on the whole training score. Leave-one-out
 * scores none: n folds each predicting n − 1 rows would be quadratic in the rows.
 */
export function trainingRowsToScore(method: Validation["method"], data: LearningData, train: Int32Array): Int32Array | null {
  if (method === "loo" || !data.target) return null;
  const y = data.target.y;
  const labelled = data.target.task === "classification" && data.unlabelledRows > 0 ? train.filter((r) => y[r] >= 0) : train;
  if (method === "bootstrap" || labelled.length <= TRAIN_SCORE_ROWS) return labelled;
  const step = labelled.length / TRAIN_SCORE_ROWS;
  return Int32Array.from({ length: TRAIN_SCORE_ROWS }, (_, i) => labelled[Math.floor(i * step)]);
}

function targetOf(y: Int32Array | Float64Array, classes: readonly string[] | null): Target {
  return classes ? { task: "classification", y: y as Int32Array, classes } : { task: "regression", y: y as Float64Array };
}

/** Folds (in index order) → the evaluation body. Shared by the in-worker path and the fold-parallel path. */
export function assembleValidation(spec: AssemblySpec, classes: readonly string[] | null, outcomes: readonly FoldOutcome[]): EvaluationResult {
  const v = spec.validation;
  const scoring = scoringOf(spec, classes);
  const sorted = [...outcomes].sort((a, b) => a.index - b.index);
  const fingerprint = createHash("sha256");
  for (const o of sorted) fingerprint.update(Buffer.from(o.testIds.buffer, o.testIds.byteOffset, o.testIds.byteLength)).update("|");
  // The first repetition covers every row exactly once: its predictions pool into one confusion matrix and curve.
  const firstRepetition = v.method === "holdout" ? 1 : pools(v) ? (v.method === "kfold" ? v.k : v.method === "five_by_two" ? 2 : sorted.length) : 0;
  const pooled = sorted.slice(0, firstRepetition);
  let pooledScore: Scored | null = null;
  let outcomesBits: RowOutcomes | undefined;
  if (pooled.length) {
    const target = targetOf(cat(pooled.map((o) => o.yTest)), classes);
    const prediction = concatPredictions(pooled.map((o) => o.prediction));
    outcomesBits = rowOutcomes(target, prediction, cat(pooled.map((o) => o.testIds)));
    pooledScore = v.method === "holdout" ? sorted[0].scored : scorePredictions(target, prediction, scoring);
  }
  const trained = sorted.every((o) => o.trainScored) ? sorted.map((o) => o.trainScored!.metrics) : null;
  const common = {
    folds_fingerprint: fingerprint.digest("hex"),
    ...(outcomesBits ? { row_outcomes: outcomesBits } : {}),
    ...(trained ? { train_metrics: aggregate(trained).mean } : {}),
  };
  if (v.method === "holdout") return { ...sorted[0].scored, test_rows: sorted[0].testIds.length, ...common };

  const { mean, std } = aggregate(sorted.map((o) => o.scored.metrics));
  const evaluation: EvaluationResult = {
    ...(pooledScore ?? {}),
    metrics: mean,
    metrics_std: std,
    folds: sorted.map((o, i) => ({ metrics: o.scored.metrics, ...(trained ? { train_metrics: trained[i] } : {}) })),
    ...common,
  };
  if (v.method === "bootstrap") {
    evaluation.oob_fraction = sorted.reduce((s, o) => s + (o.oobShare ?? 0), 0) / sorted.length;
    evaluation.estimate_632 = estimate632(
      sorted.map((o) => o.trainScored!),
      sorted.map((o) => o.scored),
    );
  }
  return evaluation;
}

/** Every split in turn on this thread. `extraFits`: fits the caller does afterwards (the refit), so progress ends where they begin. */
export function runValidation(spec: ResolvedSpec, data: LearningData, hooks: Hooks, extraFits: number): ValidationRun {
  const splits = planSplits(spec, data);
  if (splits.length === 0) return { evaluation: null, heldOut: null };
  const total = splits.length + extraFits;
  const outcomes = splits.map((split, index) => {
    const o = runFold(spec, data, split, index, hooks, (f) => hooks.progress(Math.min(1, (index + Math.max(0, Math.min(1, f))) / total)));
    hooks.progress((index + 1) / total);
    return o;
  });
  const evaluation = assembleValidation(spec, classesOf(data), outcomes);
  const heldOut = spec.validation.method === "holdout" ? { pipeline: outcomes[0].pipeline, seconds: outcomes[0].seconds, trainRows: splits[0].train } : null;
  return { evaluation, heldOut };
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

/** Typed arrays end to end, as one array of the first one's kind. */
function cat<T extends Int32Array | Float64Array>(parts: readonly T[]): T {
  const out = new (parts[0].constructor as new (n: number) => T)(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Joins per-fold predictions in fold order (matching the concatenated test rows). */
export function concatPredictions(parts: readonly Prediction[]): Prediction {
  const first = parts[0];
  switch (first.task) {
    case "classification": {
      const ps = parts as Extract<Prediction, { task: "classification" }>[];
      const allProba = ps.every((p) => p.proba);
      return {
        task: "classification",
        labels: cat(ps.map((p) => p.labels)),
        proba: allProba ? cat(ps.map((p) => p.proba!)) : undefined,
      };
    }
    case "regression":
      return { task: "regression", values: cat((parts as Extract<Prediction, { task: "regression" }>[]).map((p) => p.values)) };
    case "clustering":
      return { task: "clustering", labels: cat((parts as Extract<Prediction, { task: "clustering" }>[]).map((p) => p.labels)) };
    case "projection": {
      const ps = parts as Extract<Prediction, { task: "projection" }>[];
      return { task: "projection", dims: first.dims, values: cat(ps.map((p) => p.values)) };
    }
    case "anomaly": {
      const ps = parts as Extract<Prediction, { task: "anomaly" }>[];
      return { task: "anomaly", scores: cat(ps.map((p) => p.scores)), labels: cat(ps.map((p) => p.labels)) };
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
export function runBiasVariance(spec: ResolvedSpec, data: LearningData, hooks: Hooks): EvaluationResult {
  const root = createRng(spec.seed);
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
