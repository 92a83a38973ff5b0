/**
 * Type inference and missing values, shared by the CSV and JSON readers.
 *
 * Rules (API.md):
 * - Missing by default: JSON `null` (always) and the texts `""`, `"?"`, `"-"`, `"NA"`,
 *   `"NaN"`. A `missingValues` option REPLACES this list of texts (it does not extend
 *   it): pass `["", "NA", "n/a"]` to keep some defaults. A cell is missing when its
 *   text with surrounding whitespace removed equals a marker (markers are trimmed too).
 *   JSON numbers and booleans are compared by their text (`String(value)`).
 * - A column whose non-missing values all parse as finite decimal numbers
 *   (`[+-]digits[.digits][e[+-]digits]` after trimming; no hex, no `Infinity`) is
 *   numeric; otherwise it is categorical, with levels in sortLevels order.
 * - A column with no value at all (every cell missing) is numeric, all NaN: it carries
 *   no information either way, and numeric is the type that needs no levels.
 * - `columnTypes` overrides inference; forcing numeric on a non-number is a DataError.
 */
import { DataError } from "./errors.js";
import { MISSING_CODE, sortLevels, type Column, type ColumnType } from "./frame.js";

export const DEFAULT_MISSING_VALUES: readonly string[] = Object.freeze(["", "?", "-", "NA", "NaN"]);

/** Names that would alias Object.prototype machinery in a row object. */
export const FORBIDDEN_COLUMN_NAMES: readonly string[] = Object.freeze(["__proto__", "constructor", "prototype"]);

export interface ReadOptions {
  /** Texts read as missing; replaces DEFAULT_MISSING_VALUES. */
  readonly missingValues?: readonly string[];
  /** Per-column type, overriding inference. Naming a column that does not exist is a DataError. */
  readonly columnTypes?: Readonly<Record<string, ColumnType>>;
  /** Refuse tables with more than this many cells (rows × columns) with DataTooLargeError. */
  readonly maxCells?: number;
}

export function missingMarkers(values: readonly string[] | undefined): Set<string> {
  return new Set((values ?? DEFAULT_MISSING_VALUES).map((v) => v.trim()));
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The number a text denotes, or NaN when it is not a finite decimal number. */
export function parseNumber(text: string): number {
  const t = text.trim();
  if (!DECIMAL.test(t)) return NaN;
  const x = Number(t);
  return Number.isFinite(x) ? x : NaN;
}

export function checkColumnTypes(columnTypes: Readonly<Record<string, unknown>> | undefined, names: readonly string[]): void {
  if (!columnTypes) return;
  const known = new Set(names);
  for (const [name, type] of Object.entries(columnTypes)) {
    if (!known.has(name)) throw new DataError(`column_types names "${name}", which is not a column of the data`, `column_types.${name}`);
    if (type !== "numeric" && type !== "categorical") {
      throw new DataError(`column type must be "numeric" or "categorical", not ${JSON.stringify(type)}`, `column_types.${name}`);
    }
  }
}

export function forcedType(options: ReadOptions, name: string): ColumnType | undefined {
  const types = options.columnTypes;
  return types && Object.hasOwn(types, name) ? types[name] : undefined;
}

/**
 * Collects one column while the table is read, row by row. It stays numeric
 * (writing straight into a Float64Array) until a value that is neither a number
 * nor missing arrives; then it turns categorical, and the rows read before that
 * point (`replayBefore`) must be fed again as text by the reader, which still has
 * them. That keeps the common all-numeric case free of any per-cell string.
 */
export class ColumnBuilder {
  numeric: boolean;
  /** Rows [0, replayBefore) were read as numbers before the column turned categorical. */
  replayBefore = 0;
  private values: Float64Array | null = null;
  private codes: Int32Array | null = null;
  private readonly index = new Map<string, number>();
  private readonly levels: string[] = [];

  constructor(
    readonly name: string,
    private readonly capacity: number,
    private readonly markers: ReadonlySet<string>,
    private readonly forced: ColumnType | undefined,
    /** Where row `row` is, for messages: `rows[3]`, `line 7`. */
    private readonly locate: (row: number) => string,
  ) {
    this.numeric = forced !== "categorical";
    if (!this.numeric) this.codes = new Int32Array(capacity).fill(MISSING_CODE);
  }

  /** A finite number (a JSON number, or a CSV cell the reader parsed itself). */
  setNumber(row: number, x: number): void {
    if (!this.numeric) {
      this.setText(row, String(x));
      return;
    }
    (this.values ??= new Float64Array(this.capacity).fill(NaN))[row] = x;
  }

  /**
   * Reads one cell's text. Returns the code written (MISSING_CODE for a missing
   * cell); meaningful once the column is categorical, so a reader may cache it
   * by the cell's bytes and pass it to setCode next time.
   */
  setText(row: number, text: string): number {
    const trimmed = text.trim();
    if (this.markers.has(trimmed)) return MISSING_CODE;
    if (this.numeric) {
      const x = parseNumber(trimmed);
      if (!Number.isNaN(x)) {
        (this.values ??= new Float64Array(this.capacity).fill(NaN))[row] = x;
        return MISSING_CODE;
      }
      if (this.forced === "numeric") {
        throw new DataError(
          `column "${this.name}" is declared numeric, but ${this.locate(row)} has ${JSON.stringify(text)}, which is not a number`,
          `column_types.${this.name}`,
        );
      }
      this.numeric = false;
      this.replayBefore = row;
      this.values = null;
      this.codes = new Int32Array(this.capacity).fill(MISSING_CODE);
    }
    let code = this.index.get(text);
    if (code === undefined) {
      code = this.levels.length;
      this.levels.push(text);
      this.index.set(text, code);
    }
    this.codes![row] = code;
    return code;
  }

  /** A code setText returned earlier for the same text (categorical columns only). */
  setCode(row: number, code: number): void {
    this.codes![row] = code;
  }

  finish(rowCount: number): Column {
    if (this.numeric) {
      const v = this.values ?? new Float64Array(rowCount).fill(NaN);
      return { type: "numeric", name: this.name, values: v.length === rowCount ? v : v.slice(0, rowCount) };
    }
    const levels = sortLevels(this.levels);
    const remap = new Int32Array(this.levels.length);
    levels.forEach((level, i) => (remap[this.index.get(level)!] = i));
    const codes = this.codes!.length === rowCount ? this.codes! : this.codes!.slice(0, rowCount);
    for (let i = 0; i < rowCount; i++) if (codes[i] !== MISSING_CODE) codes[i] = remap[codes[i]];
    return { type: "categorical", name: this.name, codes, levels };
  }
}
