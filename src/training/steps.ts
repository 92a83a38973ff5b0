/**
 * The preprocessing step registry as the pipeline sees it: every data/
 * transform (unsupervised, ignores the target), and the steps in ./steps/ that
 * need the target or the seeded generator — projections (pca, lda_projection,
 * mds, rbm), feature selection (filter, wrapper and embedded), and class resampling.
 *
 * A step may also:
 * - `describe` its fitted state for people (GET /v1/models/{id});
 * - `plan` its output columns from column names and types alone, so spec
 *   resolution can refuse a bad request before a job is queued;
 * - `check` options against things outside the step (a named estimator exists);
 * - `resample` the training rows (and target) instead of transforming columns —
 *   only ever at fit time; its `apply` is the identity, so evaluation and
 *   prediction rows are never resampled;
 * - `fitTransform` the training rows differently from later rows (target_encode
 *   cross-fits them so that no row is encoded with its own target).
 */
import type { z } from "zod";
import type { Frame } from "../data/frame.js";
import type { Rng } from "../data/random.js";
import { transforms } from "../data/transforms/index.js";
import type { PlannedColumn } from "../data/transforms/transform.js";
import type { Target } from "../models/contract.js";
import { ldaProjectionStep } from "./steps/lda-projection.js";
import { mdsStep } from "./steps/mds.js";
import { ncaStep } from "./steps/nca.js";
import { lmnnStep } from "./steps/lmnn.js";
import { pcaStep } from "./steps/pca.js";
import { rbmStep } from "./steps/rbm.js";
import { resampleStep } from "./steps/resample.js";
import { selectStep } from "./steps/select.js";
import { targetEncodeStep } from "./steps/target-encode.js";
import type { PlannedTarget, StepIssue, TypedStep } from "./steps/typed-step.js";

export type { PlannedColumn } from "../data/transforms/transform.js";
export type { PlannedTarget, StepIssue } from "./steps/typed-step.js";

export interface StepContext {
  target: Target | null;
  rng: Rng;
  /** Long steps (wrapper selection) check it between fits. */
  signal?: import("../models/contract.js").AbortFlag;
}

export interface PipelineStep {
  readonly spec: z.ZodType;
  readonly fitted: z.ZodType;
  readonly description?: string;
  fit(frame: Frame, spec: unknown, ctx: StepContext): unknown;
  apply(fitted: unknown, frame: Frame): Frame;
  describe?(fitted: unknown): Record<string, unknown>;
  plan?(spec: unknown, columns: readonly PlannedColumn[], target: PlannedTarget | null): PlannedColumn[] | null;
  check?(spec: unknown): StepIssue | null;
  resample?(frame: Frame, target: Target | null, spec: unknown, ctx: StepContext): { frame: Frame; target: Target | null; fitted: unknown; rows: Int32Array };
  fitTransform?(frame: Frame, spec: unknown, ctx: StepContext): { fitted: unknown; frame: Frame };
}

const registry: Record<string, PipelineStep> = Object.create(null);
for (const [name, t] of transforms) {
  registry[name] = {
    spec: t.spec,
    fitted: t.fitted,
    description: t.description,
    fit: (frame, spec) => t.fit(frame, spec),
    apply: (fitted, frame) => t.apply(fitted, frame),
    ...(t.describe ? { describe: (fitted: unknown) => t.describe!(fitted) } : {}),
    ...(t.plan ? { plan: (spec: unknown, columns: readonly PlannedColumn[]) => t.plan!(spec, columns) } : {}),
  };
}
const steps: readonly TypedStep<never, never>[] = [pcaStep, ldaProjectionStep, mdsStep, ncaStep, lmnnStep, selectStep, resampleStep, targetEncodeStep, rbmStep] as unknown as TypedStep<never, never>[];
for (const s of steps) registry[s.name] = s as unknown as PipelineStep;

export const STEP_REGISTRY: Readonly<Record<string, PipelineStep>> = registry;

/** Every step with its description and options schema (for GET /v1/algorithms-style listings and the OpenAPI document). */
export function listSteps(): { name: string; description: string; spec: z.ZodType }[] {
  return Object.keys(registry)
    .sort()
    .map((name) => ({ name, description: registry[name].description ?? "", spec: registry[name].spec }));
}
