/**
 * Learners inside an ensemble: `{ algorithm, params }` naming any learner of the
 * registry. The registry imports the ensembles, so a name is looked up when a
 * request is checked or a model fitted, never at import time (see registry.ts).
 *
 * A nested learner's params are checked with its own zod schema inside the
 * ensemble's, so a bad nested value is a 422 at its full path
 * (`params.base.params.max_depth`), and its state in an artifact with its own state schema.
 *
 * Only functions here (hoisted, so usable while the registry ↔ ensemble import cycle is
 * still being evaluated); the schemas and constants the ensembles use at import time
 * live in params.ts, which imports nothing of the registry.
 */
import type { z } from "zod";
import type { Frame } from "../../data/frame.js";
import { takeRows } from "../../data/frame.js";
import type { Rng } from "../../data/random.js";
import type { AbortFlag, Algorithm, Prediction, Target, Task } from "../contract.js";
import { UnusableInputError } from "../contract.js";
import { getAlgorithm } from "../registry.js";
import { bootstrapCounts } from "./bootstrap.js";
import type { LearnerSpec } from "./params.js";
import { ENSEMBLE_FAMILY } from "./params.js";

export interface Learner {
  readonly algorithm: Algorithm;
  readonly params: unknown;
}

export interface LearnerNeeds {
  /** Sample weights (AdaBoost's re-weighting). */
  readonly weights?: boolean;
}

/** Adds an issue at `path` (relative to the ensemble's params) for each problem of a nested learner spec. */
export function checkLearner(spec: LearnerSpec, path: (string | number)[], ctx: z.RefinementCtx, needs: LearnerNeeds = {}): void {
  const algorithm = getAlgorithm(spec.algorithm);
  if (!algorithm) {
    ctx.addIssue({ code: "custom", path: [...path, "algorithm"], message: `unknown algorithm "${spec.algorithm}"` });
    return;
  }
  if (algorithm.family === ENSEMBLE_FAMILY) {
    ctx.addIssue({ code: "custom", path: [...path, "algorithm"], message: `${spec.algorithm} is an ensemble; members are single learners` });
    return;
  }
  if (!algorithm.tasks.includes("classification") && !algorithm.tasks.includes("regression")) {
    ctx.addIssue({ code: "custom", path: [...path, "algorithm"], message: `${spec.algorithm} is not a supervised learner` });
    return;
  }
  if (needs.weights && !algorithm.accepts.weights) {
    ctx.addIssue({ code: "custom", path: [...path, "algorithm"], message: `${spec.algorithm} takes no sample weights: use boosting "resample"` });
  }
  const parsed = algorithm.params.safeParse(spec.params);
  if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: [...path, "params", ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))], message: issue.message });
}

/** The learner a (checked) spec names, with its params parsed (defaults filled in). */
export function resolveLearner(spec: LearnerSpec, task: Task): Learner {
  const algorithm = getAlgorithm(spec.algorithm);
  if (!algorithm || algorithm.family === ENSEMBLE_FAMILY) throw new UnusableInputError(`unknown base learner "${spec.algorithm}"`);
  if (!algorithm.tasks.includes(task)) throw new UnusableInputError(`${spec.algorithm} does not do ${task}`);
  const parsed = algorithm.params.safeParse(spec.params);
  if (!parsed.success) throw new UnusableInputError(`${spec.algorithm}: ${parsed.error.issues[0].message}`);
  return { algorithm, params: parsed.data };
}

/**
 * Fits one member on X with per-row weights (a bootstrap's counts, boosting's
 * distribution). A learner that takes weights gets them; one that does not is fitted
 * on a weighted resample of n rows (the book's remedy), copied from X.
 */
export function fitMember(learner: Learner, X: Frame, target: Target, weights: Float64Array | null, rng: Rng, signal?: AbortFlag): unknown {
  const ctx = { rng, progress: () => {}, signal };
  if (weights === null || learner.algorithm.accepts.weights) return learner.algorithm.fit({ X, target, ...(weights ? { weights } : {}) }, learner.params, ctx);
  const counts = bootstrapCounts(X.rowCount, X.rowCount, rng, weights);
  const rows: number[] = [];
  for (let i = 0; i < counts.length; i++) for (let c = 0; c < counts[i]; c++) rows.push(i);
  return learner.algorithm.fit({ X: takeRows(X, rows), target: subsetTarget(target, rows) }, learner.params, ctx);
}

export function subsetTarget(target: Target, rows: ArrayLike<number>): Target {
  const n = rows.length;
  if (target.task === "classification") {
    const y = new Int32Array(n);
    for (let i = 0; i < n; i++) y[i] = target.y[rows[i]];
    return { task: "classification", y, classes: target.classes };
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) y[i] = target.y[rows[i]];
  return { task: "regression", y };
}

/** A member's prediction, checked to be the task the ensemble expects. */
export function predictMember(learner: Algorithm, state: unknown, X: Frame, task: "classification" | "regression"): Prediction {
  const p = learner.predict(state, X);
  if (p.task !== task) throw new UnusableInputError(`${learner.name} predicted ${p.task}, expected ${task}`);
  return p;
}

/** Checks each member state of an artifact with its learner's own state schema. */
export function checkMemberStates(algorithmName: string, states: readonly unknown[], path: (string | number)[], ctx: z.RefinementCtx): void {
  const algorithm = getAlgorithm(algorithmName);
  if (!algorithm || algorithm.family === ENSEMBLE_FAMILY) {
    ctx.addIssue({ code: "custom", path: [...path], message: `unknown member algorithm "${algorithmName}"` });
    return;
  }
  for (let t = 0; t < states.length; t++) {
    const r = algorithm.state.safeParse(states[t]);
    if (!r.success) {
      const issue = r.error.issues[0];
      ctx.addIssue({ code: "custom", path: [...path, t, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))], message: `${algorithmName}: ${issue.message}` });
      return;
    }
  }
}

/** Columns `features` of X, as a Frame the member was fitted on. */
export function pickColumns(X: Frame, features: Int32Array | null): Frame {
  if (features === null) return X;
  return { rowCount: X.rowCount, columns: Array.from(features, (j) => X.columns[j]) };
}

/** The ensemble's input columns in its own order, found by name in X. */
export function alignColumns(names: readonly string[], X: Frame): Frame {
  const byName = new Map(X.columns.map((c) => [c.name, c]));
  return {
    rowCount: X.rowCount,
    columns: names.map((name) => {
      const c = byName.get(name);
      if (!c) throw new UnusableInputError(`missing feature column ${name}`);
      return c;
    }),
  };
}
