/**
 * JSON rows (the `rows` of a dataset upload) → Frame.
 * The column set is the union of the rows' keys in first-seen order; a key absent
 * from a row is a missing value there. Values are string | number | boolean | null;
 * inference and missing markers follow infer.ts.
 * "First-seen order" is the order of Object.keys, which (in every JavaScript engine,
 * JSON.parse included) lists integer-like keys such as "2024" first, ascending.
 */
import { DataError, DataTooLargeError } from "./errors.js";
import { makeFrame, type Frame } from "./frame.js";
import { ColumnBuilder, FORBIDDEN_COLUMN_NAMES, checkColumnTypes, forcedType, missingMarkers, parseNumber, type ReadOptions } from "./infer.js";

const locate = (row: number): string => `rows[${row}]`;

export function readJsonRows(rows: unknown, options: ReadOptions = {}): Frame {
  if (!Array.isArray(rows)) throw new DataError("rows must be an array of objects", "rows");
  const n = rows.length;
  if (n === 0) throw new DataError("rows is empty: a dataset needs at least one row", "rows");
  const markers = missingMarkers(options.missingValues);
  // Only when a marker looks like a number can a JSON number be missing (e.g. -999).
  const numbersCanBeMissing = [...markers].some((m) => !Number.isNaN(parseNumber(m)));
  const builders = new Map<string, ColumnBuilder>();

  for (let i = 0; i < n; i++) {
    const row: unknown = rows[i];
    if (row === null || typeof row !== "object" || Array.isArray(row)) {
      throw new DataError(`rows[${i}] must be an object mapping column names to values`, `rows[${i}]`);
    }
    for (const key of Object.keys(row)) {
      let b = builders.get(key);
      if (b === undefined) {
        checkColumnName(key, i);
        if (options.maxCells !== undefined && (builders.size + 1) * n > options.maxCells) {
          throw new DataTooLargeError(`${n} rows × ${builders.size + 1} columns is more than the limit of ${options.maxCells} cells`, "rows");
        }
        b = new ColumnBuilder(key, n, markers, forcedType(options, key), locate);
        builders.set(key, b);
      }
      const value: unknown = (row as Record<string, unknown>)[key];
      if (value === null || value === undefined) continue;
      if (typeof value === "number") {
        if (!Number.isFinite(value)) throw new DataError(`${value} is not a finite number`, `rows[${i}].${key}`);
        if (numbersCanBeMissing && markers.has(String(value))) continue;
        b.setNumber(i, value);
      } else if (typeof value === "string") {
        b.setText(i, value);
      } else if (typeof value === "boolean") {
        b.setText(i, String(value));
      } else {
        throw new DataError(
          `a value must be a string, number, boolean or null, not ${Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`}`,
          `rows[${i}].${key}`,
        );
      }
    }
  }

  if (builders.size === 0) throw new DataError("the rows have no keys: a dataset needs at least one column", "rows");
  const names = [...builders.keys()];
  checkColumnTypes(options.columnTypes, names);
  for (const b of builders.values()) {
    // Rows before the switch were numbers or missing; every one of them reads the same as text.
    for (let r = 0; r < b.replayBefore; r++) {
      const value = (rows[r] as Record<string, unknown>)[b.name];
      if (typeof value === "number" || typeof value === "string") b.setText(r, String(value));
    }
  }
  return makeFrame([...builders.values()].map((b) => b.finish(n)));
}

function checkColumnName(name: string, row: number): void {
  if (name.trim() === "") throw new DataError("a column name cannot be empty", `rows[${row}]`);
  if (FORBIDDEN_COLUMN_NAMES.includes(name)) throw new DataError(`"${name}" cannot be used as a column name`, `rows[${row}].${name}`);
}
