/**
 * Pipeline = preprocessing steps + algorithm, fitted together on training rows
 * only and applied together at predict time, so clients send raw rows.
 *
 *   raw Frame ─▶ user steps ─▶ automatic steps ─▶ algorithm
 *                               (impute when the algorithm takes no missing values,
 *                                one_hot when it takes no categorical columns,
 *                                scale when it is scaleSensitive — see autoScaleColumns)
 *
 * A `resample` step changes the training rows and target at fit time and is the
 * identity afterwards, so held-out and prediction rows are never resampled.
 * A DataError from step i (bad input found while fitting: a categorical column
 * given to scale, box_cox on a non-positive value, k above the feature count)
 * leaves here with its path prefixed `preprocessing[i].`.
 */
import { z } from "zod";
import { DataError } from "../data/errors.js";
import { takeRows, type Frame } from "../data/frame.js";
import type { Algorithm, FitContext, Prediction, Target, TrainingSet } from "../models/contract.js";
import { throwIfAborted, UnusableInputError } from "../models/contract.js";
import { STEP_REGISTRY, type PipelineStep, type PlannedColumn, type PlannedTarget } from "./steps.js";

export interface FittedStep {
  step: string;
  /** The options it was fitted with, defaults filled in. */
  spec: unknown;
  fitted: unknown;
  /** Added by the pipeline because of the algorithm's `accepts`, not asked for by the client. */
  automatic: boolean;
}

export interface FittedPipeline {
  steps: FittedStep[];
  state: unknown;
}

/** What the request decides about the automatic steps. */
export interface PipelineOptions {
  /** The request's `auto_scale` (default true): standardise the numeric inputs of a scale-sensitive learner. */
  autoScale: boolean;
}

export const DEFAULT_PIPELINE_OPTIONS: PipelineOptions = { autoScale: true };

export const stepRequestSchema = z.object({ step: z.string() }).passthrough();
export type StepRequest = z.infer<typeof stepRequestSchema>;

export class StepSpecError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = "StepSpecError";
  }
}

function lookupStep(name: string, index: number): PipelineStep {
  const step = Object.hasOwn(STEP_REGISTRY, name) ? STEP_REGISTRY[name] : undefined;
  if (!step) throw new StepSpecError(`unknown step "${name}"; known steps: ${Object.keys(STEP_REGISTRY).join(", ")}`, `preprocessing[${index}].step`);
  return step;
}

/** Validates every step's options before anything is queued; returns them with defaults filled in. */
export function resolveSteps(requests: readonly StepRequest[]): { step: string; spec: unknown }[] {
  return requests.map((request, index) => {
    const { step: name, ...options } = request;
    const step = lookupStep(name, index);
    const parsed = step.spec.safeParse(options);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path.length ? `.${issue.path.join(".")}` : "";
      throw new StepSpecError(`step ${name}: ${issue.message}`, `preprocessing[${index}]${field}`);
    }
    const problem = step.check?.(parsed.data);
    if (problem) throw new StepSpecError(`step ${name}: ${problem.message}`, stepPath(index, problem.path));
    return { step: name, spec: parsed.data };
  });
}

function stepPath(index: number, path: string | undefined): string {
  return `preprocessing[${index}]${path ? `.${path}` : ""}`;
}

/** Runs `fn`; a DataError it throws comes back with its path under `preprocessing[index]`. */
function atStep<T>(index: number, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof DataError && e.name === "DataError") throw new DataError(e.message, stepPath(index, e.path));
    throw e;
  }
}

/**
 * Runs the resolved steps over the dataset's columns (names, types, levels, and
 * the minimum of each numeric column when known) without data, so that problems
 * the schema alone can see — a column that does not exist, a categorical column
 * given to scale, box_cox on a column with non-positive values, k above the number
 * of candidate features, n_components above K − 1 — are refused before a job is
 * queued (StepSpecError with `preprocessing[i].<field>`). Checking stops quietly
 * after a step whose output columns depend on the data (select, impute with
 * add_indicator, …); fitting checks the rest. Returns the planned output
 * columns, or null when they are not known.
 */
