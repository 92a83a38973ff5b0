/** Parameter declarations shared by the ensembles (scikit-learn names where it has the concept). */
import { z } from "zod";
import { MAX_FEATURE_COUNT } from "../limits.js";
import { groupDigits } from "../../data/group-digits.js";

export const ENSEMBLE_FAMILY = "ensemble";

/** A nested learner: checked against the registry by members.ts checkLearner. */
export const learnerSpec = z
  .object({
    algorithm: z.string().min(1).max(100).describe("A learner of GET /v1/algorithms (not an ensemble)."),
    params: z.record(z.string(), z.unknown()).default({}).describe("Its params, checked with its own schema."),
  })
  .strict();
export type LearnerSpec = z.infer<typeof learnerSpec>;

/**
 * Most members one ensemble may hold: each is a fitted model kept in the artifact and
 * walked on every predict, so the count sizes memory, fit time and predict time alike.
 */
export const MAX_ESTIMATORS = 5000;

/** AdaBoost's step (adaboost, easy_ensemble): larger steps only shrink every round's α the other way; beyond this the first round decides everything. */
export const MAX_LEARNING_RATE = 100;

/** Different learners in one voting or stacking ensemble: each is a full fit on all the rows (stacking: cv + 1 fits). */
export const MAX_VOTERS = 100;

export function nEstimatorsParam(fallback: number, what: string) {
  return z
    .int()
    .min(1)
    .max(MAX_ESTIMATORS)
    .default(fallback)
    .describe(`${what} At most ${groupDigits(MAX_ESTIMATORS)}: each is kept in the artifact and evaluated on every prediction.`);
}

/**
 * Features a node (random forest) or a member (bagging) may look at: a rule or a
 * count under one name, a fraction under another (DESIGN.md: one name, one meaning).
 */
export const maxFeaturesParams = {
  max_features: z
    .union([z.enum(["sqrt", "log2", "all"]), z.int().min(1).max(MAX_FEATURE_COUNT)])
    .nullable()
    .default(null)
    .describe(`How many features to draw: "sqrt" / "log2" of the feature count, "all", or a count (a count above the feature count means all). null: the algorithm's default, or max_features_fraction when that is set. At most ${groupDigits(MAX_FEATURE_COUNT)}.`),
  max_features_fraction: z
    .number()
    .gt(0)
    .max(1)
    .nullable()
    .default(null)
    .describe("The same as a share of the features (at least one is drawn); only when max_features is null."),
};

export type MaxFeaturesRule = "sqrt" | "log2" | "all" | number;

/** Feature count a rule gives for d features; `fallback` when neither parameter is set. */
export function featureCount(p: { max_features: MaxFeaturesRule | null; max_features_fraction: number | null }, d: number, fallback: MaxFeaturesRule): number {
  const rule = p.max_features ?? (p.max_features_fraction !== null ? null : fallback);
  if (rule === null) return Math.max(1, Math.min(d, Math.floor((p.max_features_fraction as number) * d)));
  if (rule === "all") return d;
  if (rule === "sqrt") return Math.max(1, Math.floor(Math.sqrt(d)));
  if (rule === "log2") return Math.max(1, Math.floor(Math.log2(d)));
  return Math.max(1, Math.min(d, rule));
}

/** Refinement: the two spellings are exclusive. */
export function checkMaxFeatures(p: { max_features: unknown; max_features_fraction: unknown }, ctx: z.RefinementCtx): void {
  if (p.max_features !== null && p.max_features_fraction !== null) {
    ctx.addIssue({ code: "custom", path: ["max_features_fraction"], message: "give max_features or max_features_fraction, not both" });
  }
}

export const maxSamplesParam = z
  .number()
  .gt(0)
  .max(1)
  .default(1)
  .describe("Rows drawn for each member, as a share of the training rows (with replacement when bootstrap is true). At most 1.");
