/**
 * Datasets: a metadata row, one row per column (name, type, summary), the column's
 * values in chunks of CHUNK_ROWS rows (dataset_chunks) and a categorical column's
 * levels in chunks of LEVEL_CHUNK (dataset_levels), so that a page of rows reads one
 * or two value chunks per column and the level chunks its codes point into, instead
 * of every column whole (an id-like column has as many levels as rows).
 *
 * The full column list (for training and spec resolution) is in dataset_summaries;
 * the datasets row keeps, for listings, its first HEAD_COLUMNS entries (levels
 * bounded) and the count: listing datasets must not read a 100,000-column summary
 * per dataset.
 */
import { statementCache, type Db } from "./database.js";
import { MISSING_CODE, columnLength, type Frame, type Column } from "../data/frame.js";
import { columnChunks, decodeCodes, decodeColumnParts } from "../data/codec.js";
import { newId, nowIso } from "./ids.js";

/**
 * Rows per chunk of new datasets (each records its own in chunk_rows): a numeric
 * chunk is 64 KiB; a page (≤ 500 rows) spans at most two.
 */
export const CHUNK_ROWS = 8192;

/** Levels per stored level chunk of new datasets (each records its own in level_chunk). */
export const LEVEL_CHUNK = 1024;

/** Chunk sizes for new datasets; tests make them small to cross chunk boundaries cheaply. */
export interface ChunkLayout {
  chunkRows?: number;
  levelChunk?: number;
  /** Blob bytes one write transaction of insert() carries at most (plus one chunk). */
  writeBatchBytes?: number;
}

/** Column summaries carried by a dataset listing or GET; the rest are paged (columns()). */
export const HEAD_COLUMNS = 100;

/** Levels a column summary shown to clients carries; the rest are paged (levels()). */
export const HEAD_LEVELS = 100;

/** Column metadata as the API shows it; computed once at upload and kept as JSON. */
export interface ColumnInfo {
  name: string;
  type: "numeric" | "categorical";
  missing_count: number;
  levels?: string[];
  /** In summaries shown to clients: the number of levels, of which `levels` holds the first HEAD_LEVELS. */
  level_count?: number;
  summary?: { min: number | null; max: number | null; mean: number | null; std: number | null };
}

/** The summary as clients see it: levels bounded, with their count. */
function boundedInfo(info: ColumnInfo): ColumnInfo {
  if (!info.levels) return info;
  return { ...info, levels: info.levels.slice(0, HEAD_LEVELS), level_count: info.levels.length };
}

/** A dataset as listed: every column counted, only the first HEAD_COLUMNS described. */
export interface DatasetSummary {
  seq: number;
  id: string;
  name: string;
  row_count: number;
  column_count: number;
  columns_head: ColumnInfo[];
  created_at: string;
}

export interface DatasetRecord {
  seq: number;
  id: string;
  name: string;
  row_count: number;
  columns: ColumnInfo[];
  created_at: string;
}

interface DatasetRow {
  seq: number;
  id: string;
  name: string;
  row_count: number;
  columns_json: string;
  created_at: string;
}

interface SummaryRow {
  seq: number;
  id: string;
  name: string;
  row_count: number;
  column_count: number;
  columns_head_json: string;
  created_at: string;
}

interface ColumnMetaRow {
  position: number;
  name: string;
  type: "numeric" | "categorical";
  level_count: number;
}

interface ChunkRow {
  position: number;
  data: Buffer;
}

const SUMMARY_FIELDS = "seq, id, name, row_count, column_count, columns_head_json, created_at";
/** Default of ChunkLayout.writeBatchBytes: a few milliseconds of the write lock. */
const WRITE_BATCH_BYTES = 4 * 1024 * 1024;

function toRecord(row: DatasetRow): DatasetRecord {
  return { seq: row.seq, id: row.id, name: row.name, row_count: row.row_count, columns: JSON.parse(row.columns_json), created_at: row.created_at };
}

function toSummary(row: SummaryRow): DatasetSummary {
  const { columns_head_json, ...rest } = row;
  return { ...rest, columns_head: JSON.parse(columns_head_json) };
}

export class DatasetRepository {
  private readonly sql: ReturnType<typeof statementCache>;

