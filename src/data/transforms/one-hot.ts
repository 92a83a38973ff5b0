/**
 * One-hot encoding: each categorical column becomes one numeric 0/1 column per
 * level seen in the training rows, named `column=level`, standing where the
 * original stood. A missing cell, or a level not seen in training, is all zeros.
 * A column with no value at all in the training rows therefore yields no columns.
 */
import { z } from "zod";
import { DataError } from "../errors.js";
import { MISSING_CODE, type Column } from "../frame.js";
import { checkNewNames, expectColumn, pickColumns, replaceColumns, replacePlanned, targetColumns, type PlannedColumn, type Transform } from "./transform.js";

const STEP = "one_hot";

export const oneHotSpec = z
  .object({
    /** Default: every categorical column. */
    columns: z.array(z.string()).optional(),
  })
  .strict();

export const oneHotFitted = z
  .object({
    columns: z.array(z.object({ name: z.string(), levels: z.array(z.string()) }).strict()),
  })
  .strict();

export type OneHotSpec = z.infer<typeof oneHotSpec>;
export type OneHotFitted = z.infer<typeof oneHotFitted>;

export function oneHotName(column: string, level: string): string {
  return `${column}=${level}`;
}

export const oneHot: Transform<OneHotSpec, OneHotFitted> = {
  name: STEP,
  description: "Replace each categorical column by 0/1 indicator columns, one per level seen in training, named column=level.",
  spec: oneHotSpec,
  fitted: oneHotFitted,

  fit(frame, spec) {
    const columns = targetColumns(frame, spec.columns, ["categorical"], STEP).map((c) => {
      if (c.type !== "categorical") throw new Error("unreachable");
      const seen = new Uint8Array(c.levels.length);
      for (const code of c.codes) if (code !== MISSING_CODE) seen[code] = 1;
      return { name: c.name, levels: c.levels.filter((_, k) => seen[k] === 1) };
    });
    const encoded = new Set(columns.map((c) => c.name));
    const names = new Set(frame.columns.filter((c) => !encoded.has(c.name)).map((c) => c.name));
    for (const c of columns) {
      for (const level of c.levels) {
        const name = oneHotName(c.name, level);
        if (names.has(name)) throw new DataError(`${STEP}: encoding "${c.name}" would create a column "${name}", which already exists`, "columns");
        names.add(name);
      }
    }
    return { columns };
  },

  apply(fitted, frame) {
    const replacements = new Map<string, Column[]>();
    for (const f of fitted.columns) {
      const c = expectColumn(frame, f.name, "categorical", STEP);
      if (c.type !== "categorical") throw new Error("unreachable");
      const position = new Map(f.levels.map((level, k) => [level, k]));
      const translate = Int32Array.from(c.levels, (level) => position.get(level) ?? -1);
      const outputs = f.levels.map((): Float64Array => new Float64Array(frame.rowCount));
      for (let i = 0; i < frame.rowCount; i++) {
        const code = c.codes[i];
        if (code === MISSING_CODE) continue;
        const k = translate[code];
        if (k >= 0) outputs[k][i] = 1;
      }
      replacements.set(
        f.name,
        f.levels.map((level, k): Column => ({ type: "numeric", name: oneHotName(f.name, level), values: outputs[k] })),
      );
    }
    return replaceColumns(frame, replacements);
  },

  describe(fitted) {
    return { levels: Object.fromEntries(fitted.columns.map((c) => [c.name, [...c.levels]])) };
  },

  /** Every level the dataset knows: a fold's training rows may lack some, so this is an upper bound. */
  plan(spec, columns) {
    const encoded = pickColumns(columns, spec.columns, ["categorical"], STEP);
    const replacements = new Map<string, PlannedColumn[]>();
    for (const c of encoded) replacements.set(c.name, (c.levels ?? []).map((level): PlannedColumn => ({ name: oneHotName(c.name, level), type: "numeric", min: 0, missing: 0 })));
    checkNewNames(
      columns.filter((c) => !replacements.has(c.name)).map((c) => c.name),
      [...replacements.values()].flat().map((c) => c.name),
      STEP,
      "columns",
    );
    return replacePlanned(columns, replacements);
  },
};
