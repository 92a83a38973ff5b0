/**
 * A column as one byte blob (the store keeps one per column) and back, and
 * Frame rows as plain objects for the rows-paging route.
 *
 * Bytes are the typed array's own, in the platform's byte order (little-endian on
 * every platform Node supports), so encoding is a view and decoding one copy.
 * Levels are not in the blob: the caller stores them (as JSON) beside it.
 */
import { MISSING_CODE, cellValue, type Column, type ColumnType, type Frame } from "./frame.js";

export interface EncodedColumn {
  type: ColumnType;
  levels?: string[];
  bytes: Buffer;
}

export function encodeColumn(col: Column): EncodedColumn {
  const array = col.type === "numeric" ? col.values : col.codes;
  const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  return col.type === "numeric" ? { type: "numeric", bytes } : { type: "categorical", levels: [...col.levels], bytes };
}

/**
 * Copies into a fresh ArrayBuffer: a Buffer from SQLite may sit at any offset
 * inside a shared pool, and a Float64Array needs 8-byte alignment. Throws on bytes
 * that cannot be such a column (a corrupt store, not a user error).
 */
export function decodeColumn(name: string, type: ColumnType, bytes: Uint8Array, levels?: readonly string[]): Column {
  if (type === "numeric") {
    if (bytes.byteLength % 8 !== 0) throw new Error(`column ${name}: ${bytes.byteLength} bytes is not a whole number of float64 values`);
    const values = new Float64Array(bytes.byteLength / 8);
    new Uint8Array(values.buffer).set(bytes);
    return { type: "numeric", name, values };
  }
  if (!levels) throw new Error(`column ${name}: a categorical column needs its levels`);
  if (bytes.byteLength % 4 !== 0) throw new Error(`column ${name}: ${bytes.byteLength} bytes is not a whole number of int32 codes`);
  const codes = new Int32Array(bytes.byteLength / 4);
  new Uint8Array(codes.buffer).set(bytes);
  for (let i = 0; i < codes.length; i++) {
    if (codes[i] < MISSING_CODE || codes[i] >= levels.length) throw new Error(`column ${name}: code ${codes[i]} in row ${i} is outside its ${levels.length} levels`);
  }
  return { type: "categorical", name, codes, levels: [...levels] };
}

export type RowObject = Record<string, number | string | null>;

/** Rows [offset, offset + limit) as `{ column: value }`, missing as null. */
export function frameRows(frame: Frame, offset: number, limit: number): RowObject[] {
  const from = Math.max(0, Math.min(offset, frame.rowCount));
  const to = Math.max(from, Math.min(frame.rowCount, from + Math.max(0, limit)));
  const rows: RowObject[] = [];
  for (let r = from; r < to; r++) {
    const row: RowObject = {};
    for (const c of frame.columns) {
      // The readers refuse a column named __proto__; a Frame built elsewhere might not.
      if (c.name === "__proto__") Object.defineProperty(row, c.name, { value: cellValue(c, r), enumerable: true, writable: true, configurable: true });
      else row[c.name] = cellValue(c, r);
    }
    rows.push(row);
  }
  return rows;
}