  private readonly chunkRows: number;
  private readonly levelChunk: number;
  private readonly writeBatchBytes: number;

  constructor(
    private readonly db: Db,
    layout: ChunkLayout = {},
  ) {
    this.sql = statementCache(db);
    this.chunkRows = layout.chunkRows ?? CHUNK_ROWS;
    this.levelChunk = layout.levelChunk ?? LEVEL_CHUNK;
    this.writeBatchBytes = layout.writeBatchBytes ?? WRITE_BATCH_BYTES;
  }

  /**
   * Written in short transactions, each holding SQLite's write lock for at most about
   * WRITE_BATCH_BYTES of blobs: another connection's write (the request thread's job
   * progress while the compute pool stores a big upload) then waits milliseconds, not
   * the whole upload. The dataset stays `complete = 0`, invisible to every read, until the
   * last one; a failure deletes what was written, and start-up removes what a dead writer
   * left (removeIncomplete).
   */
  insert(name: string, frame: Frame, columns: ColumnInfo[]): DatasetSummary {
    const id = newId("ds");
    const createdAt = nowIso();
    const insertDataset = this.sql(
      "INSERT INTO datasets (id, name, row_count, column_count, columns_head_json, chunk_rows, level_chunk, created_at, complete) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)",
    );
    const insertSummaries = this.sql("INSERT INTO dataset_summaries (dataset_id, columns_json) VALUES (?, ?)");
    const insertColumn = this.sql("INSERT INTO dataset_columns (dataset_id, position, name, type, level_count, info_json) VALUES (?, ?, ?, ?, ?, ?)");
    const insertChunk = this.sql("INSERT INTO dataset_chunks (dataset_id, position, chunk, data) VALUES (?, ?, ?, ?)");
    const insertLevels = this.sql("INSERT INTO dataset_levels (dataset_id, position, chunk, levels_json) VALUES (?, ?, ?, ?)");
    this.db
      .transaction(() => {
        const head = columns.slice(0, HEAD_COLUMNS).map(boundedInfo);
        insertDataset.run(id, name, frame.rowCount, columns.length, JSON.stringify(head), this.chunkRows, this.levelChunk, createdAt);
        insertSummaries.run(id, JSON.stringify(columns));
        frame.columns.forEach((col, position) => {
          const levels = col.type === "categorical" ? col.levels : [];
          insertColumn.run(id, position, col.name, col.type, levels.length, JSON.stringify(boundedInfo(columns[position])));
        });
      })
      .immediate();
    try {
      let batch: (() => void)[] = [];
      let bytes = 0;
      const flush = () => {
        const writes = batch;
        this.db.transaction(() => writes.forEach((write) => write())).immediate();
        batch = [];
        bytes = 0;
      };
      const add = (size: number, write: () => void) => {
        batch.push(write);
        bytes += size;
        if (bytes >= this.writeBatchBytes) flush();
      };
      frame.columns.forEach((col, position) => {
        columnChunks(col, this.chunkRows).forEach((data, chunk) => add(data.byteLength, () => insertChunk.run(id, position, chunk, data)));
        const levels = col.type === "categorical" ? col.levels : [];
        for (let at = 0, chunk = 0; at < levels.length; at += this.levelChunk, chunk++) {
          const json = JSON.stringify(levels.slice(at, at + this.levelChunk));
          add(json.length, () => insertLevels.run(id, position, chunk, json));
        }
      });
      if (batch.length > 0) flush();
      this.sql("UPDATE datasets SET complete = 1 WHERE id = ?").run(id);
    } catch (e) {
      this.sql("DELETE FROM datasets WHERE id = ?").run(id);
      throw e;
    }
    return this.summary(id)!;
  }

  /** Start-up: datasets whose writer died before their last transaction (nothing can be reading them). */
  removeIncomplete(): number {
    return this.sql("DELETE FROM datasets WHERE complete = 0").run().changes;
  }

  /** Every column described: for resolving specs and training, not for listings. */
  get(id: string): DatasetRecord | undefined {
    const row = this.sql("SELECT d.seq, d.id, d.name, d.row_count, s.columns_json, d.created_at FROM datasets d JOIN dataset_summaries s ON s.dataset_id = d.id WHERE d.id = ? AND d.complete = 1").get(id) as
      | DatasetRow
      | undefined;
    return row && toRecord(row);
  }

