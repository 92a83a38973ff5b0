/**
 * Binary and multiclass metrics from a confusion matrix (seed 004 "二分类/多分类模型的评估",
 * seed 002 "评估"). Divisions by zero give 0, as scikit-learn's zero_division default.
 */
import { divideOrZero, type MetricValue } from "../wire.js";
import type { Confusion } from "./confusion.js";

export interface BinaryCounts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export interface BinaryMetrics {
  accuracy: number;
  error_rate: number;
  precision: number;
  recall: number;
  f1: number;
  sensitivity: number;
  specificity: number;
  /** Present when a β was asked for. */
  fbeta?: number;
}

export interface ClassScores {
  precision: number;
  recall: number;
  f1: number;
  /** Weighted count of actual members (scikit-learn's support under sample_weight). */
  support: number;
}

export interface MulticlassMetrics {
  accuracy: MetricValue;
  error_rate: MetricValue;
  macro_precision: number;
  macro_recall: number;
  /** The seeds' macro-F1: the F1 of macro precision and macro recall. */
  macro_f1: number;
  /** scikit-learn's f1_score(average="macro"): the mean of the per-class F1. */
  macro_f1_mean: number;
  micro_precision: number;
  micro_recall: number;
  micro_f1: number;
}

/** Counts for one class against the rest. */
export function binaryCounts(c: Confusion, positive: number): BinaryCounts {
  const k = c.nClasses;
  let rowSum = 0;
  let colSum = 0;
  let total = 0;
  for (let j = 0; j < k; j++) {
    rowSum += c.matrix[positive * k + j];
    colSum += c.matrix[j * k + positive];
  }
  for (let i = 0; i < k * k; i++) total += c.matrix[i];
  const tp = c.matrix[positive * k + positive];
  const fn = rowSum - tp;
  const fp = colSum - tp;
  return { tp, fp, fn, tn: total - tp - fn - fp };
}

/** F_β = (1+β²)PR / (β²P + R), 0 when P and R are both 0 (scikit-learn's fbeta_score). */
export function fbetaFromPR(precision: number, recall: number, beta: number): number {
  if (!(beta > 0)) throw new RangeError("beta must be positive");
  const b2 = beta * beta;
  const denominator = b2 * precision + recall;
  return denominator === 0 ? 0 : ((1 + b2) * precision * recall) / denominator;
}

export function binaryMetrics(counts: BinaryCounts, beta?: number): BinaryMetrics {
  const { tp, fp, fn, tn } = counts;
  const total = tp + fp + fn + tn;
  const accuracy = divideOrZero(tp + tn, total);
  const precision = divideOrZero(tp, tp + fp);
  const recall = divideOrZero(tp, tp + fn);
  const out: BinaryMetrics = {
    accuracy,
    error_rate: total === 0 ? 0 : 1 - accuracy,
    precision,
    recall,
    f1: fbetaFromPR(precision, recall, 1),
    sensitivity: recall,
    specificity: divideOrZero(tn, tn + fp),
  };
  if (beta !== undefined) out.fbeta = fbetaFromPR(precision, recall, beta);
  return out;
}

/** Per-class scores for every class index, absent classes included (all zeros). */
export function perClassScores(c: Confusion): ClassScores[] {
  const out: ClassScores[] = [];
  for (let k = 0; k < c.nClasses; k++) {
    const { tp, fp, fn } = binaryCounts(c, k);
    const precision = divideOrZero(tp, tp + fp);
    const recall = divideOrZero(tp, tp + fn);
    out.push({ precision, recall, f1: fbetaFromPR(precision, recall, 1), support: tp + fn });
  }
  return out;
}

/**
 * Macro averages run over the classes present in yTrue or yPred, as scikit-learn does
 * when it is not handed an explicit label list: a class missing from a test fold
 * entirely does not drag the fold's macro scores down with zeros.
 */
export function multiclassMetrics(c: Confusion): MulticlassMetrics {
  const k = c.nClasses;
  const scores = perClassScores(c);
  let present = 0;
  let sumP = 0;
  let sumR = 0;
  let sumF = 0;
  let tpSum = 0;
  let predictedSum = 0;
  let actualSum = 0;
  for (let i = 0; i < k; i++) {
    if (!c.present[i]) continue;
    present++;
    sumP += scores[i].precision;
    sumR += scores[i].recall;
    sumF += scores[i].f1;
    const counts = binaryCounts(c, i);
    tpSum += counts.tp;
    predictedSum += counts.tp + counts.fp;
    actualSum += counts.tp + counts.fn;
  }
  const macroP = divideOrZero(sumP, present);
  const macroR = divideOrZero(sumR, present);
  const microP = divideOrZero(tpSum, predictedSum);
  const microR = divideOrZero(tpSum, actualSum);
  let total = 0;
  let trace = 0;
  for (let i = 0; i < k; i++) trace += c.matrix[i * k + i];
  for (let i = 0; i < k * k; i++) total += c.matrix[i];
  const accuracy = total === 0 ? null : trace / total;
  return {
    accuracy,
    error_rate: accuracy === null ? null : 1 - accuracy,
    macro_precision: macroP,
    macro_recall: macroR,
    macro_f1: fbetaFromPR(macroP, macroR, 1),
    macro_f1_mean: divideOrZero(sumF, present),
    micro_precision: microP,
    micro_recall: microR,
    micro_f1: fbetaFromPR(microP, microR, 1),
  };
}
