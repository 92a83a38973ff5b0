/**
 * Incremental learning (POST /v1/models/{id}/partial-fit): a fitted model and new labelled
 * rows in, the updated model out, without refitting from scratch.
 *
 *   rows (JSON, features + target) ─▶ the model's fitted steps, as they are ─▶ algorithm.partialFit
 *
 * The preprocessing steps are not refitted: a scaler keeps its means and deviations, an imputer
 * its fill values, one_hot its levels — the new rows are read through them exactly as /predict
 * reads rows. Only the learner's state changes. A level of a categorical feature the model never
 * saw is a missing value, as at /predict; a target class it never saw is refused (the model's
 * classes are fixed: a new class needs a new fit).
 *
 * Pure: no I/O. Errors are PartialFitError (the request's fault: 422 with a path) or the learner's
 * UnusableInputError.
 */
import { ConformError, conformColumn, conformFrame } from "../data/conform.js";
import { DataError } from "../data/errors.js";
import { getColumn, hasColumn, takeRows, type Frame } from "../data/frame.js";
import { parseNumber } from "../data/infer.js";
import { encodeRows } from "../data/rows.js";
import { createRng } from "../data/random.js";
import type { AbortFlag, Target } from "../models/contract.js";
import { BYTES_PER_VALUE, estimateAlgorithmMemory } from "../models/memory-estimate.js";
import type { FittedModel } from "./artifact.js";
import { applySteps } from "./pipeline.js";
import { groupDigits } from "../data/group-digits.js";

/** The update cannot be made: unsupported_task / unusable_request (the algorithm has no partial fit) or invalid_data (the rows). */
export class PartialFitError extends Error {
  constructor(
    message: string,
    readonly code: "unusable_request" | "unsupported_task" | "invalid_data" | "memory_budget_exceeded",
    readonly path: string,
  ) {
    super(message);
    this.name = "PartialFitError";
  }
}

/** Whether the model's algorithm can be updated, and if not why (the route answers 422 before any work). */
export function partialFitRefusal(algorithm: { name: string; partialFit?: unknown }, task: string): PartialFitError | null {
  if (task !== "classification" && task !== "regression") {
    return new PartialFitError(`partial_fit updates classifiers and regressors; this model does ${task}`, "unsupported_task", "id");
  }
  if (!algorithm.partialFit) {
    return new PartialFitError(`${algorithm.name} has no partial_fit; train a new model on all the rows (GET /v1/algorithms: partial_fit)`, "unusable_request", "id");
  }
  return null;
}

/** The target column of each row, as the model's class index or a number; a missing, unseen or malformed value is a PartialFitError. */
function readTarget(model: FittedModel, rows: readonly unknown[]): Target {
  const name = model.target!;
  const valueOf = (i: number): unknown => {
    const v = (rows[i] as Record<string, unknown>)[name];
    if (v === null || v === undefined || v === "") throw new PartialFitError(`rows[${i}] has no value of the target "${name}": partial_fit learns from labelled rows only`, "invalid_data", `rows[${i}].${name}`);
    return v;
  };
  if (model.task === "classification") {
    const classes = model.classes!;
    const index = new Map(classes.map((c, k) => [c, k]));
    const y = new Int32Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const v = valueOf(i);
      const k = typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? index.get(String(v)) : undefined;
      if (k === undefined) {
        throw new PartialFitError(
          `rows[${i}].${name} = ${JSON.stringify(v)} is not one of the model's classes (${classes.map((c) => JSON.stringify(c)).join(", ")}); a new class needs a new fit`,
          "invalid_data",
          `rows[${i}].${name}`,
        );
      }
      y[i] = k;
    }
    return { task: "classification", classes, y };
  }
  const y = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const v = valueOf(i);
    const x = typeof v === "number" ? v : typeof v === "string" ? parseNumber(v) : NaN;
    if (!Number.isFinite(x)) throw new PartialFitError(`rows[${i}].${name} must be a finite number`, "invalid_data", `rows[${i}].${name}`);
    y[i] = x;
  }
  return { task: "regression", y };
}

/** Every row names every feature (null for a missing value): a row from another table is refused, not read as all missing. */
function checkColumns(model: FittedModel, rows: readonly unknown[]): void {
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (row === null || typeof row !== "object" || Array.isArray(row)) throw new PartialFitError(`rows[${i}] must be an object of the model's features and target`, "invalid_data", `rows[${i}]`);
    const absent = model.features.find((f) => !Object.hasOwn(row, f.name));
    if (absent) {
      throw new PartialFitError(`rows[${i}] lacks the feature "${absent.name}" (send null for a missing value)`, "invalid_data", `rows[${i}].${absent.name}`);
    }
  }
}

export interface PartialFitOptions {
  /** Seeds the learner's shuffles (perceptron, SGD, mlp): the same rows and seed give the same model. */
  seed: number;
  signal?: AbortFlag;
  /** XIGUA_JOB_MEMORY_MB: an update whose estimated peak is above it is refused, as a training job is. */
  jobMemoryMb?: number;
}

/** The model updated with `rows`; `model` itself is not modified. */
export function partialFitModel(model: FittedModel, rows: readonly unknown[], options: PartialFitOptions): FittedModel {
  const refusal = partialFitRefusal(model.algorithm, model.task);
  if (refusal) throw refusal;
  if (rows.length === 0) throw new PartialFitError("rows is empty: send at least one row", "invalid_data", "rows");
  checkColumns(model, rows);
  const target = readTarget(model, rows);
  let X;
  try {
    X = encodeRows(rows, model.features, { ignoreColumns: [model.target!] });
  } catch (e) {
    if (e instanceof DataError) throw new PartialFitError(e.message, "invalid_data", e.path ?? "rows");
    throw e;
  }
  return updated(model, X, target, options, "rows");
}