  summary(id: string): DatasetSummary | undefined {
    const row = this.sql(`SELECT ${SUMMARY_FIELDS} FROM datasets WHERE id = ? AND complete = 1`).get(id) as SummaryRow | undefined;
    return row && toSummary(row);
  }

  /** Newest first; `before` is the seq of the last item of the previous page. */
  list(limit: number, before: number | null): DatasetSummary[] {
    const rows = this.sql(`SELECT ${SUMMARY_FIELDS} FROM datasets WHERE seq < ? AND complete = 1 ORDER BY seq DESC LIMIT ?`)
      .all(before ?? Number.MAX_SAFE_INTEGER, limit) as SummaryRow[];
    return rows.map(toSummary);
  }

  /** Column descriptions [offset, offset + limit) and the column count; undefined for an unknown dataset. */
  columns(id: string, offset: number, limit: number): { items: ColumnInfo[]; total: number } | undefined {
    const meta = this.sql("SELECT column_count FROM datasets WHERE id = ? AND complete = 1").get(id) as { column_count: number } | undefined;
    if (!meta) return undefined;
    const rows = this.sql("SELECT info_json FROM dataset_columns WHERE dataset_id = ? AND position >= ? ORDER BY position LIMIT ?")
      .all(id, offset, limit) as { info_json: string }[];
    return { items: rows.map((r) => JSON.parse(r.info_json)), total: meta.column_count };
  }

  /**
   * Levels [offset, offset + limit) of one column and their count (none for a numeric
   * column); undefined when the dataset has no such column. Reads the level chunks
   * that hold the range only.
   */
  levels(id: string, column: string, offset: number, limit: number): { items: string[]; total: number } | undefined {
    const meta = this.sql(
      "SELECT c.position, c.level_count, d.level_chunk FROM dataset_columns c JOIN datasets d ON d.id = c.dataset_id WHERE c.dataset_id = ? AND c.name = ?",
    ).get(id, column) as { position: number; level_count: number; level_chunk: number } | undefined;
    if (!meta) return undefined;
    const from = Math.min(offset, meta.level_count);
    const to = Math.min(meta.level_count, from + limit);
    if (to === from) return { items: [], total: meta.level_count };
    const first = Math.floor(from / meta.level_chunk);
    const chunks = this.sql("SELECT levels_json FROM dataset_levels WHERE dataset_id = ? AND position = ? AND chunk BETWEEN ? AND ? ORDER BY chunk")
      .pluck()
      .all(id, meta.position, first, Math.floor((to - 1) / meta.level_chunk)) as string[];
    const levels = chunks.flatMap((json) => JSON.parse(json) as string[]);
    const skip = from - first * meta.level_chunk;
    return { items: levels.slice(skip, skip + to - from), total: meta.level_count };
  }

  delete(id: string): boolean {
    return this.sql("DELETE FROM datasets WHERE id = ?").run(id).changes > 0;
  }

  loadFrame(id: string): Frame | undefined {
    const meta = this.sql("SELECT row_count FROM datasets WHERE id = ? AND complete = 1").get(id) as { row_count: number } | undefined;
    if (!meta) return undefined;
    const values = groupByPosition(this.sql("SELECT position, data FROM dataset_chunks WHERE dataset_id = ? ORDER BY position, chunk").all(id) as ChunkRow[]);
    const levels = new Map<number, string[]>();
    for (const row of this.sql("SELECT position, levels_json FROM dataset_levels WHERE dataset_id = ? ORDER BY position, chunk").iterate(id) as Iterable<{ position: number; levels_json: string }>) {
      const chunk = JSON.parse(row.levels_json) as string[];
      const list = levels.get(row.position);
      if (list) for (const level of chunk) list.push(level);
      else levels.set(row.position, chunk);
    }
    const columns = this.columnMetas(id).map((m) => {
      const column = decodeColumnParts(m.name, m.type, values.get(m.position) ?? [], m.type === "categorical" ? (levels.get(m.position) ?? []) : undefined);
      const length = columnLength(column);
      if (length !== meta.row_count) throw new Error(`dataset ${id}: column ${m.name} has ${length} stored rows, expected ${meta.row_count}`);
      if (column.type === "categorical" && column.levels.length !== m.level_count) throw new Error(`dataset ${id}: column ${m.name} has ${column.levels.length} stored levels, expected ${m.level_count}`);
      return column;
    });
    return { rowCount: meta.row_count, columns };
  }

