/**
 * Pipeline = preprocessing steps + algorithm, fitted together on training rows
 * only and applied together at predict time, so clients send raw rows.
 *
 *   raw Frame ─▶ user steps ─▶ automatic steps ─▶ algorithm
 *                               (impute when the algorithm takes no missing values,
 *                                one_hot when it takes no categorical columns)
 */
import { z } from "zod";
import type { Frame } from "../data/frame.js";
import type { Algorithm, FitContext, Prediction, TrainingSet } from "../models/contract.js";
import { STEP_REGISTRY, type PipelineStep } from "./steps.js";

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
    return { step: name, spec: parsed.data };
  });
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
): FittedPipeline {
  const steps: FittedStep[] = [];
  let X = train.X;
  const fitStep = (name: string, spec: unknown, automatic: boolean) => {
    const step = STEP_REGISTRY[name];
    const fitted = step.fit(X, spec, { target: train.target, rng: ctx.rng });
    steps.push({ step: name, spec, fitted, automatic });
    X = step.apply(fitted, X);
  };
  requested.forEach((s) => fitStep(s.step, s.spec, false));
  // Imputation always goes in front of a learner that cannot take missing values:
  // training rows may be complete while a row sent to /predict is not.
  if (!algorithm.accepts.missing) fitStep("impute", STEP_REGISTRY.impute.spec.parse({}), true);
  if (!algorithm.accepts.categorical && hasCategorical(X)) fitStep("one_hot", STEP_REGISTRY.one_hot.spec.parse({}), true);
  const state = algorithm.fit({ ...train, X, weights: algorithm.accepts.weights ? train.weights : undefined }, params, ctx);
  return { steps, state };
}

export function predictPipeline(algorithm: Algorithm, pipeline: FittedPipeline, X: Frame): Prediction {
  return algorithm.predict(pipeline.state, applySteps(pipeline.steps, X));
}
