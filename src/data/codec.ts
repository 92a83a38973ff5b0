/**
 * A column as byte blobs (the store keeps it in fixed-size row chunks, so a page
 * of rows reads a few chunks, not the column) and back, and Frame rows as plain
 * objects for the rows-paging route.
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

/** Bytes per row of a column's blob. */
export function bytesPerRow(type: ColumnType): number {
  return type === "numeric" ? 8 : 4;
}

/** The column's bytes cut into runs of `chunkRows` rows (views, no copy); the last run may be shorter. */
export function columnChunks(col: Column, chunkRows: number): Buffer[] {
  const { bytes, type } = encodeColumn(col);
  const step = chunkRows * bytesPerRow(type);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += step) chunks.push(bytes.subarray(at, Math.min(at + step, bytes.length)));
  return chunks;
}

/**
 * Copies into a fresh ArrayBuffer: a Buffer from SQLite may sit at any offset
 * inside a shared pool, and a Float64Array needs 8-byte alignment. Throws on bytes
 * that cannot be such a column (a corrupt store, not a user error).
 */
export function decodeColumn(name: string, type: ColumnType, bytes: Uint8Array, levels?: readonly string[]): Column {
  return decodeColumnParts(name, type, [bytes], levels);
}

/** decodeColumn over consecutive pieces of the blob (the chunks of a row range), with one copy. */
export function decodeColumnParts(name: string, type: ColumnType, parts: readonly Uint8Array[], levels?: readonly string[]): Column {
  let byteLength = 0;
  for (const part of parts) byteLength += part.byteLength;
  if (type === "numeric") {
    if (byteLength % 8 !== 0) throw new Error(`column ${name}: ${byteLength} bytes is not a whole number of float64 values`);
    const values = new Float64Array(byteLength / 8);
    copyParts(new Uint8Array(values.buffer), parts);
    return { type: "numeric", name, values };
  }
  if (!levels) throw new Error(`column ${name}: a categorical column needs its levels`);
  return { type: "categorical", name, codes: decodeCodes(name, parts, levels.length), levels: [...levels] };
}

/** The codes of a categorical column (or of a row range of it), checked against its level count. */
export function decodeCodes(name: string, parts: readonly Uint8Array[], levelCount: number): Int32Array {
  let byteLength = 0;
  for (const part of parts) byteLength += part.byteLength;
  if (byteLength % 4 !== 0) throw new Error(`column ${name}: ${byteLength} bytes is not a whole number of int32 codes`);
  const codes = new Int32Array(byteLength / 4);
  copyParts(new Uint8Array(codes.buffer), parts);
  for (let i = 0; i < codes.length; i++) {
    if (codes[i] < MISSING_CODE || codes[i] >= levelCount) throw new Error(`column ${name}: code ${codes[i]} in row ${i} is outside its ${levelCount} levels`);
  }
  return codes;
}

function copyParts(target: Uint8Array, parts: readonly Uint8Array[]): void {
  let at = 0;
  for (const part of parts) {
    target.set(part, at);
    at += part.byteLength;
  }
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
