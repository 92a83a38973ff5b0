/**
 * What the multiclass wrappers need from a binary learner: an ordinary Algorithm
 * whose fit receives a two-class Target (class index 1 is the "positive" side),
 * optionally with a decision function.
 *
 * The convention (this folder's; both hooks optional on any binary learner):
 *   decision(state, X) → Float64Array of length X.rowCount: a real-valued confidence,
 *     > 0 leaning to class index 1 and < 0 to class index 0, larger magnitude meaning
 *     more confident (an SVM's f(x), a linear model's wᵀx + b).
 *   probabilityOf(state, scores) → P(class index 1) per row from those decision values,
 *     or null when the state has no probabilities; for learners whose probabilities
 *     are a calibration of their decision (Platt scaling), so the wrapper does not
 *     evaluate the model twice.
 * Without decision the wrappers use 2·P(class 1) − 1 from predict's proba, then ±1
 * from predict's labels.
 */
import type { Frame } from "../../data/frame.js";
import type { Algorithm } from "../contract.js";

export interface BinaryLearner<P = unknown, S = unknown> extends Algorithm<P, S> {
  decision?(state: S, X: Frame): Float64Array;
  probabilityOf?(state: S, scores: Float64Array): Float64Array | null;
}

export interface BinaryOutput {
  /** Confidence per row, > 0 towards class index 1. */
  score: Float64Array;
  /** P(class index 1) per row, when the learner gives probabilities. */
  positive: Float64Array | null;
}

export function binaryOutput<P, S>(learner: BinaryLearner<P, S>, state: S, X: Frame): BinaryOutput {
  if (learner.decision && learner.probabilityOf) {
    const score = learner.decision(state, X);
    return { score, positive: learner.probabilityOf(state, score) };
  }
  const n = X.rowCount;
  const prediction = learner.predict(state, X);
  if (prediction.task !== "classification") throw new Error(`${learner.name} is not a classifier`);
  let positive: Float64Array | null = null;
  if (prediction.proba) {
    positive = new Float64Array(n);
    for (let i = 0; i < n; i++) positive[i] = prediction.proba[2 * i + 1];
  }
  let score: Float64Array;
  if (learner.decision) score = learner.decision(state, X);
  else if (positive) {
    score = new Float64Array(n);
    for (let i = 0; i < n; i++) score[i] = 2 * positive[i] - 1;
  } else {
    score = new Float64Array(n);
    for (let i = 0; i < n; i++) score[i] = prediction.labels[i] === 1 ? 1 : -1;
  }
  return { score, positive };
}
