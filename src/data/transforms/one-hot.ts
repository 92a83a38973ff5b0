/**
 * One-hot encoding: each categorical column becomes one numeric 0/1 column per
 * level seen in the training rows, named `column=level`, standing where the
 * original stood. A missing cell, or a level not seen in training, is all zeros.
 * A column with no value at all in the training rows therefore yields no columns.
 *
 * Rare levels can share one column, `column=(infrequent)`, placed after the
 * column's other levels, as scikit-learn's OneHotEncoder does: a level seen in
 * fewer training rows than `min_frequency` (or than `min_frequency_fraction` of
 * them) is infrequent, and with `max_categories` only the max_categories − 1 most
 * frequent levels keep their own column (ties go to the level later in code-point
 * order, as scikit-learn's stable sort of its sorted categories does). A level
 * never seen in training is all zeros, or counts as infrequent with
 * `handle_unknown: "infrequent_if_exist"` when the column has such a group.
 */
import { z } from "zod";
import { DataError } from "../errors.js";
import { MISSING_CODE, type Column } from "../frame.js";
import { indicatorColumns } from "../indicator-columns.js";
import { expectColumn, pickColumns, replaceColumns, replacePlannedChecked, targetColumns, type PlannedColumn, type Transform } from "./transform.js";
import { groupDigits } from "../group-digits.js";

const STEP = "one_hot";

/** More output columns per input column than a table the service can hold has columns. */
const MAX_CATEGORIES = 100_000;

export const oneHotSpec = z
  .object({
    /** Default: every categorical column. */
    columns: z.array(z.string()).optional(),
    min_frequency: z
      .int()
      .min(1)
      .max(1_000_000_000)
      .nullable()
      .default(null)
      .describe("Levels seen in fewer training rows than this share one column, column=(infrequent). null: no threshold by count."),
    min_frequency_fraction: z
      .number()
      .gt(0)
      .lt(1)
      .nullable()
      .default(null)
      .describe("Levels seen in fewer than this share of the training rows share one column, column=(infrequent). null: no threshold by share. Not with min_frequency."),
    max_categories: z
      .int()
      .min(1)
      .max(MAX_CATEGORIES)
      .nullable()
      .default(null)
      .describe(`At most this many output columns per encoded column, the infrequent column included: the max_categories − 1 most frequent levels keep their own. null: no limit. At most ${groupDigits(MAX_CATEGORIES)}.`),
    handle_unknown: z
      .enum(["ignore", "infrequent_if_exist"])
      .default("ignore")
      .describe('A level not seen in training: all zeros ("ignore"), or the infrequent column when the column has one ("infrequent_if_exist").'),
  })
  .strict()
  .refine((s) => s.min_frequency === null || s.min_frequency_fraction === null, {
    message: "give min_frequency (a row count) or min_frequency_fraction (a share of the rows), not both",
    path: ["min_frequency_fraction"],
  });

export const oneHotFitted = z
  .object({
    columns: z.array(
      z
        .object({
          name: z.string(),
          /** The levels with a column of their own, in output order. */
          levels: z.array(z.string()),
          /** The levels sharing column=(infrequent), after the others; empty: no such column. */
          infrequent: z.array(z.string()).default([]),
        })
        .strict(),
    ),
    handle_unknown: z.enum(["ignore", "infrequent_if_exist"]).default("ignore"),
  })
  .strict();

export type OneHotSpec = z.infer<typeof oneHotSpec>;
export type OneHotFitted = z.infer<typeof oneHotFitted>;

export function oneHotName(column: string, level: string): string {
  return `${column}=${level}`;
}

/** The name of the column rare levels share; the brackets keep it apart from a level spelled "infrequent". */
export function infrequentName(column: string): string {
  return `${column}=(infrequent)`;
}

function outputNames(c: { name: string; levels: readonly string[]; infrequent: readonly string[] }): string[] {
  const names = c.levels.map((level) => oneHotName(c.name, level));
  if (c.infrequent.length > 0) names.push(infrequentName(c.name));
  return names;
}

/**
 * The levels (present in training) that are infrequent, following scikit-learn's
 * _identify_infrequent over its sorted categories.
 */
