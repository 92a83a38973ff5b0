/**
 * Datasets as stored chunks and back, with no SQL: both stores read the same rows
 * (value chunks by position, level chunks as JSON) and assemble Frames here.
 */
import { MISSING_CODE, columnLength, type Column, type Frame } from "../data/frame.js";
import { decodeCodes, decodeColumnParts } from "../data/codec.js";

/**
 * Rows per chunk of new datasets (each records its own in chunk_rows): a numeric
 * chunk is 64 KiB; a page (≤ 500 rows) spans at most two.
 */
export const CHUNK_ROWS = 8192;

/** Levels per stored level chunk of new datasets (each records its own in level_chunk). */
export const LEVEL_CHUNK = 1024;

export interface ColumnMetaRow {
  position: number;
  name: string;
  type: "numeric" | "categorical";
  level_count: number;
}

export interface ChunkRow {
  position: number;
  data: Buffer;
}

export function groupByPosition(chunks: Iterable<ChunkRow>): Map<number, Buffer[]> {
  const parts = new Map<number, Buffer[]>();
  for (const c of chunks) {
    const list = parts.get(c.position);
    if (list) list.push(c.data);
    else parts.set(c.position, [c.data]);
  }
  return parts;
}

/** Level chunks in (position, chunk) order → each column's whole level list. */
export function concatLevels(rows: Iterable<{ position: number; levels_json: string }>): Map<number, string[]> {
  const levels = new Map<number, string[]>();
  for (const row of rows) {
    const chunk = JSON.parse(row.levels_json) as string[];
    const list = levels.get(row.position);
    if (list) for (const level of chunk) list.push(level);
    else levels.set(row.position, chunk);
  }
  return levels;
}

/** The whole dataset from all its chunks, checked against the counts its metadata records. */
export function assembleFrame(id: string, rowCount: number, metas: readonly ColumnMetaRow[], values: Map<number, Buffer[]>, levels: Map<number, string[]>): Frame {
  const columns = metas.map((m) => {
    const column = decodeColumnParts(m.name, m.type, values.get(m.position) ?? [], m.type === "categorical" ? (levels.get(m.position) ?? []) : undefined);
    const length = columnLength(column);
    if (length !== rowCount) throw new Error(`dataset ${id}: column ${m.name} has ${length} stored rows, expected ${rowCount}`);
    if (column.type === "categorical" && column.levels.length !== m.level_count) throw new Error(`dataset ${id}: column ${m.name} has ${column.levels.length} stored levels, expected ${m.level_count}`);
    return column;
  });
  return { rowCount, columns };
}

/** Rows [from, to) of a dataset: which value chunks hold them and where the page starts in the first. */
export interface PageRange {
  total: number;
  from: number;
  to: number;
  rows: number;
  firstChunk: number;
  lastChunk: number;
  /** Rows of the first chunk before the page. */
  skip: number;
}

export function pageRange(total: number, chunkRows: number, offset: number, limit: number): PageRange {
  const from = Math.min(offset, total);
  const to = Math.min(total, from + limit);
  const rows = to - from;
  const firstChunk = Math.floor(from / chunkRows);
  const lastChunk = rows === 0 ? firstChunk - 1 : Math.floor((to - 1) / chunkRows);
  return { total, from, to, rows, firstChunk, lastChunk, skip: rows === 0 ? 0 : from - firstChunk * chunkRows };
}

/** A numeric column of the page, or a categorical one's codes there (their levels are read next: pageLevelChunks, pageCategorical). */
export function decodePageColumn(id: string, m: ColumnMetaRow, parts: readonly Buffer[], page: PageRange): Column | Int32Array {
  if (m.type === "numeric") {
    const column = decodeColumnParts(m.name, "numeric", parts);
    checkRange(id, m.name, columnLength(column), page);
    return column.type === "numeric" ? { ...column, values: column.values.subarray(page.skip, page.skip + page.rows) } : column;
  }
  const codes = decodeCodes(m.name, parts, m.level_count);
  checkRange(id, m.name, codes.length, page);
  return codes.subarray(page.skip, page.skip + page.rows);
}

/** The level chunks a page's codes point into. */
export function pageLevelChunks(codes: Int32Array, levelChunk: number): number[] {
  return [...new Set(Array.from(codes, (c) => Math.floor(c / levelChunk)).filter((k) => k >= 0))];
}

/** A page's categorical column with only the levels its codes use (codes renumbered), from the level chunks read for it. */
export function pageCategorical(id: string, m: ColumnMetaRow, codes: Int32Array, levelChunk: number, stored: Map<number, string[]>): Column {
  const levels: string[] = [];
  const renumbered = new Map<number, number>();
  const pageCodes = Int32Array.from(codes, (code) => {
    if (code === MISSING_CODE) return MISSING_CODE;
    let local = renumbered.get(code);
    if (local === undefined) {
      const level = stored.get(Math.floor(code / levelChunk))?.[code % levelChunk];
      if (level === undefined) throw new Error(`dataset ${id}: column ${m.name} lacks stored level ${code}`);
      local = levels.push(level) - 1;
      renumbered.set(code, local);
    }
    return local;
  });
  return { type: "categorical", name: m.name, codes: pageCodes, levels };
}

function checkRange(id: string, name: string, stored: number, page: PageRange): void {
  if (stored < page.skip + page.rows) throw new Error(`dataset ${id}: column ${name} is missing stored rows ${page.from}–${page.to - 1}`);
}

/** A level range [offset, offset + limit) of a column with `count` levels: which level chunks hold it. */
export function levelRange(count: number, levelChunk: number, offset: number, limit: number): { from: number; to: number; firstChunk: number; lastChunk: number } {
  const from = Math.min(offset, count);
  const to = Math.min(count, from + limit);
  return { from, to, firstChunk: Math.floor(from / levelChunk), lastChunk: Math.floor((to - 1) / levelChunk) };
}

/** The requested levels out of the chunks read for levelRange. */
export function sliceLevels(chunks: readonly string[], range: { from: number; to: number; firstChunk: number }, levelChunk: number): string[] {
  const levels = chunks.flatMap((json) => JSON.parse(json) as string[]);
  const skip = range.from - range.firstChunk * levelChunk;
  return levels.slice(skip, skip + range.to - range.from);
}
