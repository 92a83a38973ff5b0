/**
 * Embedded selection (seed 001 §3.4): fit an L1-penalised linear model — the
 * `lasso` for a numeric target, `logistic_regression` with penalty "l1" for
 * classes (or the estimator named) — and keep the features whose coefficients
 * it did not drive to zero (|w| summed over classes above the threshold).
 */
import { DataError } from "../../data/errors.js";
import { selectColumns, type Frame } from "../../data/frame.js";
import type { Rng } from "../../data/random.js";
import type { Algorithm, Target } from "../../models/contract.js";
import { getAlgorithm } from "../../models/lazy-registry.js";
import { fitLearner } from "./learner.js";

export const L1_DEFAULT_THRESHOLD = 1e-5;

export function l1Estimator(task: "classification" | "regression", named: string | null): { algorithm: Algorithm; defaults: Record<string, unknown> } {
  const name = named ?? (task === "regression" ? "lasso" : "logistic_regression");
  const algorithm = getAlgorithm(name);
  if (!algorithm) {
    throw new DataError(
      named ? `unknown estimator "${named}"` : `l1 selection needs the linear models (${name} for a ${task === "regression" ? "numeric" : "categorical"} target), which this server does not have yet`,
      named ? "estimator" : "method",
    );
  }
  return { algorithm, defaults: named === null && task === "classification" ? { penalty: "l1" } : {} };
}

/** |coefficient| per candidate (summed over classes), in candidate order. */
export function l1Coefficients(frame: Frame, candidates: readonly string[], target: Target, algorithm: Algorithm, params: unknown, rng: Rng, signal?: import("../../models/contract.js").AbortFlag): Float64Array<ArrayBuffer> {
  const coefficients = fitLearner(algorithm, params, selectColumns(frame, candidates), target, rng, signal).importances("coefficients", "abs");
  if (!coefficients) throw new DataError(`${algorithm.name} reports no coefficients, which l1 selection reads`, "estimator");
  return coefficients;
}