/**
 * The model updated with a stored dataset's rows (its features and target read onto the model's
 * schema, as an evaluation reads them). Rows without a target value are left out, as training
 * leaves them out; a target value that is not one of the model's classes is refused.
 */
export function partialFitModelOnFrame(model: FittedModel, frame: Frame, options: PartialFitOptions): { model: FittedModel; rows: number } {
  const refusal = partialFitRefusal(model.algorithm, model.task);
  if (refusal) throw refusal;
  const name = model.target!;
  const missing = [...model.features.map((f) => f.name), name].filter((c) => !hasColumn(frame, c));
  if (missing.length) throw new PartialFitError(`the dataset lacks the model's column(s) ${missing.join(", ")}`, "invalid_data", "dataset_id");
  const source = getColumn(frame, name);
  const keep: number[] = [];
  let target: Target;
  try {
    if (model.classes) {
      if (source.type !== "categorical") throw new ConformError(`the target "${name}" must be categorical`, name);
      const unseen = source.levels.filter((l, code) => !model.classes!.includes(l) && source.codes.includes(code));
      if (unseen.length) throw new PartialFitError(`the dataset's target has value(s) ${unseen.map((l) => JSON.stringify(l)).join(", ")} that are not among the model's classes; a new class needs a new fit`, "invalid_data", "dataset_id");
      const column = conformColumn(source, { name, type: "categorical", levels: model.classes });
      if (column.type !== "categorical") throw new Error("unreachable");
      column.codes.forEach((c, i) => c >= 0 && keep.push(i));
      target = { task: "classification", classes: model.classes, y: Int32Array.from(keep, (i) => column.codes[i]) };
    } else {
      const column = conformColumn(source, { name, type: "numeric" });
      if (column.type !== "numeric") throw new Error("unreachable");
      column.values.forEach((v, i) => !Number.isNaN(v) && keep.push(i));
      target = { task: "regression", y: Float64Array.from(keep, (i) => column.values[i]) };
    }
    if (keep.length === 0) throw new PartialFitError(`no row of the dataset has a value of the target "${name}"`, "invalid_data", "dataset_id");
    const X = takeRows(conformFrame(frame, model.features), Int32Array.from(keep));
    return { model: updated(model, X, target, options, "dataset_id"), rows: keep.length };
  } catch (e) {
    if (e instanceof ConformError) throw new PartialFitError(`${e.message} (as in the model)`, "invalid_data", "dataset_id");
    throw e;
  }
}

const MIB = 1024 * 1024;

/**
 * 422 memory_budget_exceeded when the update's estimated peak passes the job budget: the
 * learner's own terms for a fit on the new rows plus the rows its state keeps (an incremental
 * id3 regrows along the new rows' paths over all of them), as models/memory-estimate.ts counts
 * a fit, plus the new rows as the steps leave them. Checked before the learner runs.
 */
function checkUpdateBudget(model: FittedModel, input: Frame, jobMemoryMb: number, source: "rows" | "dataset_id"): void {
  const algorithm = model.algorithm;
  const kept = algorithm.keptRows?.(model.pipeline.state) ?? 0;
  const added = input.rowCount;
  const levels = input.columns.flatMap((c) => (c.type === "categorical" ? [c.levels.length] : []));
  const shape = { rows: kept + added, features: input.columns.length, levels, classes: model.classes?.length ?? 0 };
  const terms = [
    ...estimateAlgorithmMemory(algorithm, model.params, shape),
    { path: source, bytes: added * input.columns.length * BYTES_PER_VALUE, what: "the new rows through the model's steps" },
  ];
  const bytes = terms.reduce((t, term) => t + term.bytes, 0);
  if (bytes <= jobMemoryMb * MIB) return;
  const largest = terms.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const mib = (b: number) => groupDigits(Math.ceil(b / MIB));
  const keptNote = kept ? ` (the model keeps ${groupDigits(kept)} training rows, which the update works on too)` : "";
  throw new PartialFitError(
    `this update would need about ${mib(bytes)} MiB, over the ${groupDigits(jobMemoryMb)} MiB a job may use (XIGUA_JOB_MEMORY_MB)${keptNote}; the largest part is ${largest.what} (${mib(largest.bytes)} MiB): send fewer rows, or train a new model`,
    "memory_budget_exceeded",
    source,
  );
}

function updated(model: FittedModel, X: Frame, target: Target, options: PartialFitOptions, source: "rows" | "dataset_id"): FittedModel {
  const input = applySteps(model.pipeline.steps, X);
  if (options.jobMemoryMb !== undefined) checkUpdateBudget(model, input, options.jobMemoryMb, source);
  const state = model.algorithm.partialFit!(model.pipeline.state, { X: input, target }, model.params, {
    rng: createRng(options.seed),
    progress: () => {},
    signal: options.signal,
  });
  let classCounts = model.classCounts;
  if (classCounts && target.task === "classification") {
    classCounts = [...classCounts];
    for (const k of target.y) classCounts[k]++;
  }
  return { ...model, classCounts, pipeline: { steps: model.pipeline.steps, state }, trainedAt: new Date().toISOString() };
}
