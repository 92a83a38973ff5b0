/**
 * The validation schemes a train or evaluation request may ask for, as one zod
 * union, and the seeded splits each one means. API.md fixes holdout, kfold,
 * bootstrap and none; loo and five_by_two are the seeds' other schemes, and
 * kfold takes `repeats` for repeated k-fold.
 */
import { z } from "zod";
import { bootstrap, fiveByTwo, holdout, leaveOneOut, repeatedKfold, type Split } from "../data/split.js";
import type { Rng } from "../data/random.js";

/** Points of a learning or validation curve: each is k fits. */
export const MAX_CURVE_POINTS = 50;
/** Folds of a curve's cross-validation (points × folds fits in all). */
export const MAX_CURVE_FOLDS = 20;

export const validationSchema = z.discriminatedUnion("method", [
  z
    .object({
      method: z.literal("holdout"),
      test_size: z.number().gt(0).lt(1).default(0.25).describe("Share of rows held out for testing, in (0, 1)."),
      stratify: z.boolean().default(true).describe("Keep class proportions in both parts (classification only)."),
    })
    .strict(),
  z
    .object({
      method: z.literal("kfold"),
      k: z.number().int().min(2).max(1000).default(5),
      stratify: z.boolean().default(true),
      repeats: z.number().int().min(1).max(100).default(1).describe("Repeated k-fold: this many independent partitions."),
    })
    .strict(),
  z.object({ method: z.literal("loo") }).strict().describe("Leave-one-out: n folds of one test row each."),
  z
    .object({
      method: z.literal("bootstrap"),
      rounds: z.number().int().min(1).max(1000).default(50),
    })
    .strict()
    .describe("Out-of-bag rows are each round's test set; the .632 estimate is reported too."),
  z.object({ method: z.literal("five_by_two"), stratify: z.boolean().default(true) }).strict().describe("5 × 2-fold cross-validation (Dietterich)."),
  z.object({ method: z.literal("none") }).strict(),
  z
    .object({
      method: z.literal("learning_curve"),
      train_sizes: z
        .array(z.number().gt(0).max(1))
        .min(1)
        .max(MAX_CURVE_POINTS)
        .default([0.1, 0.325, 0.55, 0.775, 1])
        .describe(`Shares of each fold's training part to fit on, in (0, 1] (scikit-learn's default five); at most ${MAX_CURVE_POINTS}.`),
      k: z.number().int().min(2).max(MAX_CURVE_FOLDS).default(5),
      stratify: z.boolean().default(true),
    })
    .strict()
    .describe("Evaluations only: k-fold, and in each fold fits on growing, nested, seeded subsets of the training part; each size's validation and training scores (the seed's training error against generalisation error)."),
  z
    .object({
      method: z.literal("validation_curve"),
      param: z.string().min(1).describe("The parameter to vary (one of the algorithm's)."),
      values: z.array(z.unknown()).min(1).max(MAX_CURVE_POINTS).describe(`Its values, each validated as the parameter; at most ${MAX_CURVE_POINTS}.`),
      k: z.number().int().min(2).max(MAX_CURVE_FOLDS).default(5),
      stratify: z.boolean().default(true),
    })
    .strict()
    .describe("Evaluations only: the same k folds for every value of one parameter; each value's validation and training scores."),
  z
    .object({
      method: z.literal("bias_variance"),
      rounds: z.number().int().min(2).max(500).default(30),
      test_size: z.number().gt(0).lt(1).default(0.25),
    })
    .strict()
    .describe("Evaluations of regression only: `rounds` models on bootstrap samples of the training part, scored on a held-out part; reports bias², variance and noise."),
]);

export type Validation = z.infer<typeof validationSchema>;

export function defaultValidation(task: string): Validation {
  return task === "classification" || task === "regression" ? { method: "holdout", test_size: 0.25, stratify: task === "classification" } : { method: "none" };
}

/** The splits a scheme means for n rows (strata: class codes when stratifying). */
export function plan(v: Validation, n: number, strata: Int32Array | undefined, rng: Rng): Split[] {
  switch (v.method) {
    case "holdout":
      return [holdout(n, { testSize: v.test_size, stratify: v.stratify ? strata : undefined }, rng)];
    case "kfold":
      return repeatedKfold(n, { k: v.k, repeats: v.repeats, stratify: v.stratify ? strata : undefined }, rng);
    case "loo":
      return leaveOneOut(n);
    case "bootstrap":
      return bootstrap(n, v.rounds, rng);
    case "five_by_two":
      return fiveByTwo(n, { stratify: v.stratify ? strata : undefined }, rng);
    case "learning_curve":
    case "validation_curve":
      return repeatedKfold(n, { k: v.k, repeats: 1, stratify: v.stratify ? strata : undefined }, rng);
    case "none":
    case "bias_variance":
      return [];
  }
}

/** Schemes whose held-out predictions cover every row exactly once (per repetition): they pool into one confusion matrix. */
export function pools(v: Validation): boolean {
  return v.method === "kfold" || v.method === "loo" || v.method === "five_by_two";
}