export function planSteps(steps: readonly { step: string; spec: unknown }[], columns: readonly PlannedColumn[], target: PlannedTarget | null): PlannedColumn[] | null {
  let current: PlannedColumn[] | null = [...columns];
  steps.forEach((s, index) => {
    if (current === null) return;
    const step = lookupStep(s.step, index);
    if (!step.plan) {
      current = null;
      return;
    }
    const input: PlannedColumn[] = current;
    try {
      current = step.plan(s.spec, input, target);
    } catch (e) {
      if (e instanceof DataError) throw new StepSpecError(`step ${s.step}: ${e.message}`, stepPath(index, e.path));
      throw e;
    }
  });
  return current;
}

function hasCategorical(frame: Frame): boolean {
  return frame.columns.some((c) => c.type === "categorical");
}

export function applySteps(steps: readonly FittedStep[], frame: Frame): Frame {
  let out = frame;
  for (const s of steps) out = STEP_REGISTRY[s.step].apply(s.fitted, out);
  return out;
}

/**
 * Fits the steps in order, each on the output of the one before, then the algorithm.
 * Only training rows ever reach this function: that is what keeps validation honest.
 */
export function fitPipeline(
  algorithm: Algorithm,
  params: unknown,
  requested: readonly { step: string; spec: unknown }[],
  train: TrainingSet,
  ctx: FitContext,
  options: PipelineOptions = DEFAULT_PIPELINE_OPTIONS,
): FittedPipeline {
  const steps: FittedStep[] = [];
  /** Indicator columns made by one_hot / impute's add_indicator so far: never standardised (see autoScaleColumns). */
  const indicators = new Set<string>();
  let X = train.X;
  let target: Target | null = train.target;
  let weights = train.weights;
  const fitStep = (name: string, spec: unknown, automatic: boolean) => {
    throwIfAborted(ctx.signal); // a stop checkpoint between steps (the worker's signal also checks memory)
    const step = STEP_REGISTRY[name];
    const stepCtx = { target, rng: ctx.rng, signal: ctx.signal };
    if ((step.resample || step.fitTransform) && labelledRows(target)) {
      throw new UnusableInputError(`step ${name} needs every training row labelled, and this semi-supervised fit keeps the rows without a target as unlabelled data`);
    }
    if (step.resample) {
      const out = step.resample(X, target, spec, stepCtx);
      const rows = out.rows;
      steps.push({ step: name, spec, fitted: out.fitted, automatic });
      X = out.frame;
      target = out.target;
      if (weights) {
        const w = weights;
        weights = Float64Array.from(rows, (r) => w[r]);
      }
      return;
    }
    if (step.fitTransform) {
      const out = step.fitTransform(X, spec, stepCtx);
      steps.push({ step: name, spec, fitted: out.fitted, automatic });
      X = out.frame;
      return;
    }
    // A semi-supervised fit's own steps learn from its labelled rows (a supervised step cannot read class −1);
    // the automatic ones (impute, one_hot, scale) ignore the target and use every row.
    const labelled = automatic ? null : labelledRows(target);
    const fitted = labelled ? step.fit(takeRows(X, labelled.rows), spec, { ...stepCtx, target: labelled.target }) : step.fit(X, spec, stepCtx);
    steps.push({ step: name, spec, fitted, automatic });
    const before = X;
    X = step.apply(fitted, X);
    if (name === "one_hot" || name === "impute") for (const c of addedColumns(before, X)) indicators.add(c);
  };
  requested.forEach((s, index) => atStep(index, () => fitStep(s.step, s.spec, false)));
  // Imputation always goes in front of a learner that cannot take missing values:
  // training rows may be complete while a row sent to /predict is not.
  if (!algorithm.accepts.missing) fitStep("impute", STEP_REGISTRY.impute.spec.parse({}), true);
  const numericInputs = autoScaleColumns(algorithm, requested, X, indicators, options);
  if (!algorithm.accepts.categorical && hasCategorical(X)) fitStep("one_hot", STEP_REGISTRY.one_hot.spec.parse({}), true);
  if (numericInputs.length > 0) fitStep("scale", STEP_REGISTRY.scale.spec.parse({ columns: numericInputs }), true);
  throwIfAborted(ctx.signal);
  const state = algorithm.fit({ X, target, weights: algorithm.accepts.weights ? weights : undefined }, params, ctx);
  return { steps, state };
}

