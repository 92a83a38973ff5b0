/**
 * Recursive feature elimination (seed 001 §3.3.1; scikit-learn's RFE): fit the
 * estimator on the remaining features, drop the `step_size` least important
 * (ties: the earlier column first), repeat until `k` remain. Importance is the
 * estimator's feature_importances, or else its squared coefficients summed over
 * classes. ranking: 1 for the kept features, 2 for the last ones dropped, and so on.
 */
import { DataError } from "../../data/errors.js";
import { selectColumns, type Frame } from "../../data/frame.js";
import type { Rng } from "../../data/random.js";
import { throwIfAborted, type Algorithm, type Target } from "../../models/contract.js";
import { fitLearner } from "./learner.js";

export interface RfeResult {
  selected: string[];
  /** Per candidate, in candidate order. */
  ranking: Int32Array<ArrayBuffer>;
}

export function recursiveFeatureElimination(
  frame: Frame,
  candidates: readonly string[],
  target: Target,
  algorithm: Algorithm,
  params: unknown,
  keep: number,
  stepSize: number,
  rng: Rng,
  signal?: import("../../models/contract.js").AbortFlag,
): RfeResult {
  const ranking = new Int32Array(candidates.length).fill(1);
  let remaining = candidates.map((_, j) => j);
  while (remaining.length > keep) {
    throwIfAborted(signal);
    const X = selectColumns(
      frame,
      remaining.map((j) => candidates[j]),
    );
    const importances = fitLearner(algorithm, params, X, target, rng, signal).importances("importances", "square");
    if (!importances) throw new DataError(`${algorithm.name} reports neither feature importances nor coefficients, which rfe ranks features by`, "estimator");
    const order = remaining.map((_, t) => t).sort((a, b) => importances[a] - importances[b] || a - b);
    const drop = new Set(order.slice(0, Math.min(stepSize, remaining.length - keep)).map((t) => remaining[t]));
    remaining = remaining.filter((j) => !drop.has(j));
    const kept = new Set(remaining);
    for (let j = 0; j < candidates.length; j++) if (!kept.has(j)) ranking[j]++;
  }
  return { selected: remaining.map((j) => candidates[j]), ranking };
}
