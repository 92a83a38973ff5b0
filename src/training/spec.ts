/**
 * Turns a client's train request into a ResolvedSpec, checking everything that
 * can be checked before a job is queued (so bad requests are a synchronous 4xx,
 * not a failed job): algorithm, params, columns, task, classes, steps, validation.
 * The same function runs again inside the worker on the stored spec.
 */
import { z } from "zod";
import type { Algorithm, Task } from "../models/contract.js";
import type { ErrorCode } from "../server/errors.js";
import { getAlgorithm } from "../models/registry.js";
import type { RoleHint } from "../data/summary.js";
import { estimateJobMemory } from "./memory-estimate.js";
import { planSteps, resolveSteps, StepSpecError, type StepRequest } from "./pipeline.js";
import { STEP_REGISTRY } from "./steps.js";
import type { ResolvedSpec } from "./train.js";
import { defaultValidation, validationSchema } from "./validation.js";
import { groupDigits } from "../data/group-digits.js";

/** What spec resolution needs to know about the dataset: its columns, from the stored metadata. */
export interface DatasetColumns {
  row_count: number;
  columns: {
    name: string;
    type: "numeric" | "categorical";
    levels?: string[];
    missing_count?: number;
    summary?: { min: number | null };
    /** From the summary computed at upload (data/summary.ts); absent on datasets stored before it existed. */
    role_hint?: RoleHint;
  }[];
}

export interface TrainRequest {
  algorithm: string;
  target?: string | null;
  features?: string[];
  params?: Record<string, unknown>;
  preprocessing?: StepRequest[];
  validation?: unknown;
  seed?: number;
  positive_class?: string | null;
  beta?: number;
  decision_threshold?: number | "rescale";
  /** Default true: standardise the numeric inputs of a scale-sensitive algorithm. */
  auto_scale?: boolean;
  /** A clustering evaluation's reference labelling: like the target, never a default feature. */
  reference?: string;
  /**
   * Not a client field: what the default features left out at submission, kept in the
   * stored spec (whose features are then explicit) so the model's warning still names them.
   */
  left_out_identifiers?: string[];
}

/** Training keeps a model; an evaluation only estimates (no "none", and bias_variance is allowed). */
export type Purpose = "train" | "evaluate";

/** A request that is well-formed but unusable: becomes a 422 with this path. */
export class SpecError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly code: ErrorCode = "unusable_request",
  ) {
    super(message);
    this.name = "SpecError";
  }
}

/** Checks that only the routes ask for: the worker resolves a stored spec again without them. */
export interface QueueLimits {
  /** XIGUA_JOB_MEMORY_MB: a job whose estimated peak is above this is refused. */
  jobMemoryMb: number;
}

const MIB = 1024 * 1024;

/** 422 memory_budget_exceeded at the path of the largest term when the estimate passes the budget. */
export function checkMemoryBudget(resolved: ResolvedSpec, dataset: DatasetColumns, jobMemoryMb: number): void {
  const estimate = estimateJobMemory(resolved, dataset);
  if (estimate.bytes <= jobMemoryMb * MIB) return;
  const largest = estimate.terms.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const mib = (bytes: number) => groupDigits(Math.ceil(bytes / MIB));
  throw new SpecError(
    `this job would need about ${mib(estimate.bytes)} MiB, over the ${groupDigits(jobMemoryMb)} MiB a job may use (XIGUA_JOB_MEMORY_MB); the largest part is ${largest.what} (${mib(largest.bytes)} MiB) — change ${largest.path}`,
    largest.path,
    "memory_budget_exceeded",
  );
}

function zodPath(prefix: string, issue: z.core.$ZodIssue): string {
  return [prefix, ...issue.path.map(String)].join(".");
}

/**
 * What a stored spec keeps besides the store's TrainSpec fields (specs are stored as
 * JSON, so these ride along): auto_scale, and the identifier columns the default
 * features left out. resolveSpec reads both back in the worker.
 */
