/**
 * The `target_encode` step: replaces each chosen categorical column by the
 * smoothed mean of the target per level (data/target-encoding.ts), as
 * scikit-learn's TargetEncoder does — one numeric column for a numeric or
 * two-class target (the rate of the second class), one per class otherwise,
 * named column[class]. For very many levels it costs one column where one_hot
 * costs one per level.
 *
 * The training rows are cross-fitted: they are dealt into `cv` seeded folds
 * (stratified by class for a categorical target) and each fold is encoded from
 * the others, so no training row sees its own target and the learner after the
 * step is not fitted on a leak. The fitted state holds the encodings from all
 * training rows: those are what evaluation and prediction rows get. A missing
 * cell is a level of its own, as in scikit-learn; a level never seen in training
 * gets the target mean.
 */
import { z } from "zod";
import { DataError } from "../../data/errors.js";
import { MISSING_CODE, type Column, type Frame } from "../../data/frame.js";
import { kfold } from "../../data/split.js";
import { crossFittedEncodings, levelEncodings } from "../../data/target-encoding.js";
import { checkNewNames, expectColumn, pickColumns, replaceColumns, replacePlannedChecked, type PlannedColumn } from "../../data/transforms/transform.js";
import type { Target } from "../../models/contract.js";
import { f64 } from "../../models/state-schemas.js";
import type { TypedStep } from "./typed-step.js";

const STEP = "target_encode";
const MAX_SMOOTH = 1e9;
const MAX_FOLDS = 20;

export const targetEncodeSpec = z
  .object({
    /** Default: every categorical column. */
    columns: z.array(z.string()).optional(),
    smooth: z
      .union([z.literal("auto"), z.number().min(0).max(MAX_SMOOTH)])
      .default("auto")
      .describe(`Shrinkage towards the target mean: "auto" (empirical Bayes, from the within-level and overall variances) or m ≥ 0, giving (Σy + m·mean)/(count + m). At most ${MAX_SMOOTH}.`),
    cv: z
      .int()
      .min(2)
      .max(MAX_FOLDS)
      .default(5)
      .describe(`Folds of the cross-fitting that encodes the training rows (seeded; stratified by class for a categorical target). At most ${MAX_FOLDS}.`),
  })
  .strict();

const encodedColumn = z
  .object({
    name: z.string(),
    /** Levels seen in training; category index k is levels[k], and levels.length is a missing cell. */
    levels: z.array(z.string()),
    /** (levels.length + 1) × outputs, row-major. */
    encodings: f64,
  })
  .strict();

export const targetEncodeFitted = z
  .object({
    columns: z.array(encodedColumn),
    /** Class names of a target with more than two classes (one output each); null: one output. */
    classes: z.array(z.string()).nullable(),
    /** Per output: the training mean, which unseen levels get. */
    target_mean: f64,
  })
  .strict()
  .superRefine((f, ctx) => {
    const outputs = f.classes ? f.classes.length : 1;
    if (f.target_mean.length !== outputs) ctx.addIssue({ code: "custom", message: "target_mean needs one value per output", path: ["target_mean"] });
    f.columns.forEach((c, j) => {
      if (c.encodings.length !== (c.levels.length + 1) * outputs) ctx.addIssue({ code: "custom", message: "encodings do not match the levels and outputs", path: ["columns", j, "encodings"] });
    });
  });

export type TargetEncodeSpec = z.infer<typeof targetEncodeSpec>;
export type TargetEncodeFitted = z.infer<typeof targetEncodeFitted>;

/** The 0/1 or numeric series each output encodes, and the class names when there is more than one output. */
function outputsOf(target: Target | null, n: number): { outputs: Float64Array[]; classes: string[] | null; stratify?: Int32Array } {
  if (!target) throw new DataError(`${STEP} encodes levels by the target: it needs a target`, "step");
  if (target.y.length !== n) throw new Error("target and frame rows differ");
  if (target.task === "regression") {
    for (const v of target.y) if (!Number.isFinite(v)) throw new DataError(`${STEP}: the target has missing values`, "step");
    return { outputs: [Float64Array.from(target.y)], classes: null };
  }
  const K = target.classes.length;
  const indicator = (k: number) => Float64Array.from(target.y, (c) => (c === k ? 1 : 0));
  if (K <= 2) return { outputs: [indicator(1)], classes: null, stratify: target.y };
  return { outputs: target.classes.map((_, k) => indicator(k)), classes: [...target.classes], stratify: target.y };
}

function outputNames(column: string, classes: readonly string[] | null): string[] {
  return classes ? classes.map((c) => `${column}[${c}]`) : [column];
}

/** Per row, the category index of each level seen in training; missing cells are levels.length; an unseen level is −1. */
function categoryCodes(c: Extract<Column, { type: "categorical" }>, levels: readonly string[]): Int32Array {
  const position = new Map(levels.map((level, k) => [level, k]));
  const translate = Int32Array.from(c.levels, (level) => position.get(level) ?? -1);
  return Int32Array.from(c.codes, (code) => (code === MISSING_CODE ? levels.length : translate[code]));
}

