/**
 * The rows kNN measures: a Frame as one row-major Float64Array in the layout its
 * metric wants. Under the vector metrics (minkowski family) a categorical column
 * becomes its 0/1 indicators, one per training level — the numbers one_hot would
 * give, so taking categorical input natively changes no distance — and under
 * vdm/hvdm it stays one coordinate holding the level code (−1: missing or unseen).
 * Levels are matched by name, so a Frame coded with other level lists reads the same.
 */
import type { Column, ColumnSchema, Frame } from "../../data/frame.js";
import { UnusableInputError } from "../contract.js";

export type Layout = "indicators" | "codes";

/** Coordinates each feature occupies. */
export function featureWidth(f: ColumnSchema, layout: Layout): number {
  return f.type === "categorical" && layout === "indicators" ? f.levels.length : 1;
}

export function encodedWidth(features: readonly ColumnSchema[], layout: Layout): number {
  let w = 0;
  for (const f of features) w += featureWidth(f, layout);
  return w;
}

/** Training level index of each of the column's codes (−1 when the level is not a training level). */
function levelMap(column: Column & { type: "categorical" }, trained: readonly string[]): Int32Array {
  const index = new Map(trained.map((l, i) => [l, i]));
  return Int32Array.from(column.levels, (l) => index.get(l) ?? -1);
}

export function encodeRows(X: Frame, features: readonly ColumnSchema[], layout: Layout): Float64Array<ArrayBuffer> {
  const n = X.rowCount;
  const width = encodedWidth(features, layout);
  const out = new Float64Array(n * width);
  let offset = 0;
  for (const f of features) {
    const column = X.columns.find((c) => c.name === f.name);
    if (!column) throw new UnusableInputError(`column ${f.name} is missing`);
    if (column.type !== f.type) throw new UnusableInputError(`column ${f.name} is ${column.type}, the model was trained on a ${f.type} column`);
    if (column.type === "numeric") {
      const v = column.values;
      for (let i = 0; i < n; i++) out[i * width + offset] = v[i];
      offset++;
      continue;
    }
    const map = levelMap(column, (f as { levels: string[] }).levels);
    const codes = column.codes;
    if (layout === "codes") {
      for (let i = 0; i < n; i++) out[i * width + offset] = codes[i] >= 0 && codes[i] < map.length ? map[codes[i]] : -1;
      offset++;
    } else {
      for (let i = 0; i < n; i++) {
        const level = codes[i] >= 0 && codes[i] < map.length ? map[codes[i]] : -1;
        if (level >= 0) out[i * width + offset + level] = 1;
      }
      offset += featureWidth(f, layout);
    }
  }
  return out;
}
