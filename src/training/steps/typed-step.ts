/**
 * The shape of a step in this folder, typed by its spec and fitted state (the
 * registry in ../steps.ts sees it as a PipelineStep over `unknown`).
 */
import type { z } from "zod";
import type { Frame } from "../../data/frame.js";
import type { Rng } from "../../data/random.js";
import type { PlannedColumn } from "../../data/transforms/transform.js";
import type { Target } from "../../models/contract.js";

/** The target as known before fitting (from the dataset's metadata). */
export interface PlannedTarget {
  readonly type: "numeric" | "categorical";
  readonly levels?: readonly string[];
}

/** A problem with a step's options found before fitting: message and path relative to the step. */
export interface StepIssue {
  readonly message: string;
  readonly path: string;
}

export interface TypedStepContext {
  readonly target: Target | null;
  readonly rng: Rng;
  readonly signal?: import("../../models/contract.js").AbortFlag;
}

export interface TypedStep<Spec, Fitted> {
  readonly name: string;
  readonly description: string;
  readonly spec: z.ZodType<Spec>;
  readonly fitted: z.ZodType<Fitted>;
  fit(frame: Frame, spec: Spec, ctx: TypedStepContext): Fitted;
  apply(fitted: Fitted, frame: Frame): Frame;
  describe?(fitted: Fitted): Record<string, unknown>;
  plan?(spec: Spec, columns: readonly PlannedColumn[], target: PlannedTarget | null): PlannedColumn[] | null;
  check?(spec: Spec): StepIssue | null;
  resample?(frame: Frame, target: Target | null, spec: Spec, ctx: TypedStepContext): { frame: Frame; target: Target | null; fitted: Fitted; rows: Int32Array };
  /** Fit and transform the training rows in one go when they must be transformed otherwise than later rows (cross-fitting). */
  fitTransform?(frame: Frame, spec: Spec, ctx: TypedStepContext): { fitted: Fitted; frame: Frame };
}
