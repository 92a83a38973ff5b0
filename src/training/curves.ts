/**
 * Learning and validation curves (seed 002's training error against generalisation error;
 * scikit-learn's learning_curve and validation_curve), as evaluations:
 *
 * - learning_curve: k folds; in each, the learner is fitted on growing shares of the fold's
 *   training part and scored on the fold's test part and on the rows it was fitted on. The
 *   subsets are prefixes of one seeded permutation of the training part per fold, so each
 *   size's rows include the smaller sizes' (scikit-learn takes prefixes of the fold's
 *   training indices; with shuffle=False those are the earliest rows).
 * - validation_curve: the same k folds for every value of one parameter.
 *
 * Each point is the folds' mean (and spread) of every metric, beside the mean training
 * metrics. A point whose fits the data cannot support (a small subset with one class, say)
 * reports the reason and no scores, instead of failing the whole curve. The evaluation's own
 * `metrics` are the largest training size's (learning) or the best value's by the task's
 * default score, accuracy or r2 (validation).
 */
import { permutation } from "../data/random.js";
import { DataError } from "../data/errors.js";
import { UnusableInputError } from "../models/contract.js";
import type { Split } from "../data/split.js";
import type { LearningData } from "./dataset-view.js";
import { aggregate } from "./scoring.js";
import type { ResolvedSpec } from "./train.js";
import { fitRng, planSplits, runFold, type EvaluationResult, type Hooks } from "./validate.js";

type Metrics = Record<string, number | null>;

export interface CurvePoint {
  /** learning_curve: the share asked for and the mean number of rows fitted on. */
  fraction?: number;
  train_size?: number;
  /** validation_curve: the parameter's value. */
  value?: unknown;
  metrics: Metrics;
  metrics_std: Metrics;
  train_metrics: Metrics;
  /** Why the point has no scores (a fit refused its subset). */
  error?: string;
}

export interface CurveResult {
  kind: "learning_curve" | "validation_curve";
  param?: string;
  /** The metric the evaluation's own `metrics` were chosen by (validation_curve). */
  scoring?: string;
  points: CurvePoint[];
}

/** Rows fitted on for a share of a fold's training part: ⌈share × rows⌉, at least 1. */
function subsetSize(share: number, rows: number): number {
  return Math.max(1, Math.min(rows, Math.ceil(share * rows - 1e-9)));
}

function scorePoint(spec: ResolvedSpec, data: LearningData, splits: readonly Split[], first: number, hooks: Hooks, done: () => void): Omit<CurvePoint, "fraction" | "train_size" | "value"> {
  try {
    const outcomes = splits.map((split, f) => {
      const o = runFold(spec, data, split, first + f, hooks, () => {});
      done();
      return o;
    });
    const { mean, std } = aggregate(outcomes.map((o) => o.scored.metrics));
    return { metrics: mean, metrics_std: std, train_metrics: aggregate(outcomes.map((o) => o.trainScored?.metrics ?? {})).mean };
  } catch (e) {
    if (!(e instanceof UnusableInputError || e instanceof DataError)) throw e;
    return { metrics: {}, metrics_std: {}, train_metrics: {}, error: e.message };
  }
}

export function runCurve(spec: ResolvedSpec, data: LearningData, hooks: Hooks): EvaluationResult {
  const v = spec.validation;
  if (v.method !== "learning_curve" && v.method !== "validation_curve") throw new Error("not a curve spec");
  const folds = planSplits(spec, data);
  const k = folds.length;
  const pointCount = v.method === "learning_curve" ? v.train_sizes.length : v.values.length;
  let fitted = 0;
  const done = () => hooks.progress(++fitted / (pointCount * k));
  const points: CurvePoint[] = [];
  if (v.method === "learning_curve") {
    // One seeded order of each fold's training rows; a size takes its prefix (fit index −2 − f: apart from every fit's).
    const orders = folds.map((s, f) => {
      const p = permutation(s.train.length, fitRng(spec.seed, -2 - f));
      return Int32Array.from(p, (i) => s.train[i]);
    });
    v.train_sizes.forEach((share, p) => {
      const splits = folds.map((s, f) => ({ train: orders[f].subarray(0, subsetSize(share, orders[f].length)), test: s.test }));
      const trainSize = splits.reduce((a, s) => a + s.train.length, 0) / k;
      points.push({ fraction: share, train_size: trainSize, ...scorePoint(spec, data, splits, p * k, hooks, done) });
    });
  } else {
    const values = spec.curveParams ?? [];
    values.forEach((params, p) => points.push({ value: v.values[p], ...scorePoint({ ...spec, params }, data, folds, p * k, hooks, done) }));
  }

  const scoring = spec.task === "regression" ? "r2" : "accuracy";
  const scored = points.filter((p) => typeof p.metrics[scoring] === "number");
  const chosen = v.method === "learning_curve" ? scored.at(-1) : scored.reduce<CurvePoint | undefined>((best, p) => (!best || p.metrics[scoring]! > best.metrics[scoring]! ? p : best), undefined);
  const curve: CurveResult = v.method === "learning_curve" ? { kind: v.method, points } : { kind: v.method, param: v.param, scoring, points };
  const result: EvaluationResult = { metrics: chosen?.metrics ?? {}, test_rows: folds.reduce((a, s) => a + s.test.length, 0) };
  if (chosen) Object.assign(result, { metrics_std: chosen.metrics_std, train_metrics: chosen.train_metrics });
  result[v.method] = curve;
  return result;
}
