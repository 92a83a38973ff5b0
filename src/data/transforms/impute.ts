/**
 * Fills missing cells with a value learned from the training rows:
 * numeric columns by mean, median or a constant; categorical ones by the most
 * frequent level or a constant level. After apply, the touched columns have no
 * missing cells; a category unseen in training counts as missing and is filled too.
 *
 * A column with no value in the training rows: numeric → 0 (or numeric_fill_value
 * with the constant strategy); categorical → its first level, or
 * categorical_fill_value when it has no levels at all (or with the constant strategy).
 *
 * add_indicator (scikit-learn's name) puts a 0/1 column `<column>_missing` right
 * after each column that had missing cells in the training rows (only those, as
 * scikit-learn's features="missing-only"), 1 where the cell was missing (or, for a
 * categorical column, held a level unseen in training).
 */
import { z } from "zod";
import { MISSING_CODE, sortLevels, type Column, type Frame } from "../frame.js";
import { byColumn, checkNewNames, expectColumn, pickColumns, replaceColumns, targetColumns, type Transform } from "./transform.js";

const STEP = "impute";

export const imputeSpec = z
  .object({
    /** Default: every column. */
    columns: z.array(z.string()).optional(),
    numeric_strategy: z.enum(["mean", "median", "constant"]).default("mean"),
    categorical_strategy: z.enum(["most_frequent", "constant"]).default("most_frequent"),
    numeric_fill_value: z.number().default(0),
    categorical_fill_value: z.string().min(1).default("missing"),
    add_indicator: z.boolean().default(false),
  })
  .strict();

export const imputeFitted = z
  .object({
    columns: z.array(
      z.discriminatedUnion("type", [
        z.object({ name: z.string(), type: z.literal("numeric"), value: z.number(), indicator: z.boolean().default(false) }).strict(),
        z
          .object({
            name: z.string(),
            type: z.literal("categorical"),
            levels: z.array(z.string()),
            fill: z.number().int().min(0),
            indicator: z.boolean().default(false),
          })
          .strict()
          .refine((c) => c.fill < c.levels.length, { message: "fill must index one of the levels" }),
      ]),
    ),
  })
  .strict();

export type ImputeSpec = z.infer<typeof imputeSpec>;
export type ImputeFitted = z.infer<typeof imputeFitted>;
type FittedColumn = ImputeFitted["columns"][number];
type FittedValue = Omit<Extract<FittedColumn, { type: "numeric" }>, "indicator"> | Omit<Extract<FittedColumn, { type: "categorical" }>, "indicator">;

export const impute: Transform<ImputeSpec, ImputeFitted> = {
  name: STEP,
  description: "Fill missing values: mean, median or constant for numeric columns; most frequent level or constant for categorical ones.",
  spec: imputeSpec,
  fitted: imputeFitted,

  fit(frame, spec) {
    const columns = targetColumns(frame, spec.columns, ["numeric", "categorical"], STEP).map((c) => {
      const fitted = c.type === "numeric" ? fitNumeric(c.name, c.values, spec) : fitCategorical(c.name, c.codes, c.levels, spec);
      return { ...fitted, indicator: spec.add_indicator && countMissing(c) > 0 };
    });
    checkNewNames(
      frame.columns.map((c) => c.name),
      columns.filter((c) => c.indicator).map((c) => indicatorName(c.name)),
      STEP,
      "add_indicator",
    );
    return { columns };
  },

  apply(fitted, frame) {
    const replacements = new Map<string, Column[]>();
    for (const f of fitted.columns) {
      const filled = applyColumn(f, frame);
      replacements.set(f.name, f.indicator ? [filled, indicatorColumn(f, frame)] : [filled]);
    }
    return replaceColumns(frame, replacements);
  },

  describe(fitted) {
    const numeric = fitted.columns.filter((c) => c.type === "numeric");
    const categorical = fitted.columns.filter((c) => c.type === "categorical");
    return {
      fill_values: {
        ...byColumn(
          numeric.map((c) => c.name),
          numeric.map((c) => c.value),
        ),
        ...Object.fromEntries(categorical.map((c) => [c.name, c.levels[c.fill]])),
      },
      indicator_columns: fitted.columns.filter((c) => c.indicator).map((c) => indicatorName(c.name)),
    };
  },

  plan(spec, columns) {
    pickColumns(columns, spec.columns, ["numeric", "categorical"], STEP);
    // Which columns get an indicator depends on the training rows of each fit.
    return spec.add_indicator ? null : [...columns];
  },
};

