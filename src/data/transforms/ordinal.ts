/**
 * Ordinal encoding: each categorical column becomes one numeric column of level
 * positions 0, 1, 2, … in place. The order is the one given in `categories` (for
 * ordered levels such as 浅白 < 青绿 < 乌黑), otherwise the sorted order of the levels
 * seen in the training rows (scikit-learn's OrdinalEncoder). A missing cell, or a
 * level not in the order, becomes a missing value (NaN).
 */
import { z } from "zod";
import { DataError } from "../errors.js";
import { MISSING_CODE, sortLevels, type Column } from "../frame.js";
import { expectColumn, pickColumns, replaceColumns, type PlannedColumn, type Transform } from "./transform.js";

const STEP = "ordinal";

const order = z
  .array(z.string())
  .min(1)
  .refine((levels) => new Set(levels).size === levels.length, { message: "a level is listed twice" });

export const ordinalSpec = z
  .object({
    /** Default: every categorical column (and always the ones named in categories). */
    columns: z.array(z.string()).optional(),
    /** Explicit level order per column, lowest first. */
    categories: z.record(z.string(), order).default({}),
  })
  .strict();

export const ordinalFitted = z
  .object({ columns: z.array(z.object({ name: z.string(), levels: z.array(z.string()) }).strict()) })
  .strict();

export type OrdinalSpec = z.infer<typeof ordinalSpec>;
export type OrdinalFitted = z.infer<typeof ordinalFitted>;

interface Typed {
  readonly name: string;
  readonly type: "numeric" | "categorical";
}

function chosenColumns<C extends Typed>(columns: readonly C[], spec: OrdinalSpec): C[] {
  const chosen = new Set(pickColumns(columns, spec.columns, ["categorical"], STEP));
  const byName = new Map(columns.map((c) => [c.name, c]));
  for (const name of Object.keys(spec.categories)) {
    const c = byName.get(name);
    if (!c) throw new DataError(`${STEP}: categories names "${name}", which is not a column`, `categories.${name}`);
    if (c.type !== "categorical") throw new DataError(`${STEP}: column "${name}" is numeric; ordinal encodes categorical columns`, `categories.${name}`);
    chosen.add(c);
  }
  return columns.filter((c) => chosen.has(c));
}

function checkOrder(name: string, present: readonly string[], explicit: readonly string[]): void {
  const known = new Set(explicit);
  const stray = present.find((level) => !known.has(level));
  if (stray !== undefined) throw new DataError(`${STEP}: level "${stray}" of column "${name}" is not in the order given for it`, `categories.${name}`);
}

export const ordinal: Transform<OrdinalSpec, OrdinalFitted> = {
  name: STEP,
  description: "Replace each categorical column by the position of its level in an explicit (or sorted) order: 0, 1, 2, …",
  spec: ordinalSpec,
  fitted: ordinalFitted,

  fit(frame, spec) {
    return {
      columns: chosenColumns(frame.columns, spec).map((c) => {
        if (c.type !== "categorical") throw new Error("unreachable");
        const seen = new Uint8Array(c.levels.length);
        for (const code of c.codes) if (code !== MISSING_CODE) seen[code] = 1;
        const present = c.levels.filter((_, k) => seen[k] === 1);
        const explicit = Object.hasOwn(spec.categories, c.name) ? spec.categories[c.name] : null;
        if (explicit) checkOrder(c.name, present, explicit);
        return { name: c.name, levels: explicit ? [...explicit] : sortLevels(present) };
      }),
    };
  },

  apply(fitted, frame) {
    const replacements = new Map<string, Column[]>();
    for (const f of fitted.columns) {
      const c = expectColumn(frame, f.name, "categorical", STEP);
      if (c.type !== "categorical") throw new Error("unreachable");
      const position = new Map(f.levels.map((level, k) => [level, k]));
      const translate = Float64Array.from(c.levels, (level) => position.get(level) ?? NaN);
      const values = new Float64Array(frame.rowCount);
      for (let i = 0; i < values.length; i++) values[i] = c.codes[i] === MISSING_CODE ? NaN : translate[c.codes[i]];
      replacements.set(f.name, [{ type: "numeric", name: f.name, values }]);
    }
    return replaceColumns(frame, replacements);
  },

  describe: (fitted) => ({ order: Object.fromEntries(fitted.columns.map((c) => [c.name, [...c.levels]])) }),

  plan(spec, columns) {
    const chosen = new Set(chosenColumns(columns, spec).map((c) => c.name));
    return columns.map((c): PlannedColumn => {
      if (!chosen.has(c.name)) return c;
      if (Object.hasOwn(spec.categories, c.name) && c.levels) checkOrder(c.name, c.levels, spec.categories[c.name]);
      return { name: c.name, type: "numeric", min: 0, missing: c.missing };
    });
  },
};
