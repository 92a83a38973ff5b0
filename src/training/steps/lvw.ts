/**
 * Las Vegas Wrapper (seed 001 §3.3.2, watermelon book §11.3): draw random feature
 * subsets, estimate each by k-fold cross-validation of the estimator (the same
 * folds for every subset, from data/split.ts), and keep a subset when its error
 * is lower — or equal with fewer features; stop after `max_tries` draws in a row
 * bring no improvement.
 *
 * Where the book leaves freedom: the search starts from all candidates (so the
 * answer never cross-validates worse than keeping everything); a subset's size is
 * uniform in 1 … d, its members then uniform; and the whole search is capped at
 * 10 · max_tries subsets. Error: share misclassified, or mean squared error.
 */
import { DataError } from "../../data/errors.js";
import { selectColumns, type Frame } from "../../data/frame.js";
import type { Rng } from "../../data/random.js";
import { kfold, type Split } from "../../data/split.js";
import { throwIfAborted, type Algorithm, type Target } from "../../models/contract.js";
import { subset } from "../dataset-view.js";
import { fitLearner, predictionError } from "./learner.js";

export interface LvwResult {
  selected: string[];
  cvError: number;
  evaluated: number;
}

export function lasVegasWrapper(
  frame: Frame,
  candidates: readonly string[],
  target: Target,
  algorithm: Algorithm,
  params: unknown,
  folds: number,
  maxTries: number,
  rng: Rng,
  signal?: import("../../models/contract.js").AbortFlag,
): LvwResult {
  const n = frame.rowCount;
  let splits: Split[];
  try {
    splits = kfold(n, { k: folds, stratify: target.task === "classification" ? target.y : undefined }, rng.fork());
  } catch (e) {
    if (e instanceof DataError) throw new DataError(e.message.replace(/^k /, "cv "), "cv");
    throw e;
  }
  const data = { X: selectColumns(frame, candidates), target };
  const parts = splits.map((s) => ({ train: subset(data, s.train), test: subset(data, s.test) }));
  const fitRng = rng.fork();
  const errorOf = (chosen: readonly number[]): number => {
    const names = chosen.map((j) => candidates[j]);
    let total = 0;
    for (const part of parts) {
      throwIfAborted(signal);
      const learner = fitLearner(algorithm, params, selectColumns(part.train.X, names), part.train.target!, fitRng, signal);
      total += predictionError(learner.predict(selectColumns(part.test.X, names)), part.test.target!);
    }
    return total / parts.length;
  };

  const d = candidates.length;
  let best = candidates.map((_, j) => j);
  let bestError = errorOf(best);
  let evaluated = 1;
  const pool = Int32Array.from({ length: d }, (_, j) => j);
  for (let tries = 0; tries < maxTries && evaluated < 10 * maxTries; evaluated++) {
    const size = 1 + rng.int(d);
    for (let t = 0; t < size; t++) {
      const r = t + rng.int(d - t);
      [pool[t], pool[r]] = [pool[r], pool[t]];
    }
    const chosen = Array.from(pool.subarray(0, size)).sort((a, b) => a - b);
    const error = errorOf(chosen);
    if (error < bestError || (error === bestError && chosen.length < best.length)) {
      best = chosen;
      bestError = error;
      tries = 0;
    } else {
      tries++;
    }
  }
  return { selected: best.map((j) => candidates[j]), cvError: bestError, evaluated };
}