function infrequentLevels(present: readonly string[], counts: readonly number[], rows: number, spec: OneHotSpec): Set<string> {
  const order = present.map((_, k) => k).sort((a, b) => (present[a] < present[b] ? -1 : present[a] > present[b] ? 1 : 0));
  const threshold = spec.min_frequency ?? (spec.min_frequency_fraction !== null ? spec.min_frequency_fraction * rows : 0);
  const rare = new Set(order.filter((k) => counts[k] < threshold));
  const kept = order.length - rare.size + 1;
  if (spec.max_categories !== null && spec.max_categories < kept) {
    const frequent = spec.max_categories - 1;
    // A stable ascending sort by count over the sorted levels; all but the last `frequent` become infrequent.
    const byCount = [...order].sort((a, b) => counts[a] - counts[b]);
    for (const k of byCount.slice(0, byCount.length - frequent)) rare.add(k);
  }
  return new Set([...rare].map((k) => present[k]));
}

export const oneHot: Transform<OneHotSpec, OneHotFitted> = {
  name: STEP,
  description: "Replace each categorical column by 0/1 indicator columns, one per level seen in training, named column=level.",
  spec: oneHotSpec,
  fitted: oneHotFitted,

  fit(frame, spec) {
    const grouping = spec.min_frequency !== null || spec.min_frequency_fraction !== null || spec.max_categories !== null;
    const columns = targetColumns(frame, spec.columns, ["categorical"], STEP).map((c) => {
      if (c.type !== "categorical") throw new Error("unreachable");
      const seen = new Float64Array(c.levels.length);
      for (const code of c.codes) if (code !== MISSING_CODE) seen[code]++;
      const present = c.levels.filter((_, k) => seen[k] > 0);
      if (!grouping) return { name: c.name, levels: present, infrequent: [] };
      const rare = infrequentLevels(
        present,
        c.levels.flatMap((_, k) => (seen[k] > 0 ? [seen[k]] : [])),
        frame.rowCount,
        spec,
      );
      return { name: c.name, levels: present.filter((l) => !rare.has(l)), infrequent: present.filter((l) => rare.has(l)) };
    });
    const encoded = new Set(columns.map((c) => c.name));
    const names = new Set(frame.columns.filter((c) => !encoded.has(c.name)).map((c) => c.name));
    for (const c of columns) {
      for (const name of outputNames(c)) {
        if (names.has(name)) throw new DataError(`${STEP}: encoding "${c.name}" would create a column "${name}", which already exists`, "columns");
        names.add(name);
      }
    }
    return { columns, handle_unknown: spec.handle_unknown };
  },

  apply(fitted, frame) {
    const replacements = new Map<string, Column[]>();
    for (const f of fitted.columns) {
      const c = expectColumn(frame, f.name, "categorical", STEP);
      if (c.type !== "categorical") throw new Error("unreachable");
      const position = new Map(f.levels.map((level, k) => [level, k]));
      const grouped = f.infrequent.length > 0 ? f.levels.length : -1;
      for (const level of f.infrequent) position.set(level, grouped);
      const unknown = fitted.handle_unknown === "infrequent_if_exist" ? grouped : -1;
      const translate = Int32Array.from(c.levels, (level) => position.get(level) ?? unknown);
      // Per row, the output column holding its 1 (−1: none); the 0/1 cells are written from it only if read.
      const levelOf = new Int32Array(frame.rowCount).fill(-1);
      for (let i = 0; i < frame.rowCount; i++) {
        const code = c.codes[i];
        if (code !== MISSING_CODE) levelOf[i] = translate[code];
      }
      replacements.set(f.name, indicatorColumns(outputNames(f), levelOf));
    }
    return replaceColumns(frame, replacements);
  },

  describe(fitted) {
    const grouped = fitted.columns.filter((c) => c.infrequent.length > 0);
    return {
      levels: Object.fromEntries(fitted.columns.map((c) => [c.name, [...c.levels]])),
      ...(grouped.length > 0 ? { infrequent: Object.fromEntries(grouped.map((c) => [c.name, [...c.infrequent]])) } : {}),
    };
  },

  /** Every level the dataset knows: a fold's training rows may lack some, so this is an upper bound. Grouping rare levels depends on the counts: unknown until fitted. */
  plan(spec, columns) {
    if (spec.min_frequency !== null || spec.min_frequency_fraction !== null || spec.max_categories !== null) {
      pickColumns(columns, spec.columns, ["categorical"], STEP);
      return null;
    }
    const encoded = pickColumns(columns, spec.columns, ["categorical"], STEP);
    const replacements = new Map<string, PlannedColumn[]>();
    for (const c of encoded) replacements.set(c.name, (c.levels ?? []).map((level): PlannedColumn => ({ name: oneHotName(c.name, level), type: "numeric", min: 0, missing: 0 })));
    return replacePlannedChecked(columns, replacements, STEP);
  },
};