function encodedFrame(frame: Frame, fitted: TargetEncodeFitted, values: (j: number, codes: Int32Array) => Float64Array[]): Frame {
  const replacements = new Map<string, Column[]>();
  fitted.columns.forEach((f, j) => {
    const c = expectColumn(frame, f.name, "categorical", STEP);
    if (c.type !== "categorical") throw new Error("unreachable");
    const columns = values(j, categoryCodes(c, f.levels));
    replacements.set(
      f.name,
      outputNames(f.name, fitted.classes).map((name, o): Column => ({ type: "numeric", name, values: columns[o] })),
    );
  });
  return replaceColumns(frame, replacements);
}

function fitAll(frame: Frame, spec: TargetEncodeSpec, target: Target | null) {
  const n = frame.rowCount;
  const { outputs, classes, stratify } = outputsOf(target, n);
  const chosen = pickColumns(frame.columns, spec.columns, ["categorical"], STEP);
  const encoded = new Set(chosen.map((c) => c.name));
  checkNewNames(
    frame.columns.filter((c) => !encoded.has(c.name)).map((c) => c.name),
    chosen.flatMap((c) => outputNames(c.name, classes)),
    STEP,
    "columns",
  );
  const target_mean = new Float64Array(outputs.length);
  const columns = chosen.map((c) => {
    if (c.type !== "categorical") throw new Error("unreachable");
    const seen = new Uint8Array(c.levels.length);
    for (const code of c.codes) if (code !== MISSING_CODE) seen[code] = 1;
    const levels = c.levels.filter((_, k) => seen[k] === 1);
    const codes = categoryCodes(c, levels);
    const categories = levels.length + 1;
    const encodings = new Float64Array(categories * outputs.length);
    outputs.forEach((y, o) => {
      const { encodings: e, mean } = levelEncodings(codes, categories, y, null, spec.smooth);
      for (let k = 0; k < categories; k++) encodings[k * outputs.length + o] = e[k];
      target_mean[o] = mean;
    });
    return { name: c.name, levels, encodings, codes };
  });
  return { fitted: { columns: columns.map(({ codes: _codes, ...c }) => c), classes, target_mean }, codes: columns.map((c) => c.codes), outputs, stratify };
}

export const targetEncodeStep: TypedStep<TargetEncodeSpec, TargetEncodeFitted> = {
  name: STEP,
  description:
    "Replace each categorical column by the smoothed target mean per level (scikit-learn's TargetEncoder): one column for a numeric or two-class target, one per class otherwise. Training rows are cross-fitted in seeded folds, so none is encoded with its own target.",
  spec: targetEncodeSpec,
  fitted: targetEncodeFitted,

  fit: (frame, spec, ctx) => fitAll(frame, spec, ctx.target).fitted,

  fitTransform(frame, spec, ctx) {
    const { fitted, codes, outputs, stratify } = fitAll(frame, spec, ctx.target);
    const n = frame.rowCount;
    if (n < spec.cv) throw new DataError(`${STEP}: cv = ${spec.cv} folds need at least ${spec.cv} training rows, and there are ${n}`, "cv");
    const folds = kfold(n, { k: spec.cv, stratify }, ctx.rng).map((s) => s.test);
    const out = encodedFrame(frame, fitted, (j) => crossFittedEncodings(codes[j], fitted.columns[j].levels.length + 1, outputs, folds, spec.smooth));
    return { fitted, frame: out };
  },

  apply(fitted, frame) {
    const outputs = fitted.target_mean.length;
    return encodedFrame(frame, fitted, (j, codes) => {
      const { encodings } = fitted.columns[j];
      return Array.from({ length: outputs }, (_, o) => Float64Array.from(codes, (k) => (k >= 0 ? encodings[k * outputs + o] : fitted.target_mean[o])));
    });
  },

  describe(fitted) {
    const outputs = fitted.target_mean.length;
    return {
      classes: fitted.classes,
      target_mean: Array.from(fitted.target_mean),
      encodings: Object.fromEntries(
        fitted.columns.map((c) => [
          c.name,
          Object.fromEntries(c.levels.map((level, k) => [level, outputs === 1 ? c.encodings[k] : Array.from(c.encodings.subarray(k * outputs, (k + 1) * outputs))])),
        ]),
      ),
    };
  },

  /** One numeric column per encoded column, or one per class (the dataset's levels: an upper bound for a fold). */
  plan(spec, columns, target) {
    const chosen = pickColumns(columns, spec.columns, ["categorical"], STEP);
    const classes = target?.type === "categorical" && (target.levels?.length ?? 0) > 2 ? target.levels! : null;
    if (target?.type === "categorical" && !target.levels) return null;
    const replacements = new Map<string, PlannedColumn[]>();
    for (const c of chosen) replacements.set(c.name, outputNames(c.name, classes).map((name): PlannedColumn => ({ name, type: "numeric", missing: 0 })));
    return replacePlannedChecked(columns, replacements, STEP);
  },
};