  /**
   * Rows [offset, offset + limit) as a Frame of just those rows, and the dataset's
   * row count. Reads only the value chunks that hold them and, for a categorical
   * column, the level chunks its codes there point into; such a column comes back
   * with just those levels (codes renumbered), which is all a page shows.
   */
  loadRows(id: string, offset: number, limit: number): { frame: Frame; total: number } | undefined {
    const meta = this.sql("SELECT row_count, chunk_rows, level_chunk FROM datasets WHERE id = ? AND complete = 1").get(id) as
      | { row_count: number; chunk_rows: number; level_chunk: number }
      | undefined;
    if (!meta) return undefined;
    const total = meta.row_count;
    const from = Math.min(offset, total);
    const to = Math.min(total, from + limit);
    const first = Math.floor(from / meta.chunk_rows);
    const values =
      to === from
        ? new Map<number, Buffer[]>()
        : groupByPosition(
            this.sql("SELECT position, data FROM dataset_chunks WHERE dataset_id = ? AND chunk BETWEEN ? AND ? ORDER BY position, chunk").all(
              id,
              first,
              Math.floor((to - 1) / meta.chunk_rows),
            ) as ChunkRow[],
          );
    const rows = to - from;
    const skip = rows === 0 ? 0 : from - first * meta.chunk_rows;
    const columns = this.columnMetas(id).map((m): Column => {
      const parts = values.get(m.position) ?? [];
      if (m.type === "numeric") {
        const column = decodeColumnParts(m.name, "numeric", parts);
        checkRange(id, m.name, columnLength(column), skip + rows, from, to);
        return sliceColumn(column, skip, skip + rows);
      }
      const codes = decodeCodes(m.name, parts, m.level_count);
      checkRange(id, m.name, codes.length, skip + rows, from, to);
      return this.pageLevels(id, m, codes.subarray(skip, skip + rows), meta.level_chunk);
    });
    return { frame: { rowCount: rows, columns }, total };
  }

  /** A page's categorical column with only the levels its codes use, read from their chunks. */
  private pageLevels(id: string, m: ColumnMetaRow, codes: Int32Array, levelChunk: number): Column {
    const chunkIndices = [...new Set(Array.from(codes, (c) => Math.floor(c / levelChunk)).filter((k) => k >= 0))];
    const stored = new Map<number, string[]>();
    if (chunkIndices.length > 0) {
      const rows = this.sql("SELECT chunk, levels_json FROM dataset_levels WHERE dataset_id = ? AND position = ? AND chunk IN (SELECT value FROM json_each(?))").all(
        id,
        m.position,
        JSON.stringify(chunkIndices),
      ) as { chunk: number; levels_json: string }[];
      for (const row of rows) stored.set(row.chunk, JSON.parse(row.levels_json));
    }
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

  private columnMetas(id: string): ColumnMetaRow[] {
    return this.sql("SELECT position, name, type, level_count FROM dataset_columns WHERE dataset_id = ? ORDER BY position").all(id) as ColumnMetaRow[];
  }
}

function groupByPosition(chunks: readonly ChunkRow[]): Map<number, Buffer[]> {
  const parts = new Map<number, Buffer[]>();
  for (const c of chunks) {
    const list = parts.get(c.position);
    if (list) list.push(c.data);
    else parts.set(c.position, [c.data]);
  }
  return parts;
}

function checkRange(id: string, name: string, stored: number, needed: number, from: number, to: number): void {
  if (stored < needed) throw new Error(`dataset ${id}: column ${name} is missing stored rows ${from}–${to - 1}`);
}

function sliceColumn(c: Column, from: number, to: number): Column {
  return c.type === "numeric" ? { ...c, values: c.values.subarray(from, to) } : { ...c, codes: c.codes.subarray(from, to) };
}
