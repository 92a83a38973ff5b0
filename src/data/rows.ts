/**
 * Rows of a prediction request → a Frame in the model's schema (API.md predict).
 * An absent key, null, or a missing marker is a missing value; an unseen category
 * is treated as missing (code -1); a key the model does not know, or a value of the
 * wrong kind, is a DataError with the path `rows[i].column` (the server answers 422).
 * Only schema columns appear in the result, in schema order.
 */
import { DataError } from "./errors.js";
import { MISSING_CODE, type Column, type ColumnSchema, type Frame } from "./frame.js";
import { missingMarkers, parseNumber } from "./infer.js";

export interface EncodeRowsOptions {
  /** As for reading a dataset: replaces the default missing markers. */
  readonly missingValues?: readonly string[];
  /** Keys accepted and skipped, e.g. the model's target, which clients often leave in a row. */
  readonly ignoreColumns?: readonly string[];
}

interface CompiledSchema {
  readonly schema: readonly ColumnSchema[];
  readonly position: ReadonlyMap<string, number>;
  /** Level → code, per categorical column (null for numeric ones). */
  readonly codes: readonly (ReadonlyMap<string, number> | null)[];
  readonly markers: ReadonlySet<string>;
}

// A loaded model keeps its schema array, so single-row requests reuse the lookup tables.
const compiledDefaults = new WeakMap<readonly ColumnSchema[], CompiledSchema>();

function compile(schema: readonly ColumnSchema[], missingValues: readonly string[] | undefined): CompiledSchema {
  return {
    schema,
    position: new Map(schema.map((c, j) => [c.name, j])),
    codes: schema.map((c) => (c.type === "categorical" ? new Map(c.levels.map((level, k) => [level, k])) : null)),
    markers: missingMarkers(missingValues),
  };
}

function compiled(schema: readonly ColumnSchema[], options: EncodeRowsOptions): CompiledSchema {
  if (options.missingValues) return compile(schema, options.missingValues);
  let c = compiledDefaults.get(schema);
  if (!c) compiledDefaults.set(schema, (c = compile(schema, undefined)));
  return c;
}

export function encodeRows(rows: unknown, schema: readonly ColumnSchema[], options: EncodeRowsOptions = {}): Frame {
  if (!Array.isArray(rows)) throw new DataError("rows must be an array of objects", "rows");
  const n = rows.length;
  if (n === 0) throw new DataError("rows is empty: send at least one row", "rows");
  const { position, codes, markers } = compiled(schema, options);
  const numeric = schema.map((c) => (c.type === "numeric" ? new Float64Array(n).fill(NaN) : null));
  const categorical = schema.map((c) => (c.type === "categorical" ? new Int32Array(n).fill(MISSING_CODE) : null));

  for (let i = 0; i < n; i++) {
    const row: unknown = rows[i];
    if (row === null || typeof row !== "object" || Array.isArray(row)) {
      throw new DataError(`rows[${i}] must be an object mapping feature names to values`, `rows[${i}]`);
    }
    for (const key in row) {
      if (!Object.hasOwn(row, key)) continue;
      const j = position.get(key);
      if (j === undefined) {
        if (options.ignoreColumns?.includes(key)) continue;
        throw new DataError(unknownColumnMessage(key, schema), `rows[${i}].${key}`);
      }
      const value: unknown = (row as Record<string, unknown>)[key];
      if (value === null || value === undefined) continue;
      const values = numeric[j];
      if (values) {
        values[i] = readNumber(value, markers, key, i);
        continue;
      }
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
        throw new DataError(`column "${key}" is categorical: expected a string, number, boolean or null, got ${describe(value)}`, `rows[${i}].${key}`);
      }
      const text = typeof value === "string" ? value : String(value);
      if (markers.has(text.trim())) continue;
      categorical[j]![i] = codes[j]!.get(text) ?? MISSING_CODE;
    }
  }

  const columns = schema.map((c, j): Column =>
    c.type === "numeric"
      ? { type: "numeric", name: c.name, values: numeric[j]! }
      : { type: "categorical", name: c.name, codes: categorical[j]!, levels: c.levels },
  );
  // Not makeFrame: its length and duplicate-name checks hold by construction (one array of n per
  // schema column, and a model's schema has unique names), and a single-row predict would pay for them.
  return { rowCount: n, columns };
}

/** NaN for a missing marker. */
function readNumber(value: unknown, markers: ReadonlySet<string>, key: string, row: number): number {
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    throw new DataError(`column "${key}" is numeric: ${value} is not a finite number`, `rows[${row}].${key}`);
  }
  if (typeof value === "string") {
    if (markers.has(value.trim())) return NaN;
    const x = parseNumber(value);
    if (!Number.isNaN(x)) return x;
  }
  throw new DataError(`column "${key}" is numeric: expected a number or null, got ${describe(value)}`, `rows[${row}].${key}`);
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return String(value);
}

function unknownColumnMessage(key: string, schema: readonly ColumnSchema[]): string {
  const names = schema.map((c) => JSON.stringify(c.name));
  const shown = names.length > 12 ? `${names.slice(0, 12).join(", ")}, … (${names.length} in all)` : names.join(", ");
  return `unknown column "${key}": the model's features are ${shown || "none"}`;
}