export function storedSpecExtras(resolved: ResolvedSpec): { auto_scale: boolean; left_out_identifiers?: string[] } {
  return { auto_scale: resolved.autoScale, ...(resolved.leftOutIdentifiers.length ? { left_out_identifiers: resolved.leftOutIdentifiers } : {}) };
}

/** Validation schemes that only estimate: a model is never trained by them. */
const EVALUATION_ONLY = new Set(["bias_variance", "learning_curve", "validation_curve"]);

/** Each value of a validation curve's parameter, validated and resolved as the params of its own request would be. */
function validationCurveParams(algorithm: Algorithm, base: Record<string, unknown>, param: string, values: readonly unknown[]): Record<string, unknown>[] {
  const shape = (algorithm.params as unknown as { shape?: Record<string, unknown> }).shape;
  if (!shape || !Object.hasOwn(shape, param)) throw new SpecError(`validation.param "${param}" is not a parameter of ${algorithm.name}`, "validation.param", "invalid_validation");
  return values.map((value, i) => {
    const parsed = algorithm.params.safeParse({ ...base, [param]: value });
    if (!parsed.success) throw new SpecError(`validation.values[${i}]: ${parsed.error.issues[0].message}`, `validation.values.${i}`, "invalid_params");
    return parsed.data as Record<string, unknown>;
  });
}

