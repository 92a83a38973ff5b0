/**
 * CSV (header row required) → Frame. UTF-8, optional BOM, RFC 4180 quoting
 * (see csv-cursor.ts); inference and missing markers follow infer.ts.
 *
 * Built for large uploads: one pass over the bytes, numbers parsed from the bytes
 * into each column's Float64Array, categorical cells looked up by their bytes, no
 * object or string per row. Memory beyond the input buffer is the finished columns,
 * four bytes per row (row offsets, kept so a column that turns categorical late can
 * re-read its earlier cells) and a bounded level cache per categorical column.
 */
import { ABSENT, ByteKeyTable } from "./byte-key-table.js";
import { CsvCursor, countLineBreaks } from "./csv-cursor.js";
import { DataError, DataTooLargeError } from "./errors.js";
import { makeFrame, type Frame } from "./frame.js";
import { ColumnBuilder, FORBIDDEN_COLUMN_NAMES, checkColumnTypes, forcedType, missingMarkers, parseNumber, type ReadOptions } from "./infer.js";
import { DEFER, parseDecimalBytes, scanPlainDecimal, scannedEnd } from "./parse-decimal-bytes.js";

export function readCsv(input: Buffer | string, options: ReadOptions = {}): Frame {
  const bytes = typeof input === "string" ? Buffer.from(input, "utf8") : input;
  const hasBom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const cursor = new CsvCursor(bytes, hasBom ? 3 : 0);
  if (!cursor.nextRow()) throw new DataError("the CSV is empty: a header row and at least one data row are needed", "body");

  const names = readHeader(cursor);
  checkColumnTypes(options.columnTypes, names);
  const width = names.length;
  const maxRows = options.maxCells === undefined ? Infinity : Math.floor(options.maxCells / width);
  // An upper bound on the rows (every row but the last ends with a line break; exact
  // without quoted line breaks or blank lines), so each column is allocated once.
  const last = bytes[bytes.length - 1];
  const unterminated = last === 10 || last === 13 ? 0 : 1;
  const capacity = Math.min(countLineBreaks(bytes, cursor.pos, bytes.length) + unterminated, maxRows + 1);
  const markers = missingMarkers(options.missingValues);
  const emptyIsMissing = markers.has("");
  // With a number-like marker (say "-999") every cell must be compared as text first.
  const fastNumbers = ![...markers].some((m) => !Number.isNaN(parseNumber(m)));
  let rowLine = 0;
  const locate = (): string => `line ${rowLine}`;
  const builders = names.map((name) => new ColumnBuilder(name, capacity, markers, forcedType(options, name), locate));
  const rowStarts = new Uint32Array(capacity);
  const caches = names.map(() => new ByteKeyTable(bytes));
  // Cells in a row that the one-pass number path could not read, by column: a column of
  // 17-digit numbers (or text) stops trying it rather than reading every cell twice.
  const plainMisses = new Int32Array(width);

  let row = 0;
  while (cursor.nextRow()) {
    rowLine = cursor.line;
    if (row >= maxRows) {
      throw new DataTooLargeError(`the CSV has more than ${maxRows} rows of ${width} columns, over the limit of ${options.maxCells} cells`, "body");
    }
    rowStarts[row] = cursor.pos;
    for (let j = 0; j < width; j++) {
      if (cursor.rowEnd && j > 0) throw raggedRow(rowLine, j, width);
      const b = builders[j];
      if (fastNumbers && b.numeric && plainMisses[j] < GIVE_UP_PLAIN) {
        // One pass for the common cell: the number is read while its end is looked for.
        const x = scanPlainDecimal(bytes, cursor.pos, bytes.length);
        if (!Number.isNaN(x)) {
          plainMisses[j] = 0;
          cursor.takeField(cursor.pos, scannedEnd);
          b.setNumber(row, x);
          continue;
        }
        plainMisses[j]++;
      }
      cursor.readField();
      if (cursor.start === cursor.end && !cursor.escaped && emptyIsMissing) continue;
      if (fastNumbers && b.numeric && !cursor.escaped) {
        let x = parseDecimalBytes(bytes, cursor.start, cursor.end);
        if (x === DEFER) x = Number(bytes.toString("latin1", cursor.start, cursor.end));
        if (Number.isFinite(x)) {
          b.setNumber(row, x);
          continue;
        }
      }
      if (!b.numeric) readCategorical(cursor, b, caches[j], row);
      else b.setText(row, cursor.text());
    }
    if (!cursor.rowEnd) {
      let found = width;
      while (!cursor.rowEnd) {
        cursor.readField();
        found++;
      }
      throw raggedRow(rowLine, found, width);
    }
    row++;
  }
  if (row === 0) throw new DataError("the CSV has a header but no data rows", "body");

  replayEarlyRows(bytes, rowStarts, builders, caches);
  return makeFrame(builders.map((b) => b.finish(row)));
}

function readHeader(cursor: CsvCursor): string[] {
  const names: string[] = [];
  const seen = new Map<string, number>();
  do {
    cursor.readField();
    const name = cursor.text();
    const position = names.length + 1;
    if (name.trim() === "") throw new DataError(`column ${position} of the header has no name`, "header");
    if (FORBIDDEN_COLUMN_NAMES.includes(name)) throw new DataError(`"${name}" cannot be used as a column name`, `header.${name}`);
    const earlier = seen.get(name);
    if (earlier !== undefined) throw new DataError(`the header names "${name}" twice (columns ${earlier} and ${position})`, "header");
    seen.set(name, position);
    names.push(name);
  } while (!cursor.rowEnd);
  return names;
}

function raggedRow(line: number, found: number, width: number): DataError {
  return new DataError(`line ${line} has ${found} field${found === 1 ? "" : "s"}, but the header has ${width}`, `line ${line}`);
}

const GIVE_UP_PLAIN = 32;

// Bounded so that a column of unique values (ids) does not grow a second index of them.
const MAX_CACHED_KEYS = 50_000;

/** A categorical cell, through its column's cache of byte sequence → code. */
function readCategorical(cursor: CsvCursor, b: ColumnBuilder, cache: ByteKeyTable, row: number): void {
  if (cursor.escaped) {
    b.setText(row, cursor.text());
    return;
  }
  const code = cache.get(cursor.start, cursor.end);
  if (code !== ABSENT) return b.setCode(row, code);
  const written = b.setText(row, cursor.text());
  if (cache.size < MAX_CACHED_KEYS) cache.add(cursor.start, cursor.end, written);
}

/** Re-reads, as text, the cells a column read as numbers before it turned categorical. */
function replayEarlyRows(bytes: Buffer, rowStarts: Uint32Array, builders: ColumnBuilder[], caches: ByteKeyTable[]): void {
  let rows = 0;
  let lastColumn = -1;
  builders.forEach((b, j) => {
    if (b.replayBefore > 0) {
      rows = Math.max(rows, b.replayBefore);
      lastColumn = j;
    }
  });
  const cursor = new CsvCursor(bytes);
  for (let r = 0; r < rows; r++) {
    cursor.pos = rowStarts[r];
    cursor.rowEnd = false;
    for (let j = 0; j <= lastColumn; j++) {
      cursor.readField();
      if (r < builders[j].replayBefore) readCategorical(cursor, builders[j], caches[j], r);
    }
  }
}
