/**
 * The `resample` step: rebalances the classes of the training rows (random
 * undersampling, random oversampling, SMOTE — data/resample.ts). It changes
 * rows and the target, so the pipeline calls `resample` at fit time only; `apply`
 * is the identity, so validation, evaluation and prediction rows are never
 * resampled. The fitted state records the class counts before and after.
 */
import { z } from "zod";
import { DataError } from "../../data/errors.js";
import { resample, resampledCounts } from "../../data/resample.js";
import type { Target } from "../../models/contract.js";
import type { TypedStep } from "./typed-step.js";

const STEP = "resample";

export const resampleSpec = z
  .object({
    method: z.enum(["undersample", "oversample", "smote"]).default("oversample"),
    /** Minority / majority class size after resampling, in (0, 1]; 1 balances the classes. */
    ratio: z.number().gt(0).max(1).default(1),
    /** smote: the k nearest same-class neighbours a synthetic row is drawn towards. */
    k_neighbors: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(5)
      .describe("smote: the k nearest same-class neighbours a synthetic row is drawn towards. At most 100: every row keeps k neighbours, and interpolating towards more than a handful only blurs the class."),
  })
  .strict();

export const resampleFitted = z
  .object({
    method: z.enum(["undersample", "oversample", "smote"]),
    classes: z.array(z.string()),
    counts_before: z.array(z.number().int().min(0)),
    counts_after: z.array(z.number().int().min(0)),
  })
  .strict();

export type ResampleSpec = z.infer<typeof resampleSpec>;
export type ResampleFitted = z.infer<typeof resampleFitted>;

function classTarget(target: Target | null): Extract<Target, { task: "classification" }> {
  if (target?.task !== "classification") throw new DataError(`${STEP} balances classes: it needs a categorical target`, "step");
  return target;
}

function counts(y: Int32Array, classes: number): number[] {
  const out = new Array<number>(classes).fill(0);
  for (const c of y) if (c >= 0) out[c]++;
  return out;
}

export const resampleStep: TypedStep<ResampleSpec, ResampleFitted> = {
  name: STEP,
  description: "Rebalance the classes of the training rows (never evaluation or prediction rows): random undersampling, random oversampling or SMOTE, to a minority/majority ratio.",
  spec: resampleSpec,
  fitted: resampleFitted,

  /** The counts resampling would give, without resampling (the pipeline calls `resample`). */
  fit(_frame, spec, ctx) {
    const t = classTarget(ctx.target);
    const before = counts(t.y, t.classes.length);
    return { method: spec.method, classes: [...t.classes], counts_before: before, counts_after: resampledCounts(before, spec.method, spec.ratio) };
  },

  apply: (_fitted, frame) => frame,

  resample(frame, target, spec, ctx) {
    const t = classTarget(target);
    const out = resample(frame, t.y, t.classes.length, { method: spec.method, ratio: spec.ratio, neighbours: spec.k_neighbors, rng: ctx.rng });
    return {
      frame: out.frame,
      target: { task: "classification", y: out.y, classes: t.classes },
      rows: out.source,
      fitted: { method: spec.method, classes: [...t.classes], counts_before: counts(t.y, t.classes.length), counts_after: counts(out.y, t.classes.length) },
    };
  },

  describe: (fitted) => ({
    method: fitted.method,
    class_counts_before: Object.fromEntries(fitted.classes.map((c, k) => [c, fitted.counts_before[k]])),
    class_counts_after: Object.fromEntries(fitted.classes.map((c, k) => [c, fitted.counts_after[k]])),
  }),

  plan(_spec, columns, target) {
    if (target && target.type !== "categorical") throw new DataError(`${STEP} balances classes: it needs a categorical target`, "step");
    return [...columns];
  },
};