export function resolveSpec(request: TrainRequest, dataset: DatasetColumns, purpose: Purpose = "train", limits?: QueueLimits): ResolvedSpec {
  const algorithm = getAlgorithm(request.algorithm);
  if (!algorithm) throw new SpecError(`unknown algorithm "${request.algorithm}"; GET /v1/algorithms lists them`, "algorithm", "unknown_algorithm");

  const params = algorithm.params.safeParse(request.params ?? {});
  if (!params.success) {
    const issue = params.error.issues[0];
    const unknown = issue.code === "unrecognized_keys" ? (issue as { keys: string[] }).keys : null;
    throw unknown
      ? new SpecError(`unknown parameter ${unknown.map((k) => `"${k}"`).join(", ")} for ${algorithm.name}`, `params.${unknown[0]}`, "invalid_params")
      : new SpecError(issue.message, zodPath("params", issue), "invalid_params");
  }

  const byName = new Map(dataset.columns.map((c) => [c.name, c]));
  const target = request.target ?? null;
  const targetColumn = target === null ? null : byName.get(target);
  if (target !== null && !targetColumn) throw new SpecError(`target "${target}" is not a column of the dataset`, "target", "unknown_column");

  let task: Task;
  if (targetColumn && algorithm.accepts.classes) {
    if (targetColumn.type !== "categorical") {
      throw new SpecError(`${algorithm.name} projects against classes; the target "${target}" is numeric — send column_types with "categorical" at upload to treat it as classes`, "target", "unsupported_task");
    }
    task = "projection";
  } else if (targetColumn) {
    task = targetColumn.type === "categorical" ? "classification" : "regression";
    if (!algorithm.tasks.includes(task)) {
      throw new SpecError(
        `${algorithm.name} does not do ${task} (it does ${algorithm.tasks.join(", ")}); the target "${target}" is ${targetColumn.type}` +
          (task === "regression" ? ' — send column_types with "categorical" at upload to treat it as classes' : ""),
        "target",
        "unsupported_task",
      );
    }
  } else {
    const unsupervised = algorithm.accepts.classes ? undefined : algorithm.tasks.find((t) => t === "clustering" || t === "projection" || t === "anomaly");
    if (!unsupervised) throw new SpecError(`${algorithm.name} is supervised: give a target column`, "target", "target_required");
    task = unsupervised;
  }

  // An anomaly detector has nothing to hold out or cross-validate against: it is scored as a trained model against known outliers.
  if (purpose === "evaluate" && task === "anomaly") {
    throw new SpecError(
      `${algorithm.name} detects anomalies without a target: train a model (POST /v1/models), then score it with POST /v1/evaluations {model_id, reference} against a column marking the known outliers`,
      "algorithm",
      "unsupported_task",
    );
  }

  // Rows without a target value are left out of a supervised fit; with none left there is nothing to learn from.
  const labelledRows = targetColumn ? dataset.row_count - (targetColumn.missing_count ?? 0) : dataset.row_count;
  if (targetColumn && labelledRows <= 0) {
    throw new SpecError(`every value of the target "${target}" is missing: no row has a label to learn from`, "target", "target_all_missing");
  }

  if ((task === "classification" || (targetColumn && algorithm.accepts.classes)) && (targetColumn?.levels?.length ?? 0) < 2) {
    throw new SpecError(`target "${target}" has ${targetColumn?.levels?.length ?? 0} class(es); ${task === "classification" ? "classification" : algorithm.name} needs at least two`, "target", "single_class");
  }

  // By default every column but the target — except those that look like row identifiers (a name, a code:
  // a distinct value in almost every row), which a model can only memorise. Named in `features`, they are used.
  const identifiers = request.features ? [] : dataset.columns.filter((c) => c.role_hint === "identifier" && c.name !== target).map((c) => c.name);
  const leftOut = new Set(identifiers);
  const features = request.features ?? dataset.columns.map((c) => c.name).filter((n) => n !== target && n !== request.reference && !leftOut.has(n));
  const leftOutIdentifiers = request.features ? (request.left_out_identifiers ?? []) : identifiers;
  if (features.length === 0) {
    const named = identifiers.map((n) => `"${n}"`).join(", ");
    const note = identifiers.length === 0 ? "" : identifiers.length === 1 ? `; ${named} looks like an identifier — name it in features to use it` : `; ${named} look like identifiers — name them in features to use them`;
    throw new SpecError(`no feature columns to learn from${note}`, "features", "no_features");
  }
  const seen = new Set<string>();
  features.forEach((f, i) => {
    if (!byName.has(f)) throw new SpecError(`feature "${f}" is not a column of the dataset`, `features.${i}`, "unknown_column");
    if (f === target) throw new SpecError(`the target "${f}" cannot also be a feature`, `features.${i}`, "target_as_feature");
    if (seen.has(f)) throw new SpecError(`feature "${f}" is listed twice`, `features.${i}`, "duplicate_feature");
    seen.add(f);
  });

  let steps: { step: string; spec: unknown }[];
  try {
    steps = resolveSteps(request.preprocessing ?? []);
    // Column-level checks (a categorical column given to scale, box_cox on non-positive values, k above
    // the feature count, …) from the stored column metadata, so they are a 422 now rather than a failed job.
    planSteps(
      steps,
      features.map((f) => {
        const c = byName.get(f)!;
        return { name: c.name, type: c.type, levels: c.levels, min: c.summary?.min ?? null, missing: c.missing_count };
      }),
      targetColumn ? { type: targetColumn.type, levels: targetColumn.levels } : null,
    );
  } catch (e) {
    if (e instanceof StepSpecError) throw new SpecError(e.message, e.path, "invalid_step");
    throw e;
  }

  if (algorithm.accepts.unlabelled && (targetColumn?.missing_count ?? 0) > 0) {
    const index = steps.findIndex((s) => Object.hasOwn(STEP_REGISTRY, s.step) && (STEP_REGISTRY[s.step].resample || STEP_REGISTRY[s.step].fitTransform));
    if (index >= 0) {
      throw new SpecError(
        `step ${steps[index].step} needs every training row labelled; ${algorithm.name} keeps the ${targetColumn!.missing_count} rows without a "${target}" value as unlabelled data`,
        `preprocessing[${index}].step`,
        "invalid_step",
      );
    }
  }

  const parsedValidation = request.validation === undefined ? { success: true as const, data: defaultValidation(task) } : validationSchema.safeParse(request.validation);
  if (!parsedValidation.success) throw new SpecError(parsedValidation.error.issues[0].message, zodPath("validation", parsedValidation.error.issues[0]), "invalid_validation");
  const validation = parsedValidation.data;
  if ((task === "clustering" || task === "projection" || task === "anomaly") && validation.method !== "none") {
    throw new SpecError(`validation "${validation.method}" needs a target; ${task} takes "none"`, "validation.method", "invalid_validation");
  }
  if (purpose === "train" && EVALUATION_ONLY.has(validation.method)) {
    throw new SpecError(`${validation.method} is an evaluation (POST /v1/evaluations), not a way to train a model`, "validation.method", "invalid_validation");
  }
  if ((validation.method === "learning_curve" || validation.method === "validation_curve") && task !== "classification" && task !== "regression") {
    throw new SpecError(`${validation.method} needs a target (classification or regression)`, "validation.method", "invalid_validation");
  }
  const curveParams = validation.method === "validation_curve" ? validationCurveParams(algorithm, request.params ?? {}, validation.param, validation.values) : undefined;
  // A clustering spec is evaluated on the rows it clusters (internal indices need no held-out part).
  if (purpose === "evaluate" && validation.method === "none" && task !== "clustering") throw new SpecError('an evaluation needs a validation scheme other than "none"', "validation.method", "invalid_validation");
  if (validation.method === "bias_variance" && task !== "regression") throw new SpecError("bias_variance applies to regression", "validation.method", "invalid_validation");
  const rowsNote = labelledRows < dataset.row_count ? ` (${dataset.row_count - labelledRows} of the ${dataset.row_count} rows have no target value)` : "";
  if ((validation.method === "kfold" || validation.method === "learning_curve" || validation.method === "validation_curve") && validation.k > labelledRows) {
    throw new SpecError(`k = ${validation.k} is more than the ${labelledRows} labelled rows${rowsNote}`, "validation.k", "invalid_validation");
  }
  if (validation.method !== "none" && labelledRows < 2) {
    throw new SpecError(`${validation.method} splits rows into training and test parts, and there is ${labelledRows} labelled row${rowsNote}`, "validation.method", "invalid_validation");
  }

  let positiveClass: string | null = null;
  if (task === "classification") {
    const levels = targetColumn!.levels!;
    const most = algorithm.accepts.maxClasses;
    if (most !== undefined && levels.length > most) {
      throw new SpecError(`${algorithm.name} separates at most ${most} classes; "${target}" has ${levels.length}`, "target", "unusable_request");
    }
    if (request.positive_class != null) {
      if (!levels.includes(request.positive_class)) throw new SpecError(`positive_class "${request.positive_class}" is not a class of "${target}" (${levels.join(", ")})`, "positive_class", "unknown_class");
      positiveClass = request.positive_class;
    } else if (levels.length === 2) {
      positiveClass = levels[1];
    }
    if (request.decision_threshold !== undefined && levels.length !== 2) {
      throw new SpecError("decision_threshold applies to binary classification only", "decision_threshold", "invalid_request");
    }
  } else if (request.decision_threshold !== undefined) {
    throw new SpecError("decision_threshold applies to binary classification only", "decision_threshold", "invalid_request");
  } else if (request.positive_class != null) {
    throw new SpecError("positive_class only applies to classification", "positive_class", "invalid_request");
  }

  const resolved: ResolvedSpec = {
    algorithm,
    params: params.data as Record<string, unknown>,
    task,
    target,
    features,
    steps,
    autoScale: request.auto_scale ?? true,
    leftOutIdentifiers,
    validation,
    seed: request.seed ?? 0,
    positiveClass,
    ...(request.beta !== undefined ? { beta: request.beta } : {}),
    ...(request.decision_threshold !== undefined ? { decisionThreshold: request.decision_threshold } : {}),
    ...(curveParams ? { curveParams } : {}),
  };
  // A validation curve fits with each value in turn: the largest must fit the budget too.
  if (limits) for (const p of curveParams ?? [resolved.params]) checkMemoryBudget({ ...resolved, params: p }, dataset, limits.jobMemoryMb);
  return resolved;
}
