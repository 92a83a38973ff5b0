/**
 * Frame: a table held by column. Numeric columns are Float64Array with NaN for
 * missing; categorical columns are Int32Array codes into `levels`, -1 for missing.
 * Columnar because every learner scans one attribute at a time, and because a
 * column is one Buffer in SQLite (loading a dataset is a few memcpy, not a JSON parse).
 */
import { featureLength } from "./indicator-columns.js";

export type ColumnType = "numeric" | "categorical";

export interface NumericColumn {
  readonly type: "numeric";
  readonly name: string;
  readonly values: Float64Array;
}

export interface CategoricalColumn {
  readonly type: "categorical";
  readonly name: string;
  readonly codes: Int32Array;
  readonly levels: readonly string[];
}

export type Column = NumericColumn | CategoricalColumn;

export interface Frame {
  readonly rowCount: number;
  readonly columns: readonly Column[];
}

/** The part of a column that a fitted model must remember to read new rows the same way. */
export type ColumnSchema =
  | { name: string; type: "numeric" }
  | { name: string; type: "categorical"; levels: string[] };

export const MISSING_CODE = -1;

export function makeFrame(columns: readonly Column[]): Frame {
  const rowCount = columns.length === 0 ? 0 : columnLength(columns[0]);
  const seen = new Set<string>();
  for (const c of columns) {
    if (columnLength(c) !== rowCount) throw new Error(`column ${c.name} has ${columnLength(c)} rows, expected ${rowCount}`);
    if (seen.has(c.name)) throw new Error(`duplicate column ${c.name}`);
    seen.add(c.name);
  }
  return { rowCount, columns };
}

export function columnLength(c: Column): number {
  // featureLength: one_hot's columns know their length without writing their cells.
  return c.type === "numeric" ? featureLength(c) : c.codes.length;
}

export function getColumn(frame: Frame, name: string): Column {
  const c = frame.columns.find((col) => col.name === name);
  if (!c) throw new Error(`no column ${name}`);
  return c;
}

export function hasColumn(frame: Frame, name: string): boolean {
  return frame.columns.some((col) => col.name === name);
}

export function selectColumns(frame: Frame, names: readonly string[]): Frame {
  return makeFrame(names.map((n) => getColumn(frame, n)));
}

/** Rows by index (repeats allowed, as bootstrap needs). */
export function takeRows(frame: Frame, rows: ArrayLike<number>): Frame {
  const n = rows.length;
  const columns = frame.columns.map((c): Column => {
    if (c.type === "numeric") {
      const values = new Float64Array(n);
      for (let i = 0; i < n; i++) values[i] = c.values[rows[i]];
      return { type: "numeric", name: c.name, values };
    }
    const codes = new Int32Array(n);
    for (let i = 0; i < n; i++) codes[i] = c.codes[rows[i]];
    return { type: "categorical", name: c.name, codes, levels: c.levels };
  });
  return { rowCount: n, columns };
}

export function isMissing(c: Column, row: number): boolean {
  return c.type === "numeric" ? Number.isNaN(c.values[row]) : c.codes[row] === MISSING_CODE;
}

export function countMissing(c: Column): number {
  let k = 0;
  const n = columnLength(c);
  for (let i = 0; i < n; i++) if (isMissing(c, i)) k++;
  return k;
}

export function schemaOf(c: Column): ColumnSchema {
  return c.type === "numeric" ? { name: c.name, type: "numeric" } : { name: c.name, type: "categorical", levels: [...c.levels] };
}

export function frameSchema(frame: Frame): ColumnSchema[] {
  return frame.columns.map(schemaOf);
}

/** A cell as a client sees it: number, level string, or null when missing. */
export function cellValue(c: Column, row: number): number | string | null {
  if (c.type === "numeric") {
    const v = c.values[row];
    return Number.isNaN(v) ? null : v;
  }
  const code = c.codes[row];
  return code === MISSING_CODE ? null : c.levels[code];
}

/**
 * Level order: numeric-looking levels sort as numbers ("2" before "10"), anything
 * else by code unit. Fixed so that class order (and hence the default positive
 * class, "the second of the sorted classes") never depends on row order.
 */
export function sortLevels(levels: Iterable<string>): string[] {
  const list = [...new Set(levels)];
  const allNumeric = list.length > 0 && list.every((l) => l.trim() !== "" && Number.isFinite(Number(l)));
  return allNumeric
    ? list.sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0))
    : list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
