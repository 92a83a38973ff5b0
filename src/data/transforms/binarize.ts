/**
 * Binarization (seed 001 §2.2, scikit-learn's Binarizer): x > threshold → 1,
 * otherwise 0, column by column in place; a missing cell stays missing.
 * `threshold` is the default for every column, `thresholds` sets it per column.
 */
import { z } from "zod";
import { DataError } from "../errors.js";
import type { Column } from "../frame.js";
import { f64 } from "./schemas.js";
import { byColumn, expectNumeric, pickColumns, replaceColumns, type Transform } from "./transform.js";

const STEP = "binarize";

export const binarizeSpec = z
  .object({
    /** Default: every numeric column (and always the ones named in thresholds). */
    columns: z.array(z.string()).optional(),
    threshold: z.number().default(0),
    /** Per-column thresholds, overriding `threshold`. */
    thresholds: z.record(z.string(), z.number()).default({}),
  })
  .strict();

export const binarizeFitted = z
  .object({ columns: z.array(z.string()), thresholds: f64 })
  .strict()
  .refine((f) => f.thresholds.length === f.columns.length, { message: "one threshold per column" });

export type BinarizeSpec = z.infer<typeof binarizeSpec>;
export type BinarizeFitted = z.infer<typeof binarizeFitted>;

function resolve<C extends { readonly name: string; readonly type: "numeric" | "categorical" }>(columns: readonly C[], spec: BinarizeSpec): BinarizeFitted {
  const chosen = new Set(pickColumns(columns, spec.columns, ["numeric"], STEP).map((c) => c.name));
  const byName = new Map(columns.map((c) => [c.name, c]));
  for (const name of Object.keys(spec.thresholds)) {
    const c = byName.get(name);
    if (!c) throw new DataError(`${STEP}: thresholds names "${name}", which is not a column`, `thresholds.${name}`);
    if (c.type !== "numeric") throw new DataError(`${STEP}: column "${name}" is categorical; binarize takes numeric columns`, `thresholds.${name}`);
    chosen.add(name);
  }
  const order = columns.map((c) => c.name).filter((name) => chosen.has(name));
  return { columns: order, thresholds: Float64Array.from(order, (name) => (Object.hasOwn(spec.thresholds, name) ? spec.thresholds[name] : spec.threshold)) };
}

export const binarize: Transform<BinarizeSpec, BinarizeFitted> = {
  name: STEP,
  description: "Turn numeric columns into 0/1: 1 where the value is above the column's threshold.",
  spec: binarizeSpec,
  fitted: binarizeFitted,

  fit: (frame, spec) => resolve(frame.columns, spec),

  apply(fitted, frame) {
    const replacements = new Map<string, Column[]>();
    fitted.columns.forEach((name, j) => {
      const x = expectNumeric(frame, name, STEP);
      const t = fitted.thresholds[j];
      const values = new Float64Array(x.length);
      for (let i = 0; i < x.length; i++) values[i] = Number.isNaN(x[i]) ? NaN : x[i] > t ? 1 : 0;
      replacements.set(name, [{ type: "numeric", name, values }]);
    });
    return replaceColumns(frame, replacements);
  },

  describe: (fitted) => ({ thresholds: byColumn(fitted.columns, fitted.thresholds) }),

  plan(spec, columns) {
    resolve(columns, spec);
    return [...columns];
  },
};