/** The labelled rows of a target that has unlabelled ones (class −1, semi-supervised fits); null when every row is labelled. */
function labelledRows(target: Target | null): { rows: Int32Array; target: Target } | null {
  if (target?.task !== "classification" || !target.y.includes(-1)) return null;
  const rows: number[] = [];
  target.y.forEach((y, i) => y >= 0 && rows.push(i));
  const kept = Int32Array.from(rows);
  return { rows: kept, target: { task: "classification", classes: target.classes, y: Int32Array.from(kept, (i) => target.y[i]) } };
}

function addedColumns(before: Frame, after: Frame): string[] {
  const old = new Set(before.columns.map((c) => c.name));
  return after.columns.filter((c) => !old.has(c.name)).map((c) => c.name);
}

/**
 * The columns the automatic `scale` step standardises (z-scores, fitted on the
 * training rows like every step): for a scale-sensitive learner, every numeric
 * input column — unless the request turned auto_scale off or already scales
 * (a `scale` step of its own: the client chose the method and the columns).
 *
 * Numeric inputs only, as scikit-learn's usual ColumnTransformer puts StandardScaler
 * on the numeric columns and OneHotEncoder on the categorical ones (and as H2O
 * standardises numerics by default), and never the 0/1 indicator columns of
 * one_hot or add_indicator: an indicator is already on a unit scale, dividing it by
 * its standard deviation would weigh a rare level up by 1/√(p(1 − p)) in every
 * distance and penalty, and centring it would make a sparse block dense.
 */
function autoScaleColumns(algorithm: Algorithm, requested: readonly { step: string }[], X: Frame, indicators: ReadonlySet<string>, options: PipelineOptions): string[] {
  if (!options.autoScale || !algorithm.scaleSensitive || requested.some((s) => s.step === "scale")) return [];
  return X.columns.filter((c) => c.type === "numeric" && !indicators.has(c.name)).map((c) => c.name);
}

/** What GET /v1/models/{id} shows of one fitted step. */
export interface StepDescription {
  step: string;
  automatic: boolean;
  /** The options, defaults filled in. */
  options: unknown;
  /** The step's own summary (selected features and scores, explained variance, scaler statistics, …); null if it has none. */
  fitted: Record<string, unknown> | null;
}

/** The fitted steps for people, JSON-safe (non-finite numbers are null). */
export function describeSteps(steps: readonly FittedStep[]): StepDescription[] {
  return steps.map((s) => {
    const step = Object.hasOwn(STEP_REGISTRY, s.step) ? STEP_REGISTRY[s.step] : undefined;
    return {
      step: s.step,
      automatic: s.automatic,
      options: jsonSafe(s.spec),
      fitted: step?.describe ? (jsonSafe(step.describe(s.fitted)) as Record<string, unknown>) : null,
    };
  });
}

export function describePipeline(pipeline: FittedPipeline): StepDescription[] {
  return describeSteps(pipeline.steps);
}

function jsonSafe(value: unknown): unknown {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (value === null || typeof value !== "object") return value === undefined ? null : value;
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>, (v) => jsonSafe(v));
  if (Array.isArray(value)) return value.map(jsonSafe);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = jsonSafe(v);
  return out;
}

export function predictPipeline(algorithm: Algorithm, pipeline: FittedPipeline, X: Frame): Prediction {
  return algorithm.predict(pipeline.state, applySteps(pipeline.steps, X));
}