export function indicatorName(column: string): string {
  return `${column}_missing`;
}

function countMissing(c: Column): number {
  let k = 0;
  if (c.type === "numeric") for (const v of c.values) k += Number.isNaN(v) ? 1 : 0;
  else for (const code of c.codes) k += code === MISSING_CODE ? 1 : 0;
  return k;
}

function indicatorColumn(f: FittedColumn, frame: Frame): Column {
  const c = expectColumn(frame, f.name, f.type, STEP);
  const values = new Float64Array(frame.rowCount);
  if (c.type === "numeric") {
    for (let i = 0; i < values.length; i++) values[i] = Number.isNaN(c.values[i]) ? 1 : 0;
  } else if (f.type === "categorical") {
    const known = new Set(f.levels);
    const unseen = Uint8Array.from(c.levels, (level) => (known.has(level) ? 0 : 1));
    for (let i = 0; i < values.length; i++) values[i] = c.codes[i] === MISSING_CODE || unseen[c.codes[i]] === 1 ? 1 : 0;
  }
  return { type: "numeric", name: indicatorName(f.name), values };
}

function fitNumeric(name: string, values: Float64Array, spec: ImputeSpec): FittedValue {
  if (spec.numeric_strategy === "constant") return { name, type: "numeric", value: spec.numeric_fill_value };
  const present = values.filter((x) => !Number.isNaN(x));
  if (present.length === 0) return { name, type: "numeric", value: 0 };
  if (spec.numeric_strategy === "median") {
    present.sort();
    const mid = present.length >> 1;
    const median = present.length % 2 === 1 ? present[mid] : (present[mid - 1] + present[mid]) / 2;
    return { name, type: "numeric", value: median };
  }
  let sum = 0;
  for (const x of present) sum += x;
  const mean = sum / present.length;
  // An overflowing sum (values near ±1.8e308) must not put Infinity into an artifact.
  return { name, type: "numeric", value: Number.isFinite(mean) ? mean : present.reduce((m, x) => m + x / present.length, 0) };
}

function fitCategorical(name: string, codes: Int32Array, levels: readonly string[], spec: ImputeSpec): FittedValue {
  const constant = spec.categorical_fill_value;
  if (spec.categorical_strategy === "most_frequent") {
    const counts = new Float64Array(levels.length);
    for (const code of codes) if (code !== MISSING_CODE) counts[code]++;
    let best = -1;
    for (let k = 0; k < counts.length; k++) if (counts[k] > 0 && (best < 0 || counts[k] > counts[best])) best = k;
    if (best >= 0) return { name, type: "categorical", levels: [...levels], fill: best };
    if (levels.length > 0) return { name, type: "categorical", levels: [...levels], fill: 0 };
  }
  const index = levels.indexOf(constant);
  if (index >= 0) return { name, type: "categorical", levels: [...levels], fill: index };
  const extended = sortLevels([...levels, constant]);
  return { name, type: "categorical", levels: extended, fill: extended.indexOf(constant) };
}

function applyColumn(f: FittedColumn, frame: Frame): Column {
  if (f.type === "numeric") {
    const c = expectColumn(frame, f.name, "numeric", STEP);
    if (c.type !== "numeric") throw new Error("unreachable");
    const values = new Float64Array(c.values);
    for (let i = 0; i < values.length; i++) if (Number.isNaN(values[i])) values[i] = f.value;
    return { type: "numeric", name: f.name, values };
  }
  const c = expectColumn(frame, f.name, "categorical", STEP);
  if (c.type !== "categorical") throw new Error("unreachable");
  // Codes are translated through level text: the frame may carry other levels than the training frame.
  const position = new Map(f.levels.map((level, k) => [level, k]));
  const translate = Int32Array.from(c.levels, (level) => position.get(level) ?? f.fill);
  const codes = new Int32Array(c.codes.length);
  for (let i = 0; i < codes.length; i++) codes[i] = c.codes[i] === MISSING_CODE ? f.fill : translate[c.codes[i]];
  return { type: "categorical", name: f.name, codes, levels: f.levels };
}
