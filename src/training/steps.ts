/**
 * The preprocessing step registry as the pipeline sees it: every data/
 * transform (unsupervised, ignores the target), and later the supervised
 * steps (models/ projections such as LDA, wrapper selectors such as RFE/LVW)
 * that need the target and the seeded generator.
 */
import type { z } from "zod";
import type { Frame } from "../data/frame.js";
import type { Rng } from "../data/random.js";
import { transforms } from "../data/transforms/index.js";
import type { Target } from "../models/contract.js";

export interface StepContext {
  target: Target | null;
  rng: Rng;
}

export interface PipelineStep {
  readonly spec: z.ZodType;
  readonly fitted: z.ZodType;
  fit(frame: Frame, spec: unknown, ctx: StepContext): unknown;
  apply(fitted: unknown, frame: Frame): Frame;
}

const registry: Record<string, PipelineStep> = Object.create(null);
for (const [name, t] of transforms) {
  registry[name] = { spec: t.spec, fitted: t.fitted, fit: (frame, spec) => t.fit(frame, spec), apply: (fitted, frame) => t.apply(fitted, frame) };
}

export const STEP_REGISTRY: Readonly<Record<string, PipelineStep>> = registry;
