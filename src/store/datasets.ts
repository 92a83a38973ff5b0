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
import type { Frame } from "../data/frame.js";
import { columnChunks } from "../data/codec.js";
import { newId, nowIso } from "./ids.js";
import { DATASET_SUMMARY_FIELDS, HEAD_COLUMNS, boundedInfo, toDatasetRecord, toDatasetSummary, type DatasetRow, type DatasetSummaryRow } from "./records.js";
import {
  CHUNK_ROWS,
  LEVEL_CHUNK,
  assembleFrame,
  concatLevels,
  decodePageColumn,
  groupByPosition,
  levelRange,
  pageCategorical,
  pageLevelChunks,
  pageRange,
  sliceLevels,
  type ChunkRow,
  type ColumnMetaRow,
} from "./dataset-chunks.js";

export { HEAD_COLUMNS, HEAD_LEVELS } from "./records.js";
export { CHUNK_ROWS, LEVEL_CHUNK } from "./dataset-chunks.js";

/** Chunk sizes for new datasets; tests make them small to cross chunk boundaries cheaply. */
export interface ChunkLayout {
  chunkRows?: number;
  levelChunk?: number;
  /** Blob bytes one write transaction of insert() carries at most (plus one chunk). */
  writeBatchBytes?: number;
}

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

/** Lineage: a dataset made by a model from another dataset (POST /v1/models/{id}/transform). */
export interface DatasetSource {
  model_id: string;
  dataset_id: string;
}

/** A dataset as listed: every column counted, only the first HEAD_COLUMNS described. */
export interface DatasetSummary {
  seq: number;
  id: string;
  name: string;
  row_count: number;
  column_count: number;
  columns_head: ColumnInfo[];
  /** null for an upload. */
  source: DatasetSource | null;
  created_at: string;
}

export interface DatasetRecord {
  seq: number;
  id: string;
  name: string;
  row_count: number;
  columns: ColumnInfo[];
  source: DatasetSource | null;
  created_at: string;
}

/** Default of ChunkLayout.writeBatchBytes: a few milliseconds of the write lock. */
const WRITE_BATCH_BYTES = 4 * 1024 * 1024;

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
  insert(name: string, frame: Frame, columns: ColumnInfo[], source: DatasetSource | null = null): DatasetSummary {
    const id = newId("ds");
    const createdAt = nowIso();
    const insertDataset = this.sql(
      "INSERT INTO datasets (id, name, row_count, column_count, columns_head_json, chunk_rows, level_chunk, created_at, source_json, complete) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
    );
    const insertSummaries = this.sql("INSERT INTO dataset_summaries (dataset_id, columns_json) VALUES (?, ?)");
    const insertColumn = this.sql("INSERT INTO dataset_columns (dataset_id, position, name, type, level_count, info_json) VALUES (?, ?, ?, ?, ?, ?)");
    const insertChunk = this.sql("INSERT INTO dataset_chunks (dataset_id, position, chunk, data) VALUES (?, ?, ?, ?)");
    const insertLevels = this.sql("INSERT INTO dataset_levels (dataset_id, position, chunk, levels_json) VALUES (?, ?, ?, ?)");
    this.db
      .transaction(() => {
        const head = columns.slice(0, HEAD_COLUMNS).map(boundedInfo);
        insertDataset.run(id, name, frame.rowCount, columns.length, JSON.stringify(head), this.chunkRows, this.levelChunk, createdAt, source && JSON.stringify(source));
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
    const row = this.sql("SELECT d.seq, d.id, d.name, d.row_count, s.columns_json, d.source_json, d.created_at FROM datasets d JOIN dataset_summaries s ON s.dataset_id = d.id WHERE d.id = ? AND d.complete = 1").get(id) as
      | DatasetRow
      | undefined;
    return row && toDatasetRecord(row);
  }

  summary(id: string): DatasetSummary | undefined {
    const row = this.sql(`SELECT ${DATASET_SUMMARY_FIELDS} FROM datasets WHERE id = ? AND complete = 1`).get(id) as DatasetSummaryRow | undefined;
    return row && toDatasetSummary(row);
  }

  /** Newest first; `before` is the seq of the last item of the previous page. */
  list(limit: number, before: number | null): DatasetSummary[] {
    const rows = this.sql(`SELECT ${DATASET_SUMMARY_FIELDS} FROM datasets WHERE seq < ? AND complete = 1 ORDER BY seq DESC LIMIT ?`)
      .all(before ?? Number.MAX_SAFE_INTEGER, limit) as DatasetSummaryRow[];
    return rows.map(toDatasetSummary);
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
    const range = levelRange(meta.level_count, meta.level_chunk, offset, limit);
    if (range.to === range.from) return { items: [], total: meta.level_count };
    const chunks = this.sql("SELECT levels_json FROM dataset_levels WHERE dataset_id = ? AND position = ? AND chunk BETWEEN ? AND ? ORDER BY chunk")
      .pluck()
      .all(id, meta.position, range.firstChunk, range.lastChunk) as string[];
    return { items: sliceLevels(chunks, range, meta.level_chunk), total: meta.level_count };
  }

  delete(id: string): boolean {
    return this.sql("DELETE FROM datasets WHERE id = ?").run(id).changes > 0;
  }

  loadFrame(id: string): Frame | undefined {
    const meta = this.sql("SELECT row_count FROM datasets WHERE id = ? AND complete = 1").get(id) as { row_count: number } | undefined;
    if (!meta) return undefined;
    const values = groupByPosition(this.sql("SELECT position, data FROM dataset_chunks WHERE dataset_id = ? ORDER BY position, chunk").all(id) as ChunkRow[]);
    const levels = concatLevels(
      this.sql("SELECT position, levels_json FROM dataset_levels WHERE dataset_id = ? ORDER BY position, chunk").iterate(id) as Iterable<{ position: number; levels_json: string }>,
    );
    return assembleFrame(id, meta.row_count, this.columnMetas(id), values, levels);
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
    const page = pageRange(meta.row_count, meta.chunk_rows, offset, limit);
    const values =
      page.rows === 0
        ? new Map<number, Buffer[]>()
        : groupByPosition(
            this.sql("SELECT position, data FROM dataset_chunks WHERE dataset_id = ? AND chunk BETWEEN ? AND ? ORDER BY position, chunk").all(
              id,
              page.firstChunk,
              page.lastChunk,
            ) as ChunkRow[],
          );
    const columns = this.columnMetas(id).map((m) => {
      const decoded = decodePageColumn(id, m, values.get(m.position) ?? [], page);
      return decoded instanceof Int32Array ? this.pageLevels(id, m, decoded, meta.level_chunk) : decoded;
    });
    return { frame: { rowCount: page.rows, columns }, total: page.total };
  }

  /** A page's categorical column with only the levels its codes use, read from their chunks. */
  private pageLevels(id: string, m: ColumnMetaRow, codes: Int32Array, levelChunk: number) {
    const chunkIndices = pageLevelChunks(codes, levelChunk);
    const stored = new Map<number, string[]>();
    if (chunkIndices.length > 0) {
      const rows = this.sql("SELECT chunk, levels_json FROM dataset_levels WHERE dataset_id = ? AND position = ? AND chunk IN (SELECT value FROM json_each(?))").all(
        id,
        m.position,
        JSON.stringify(chunkIndices),
      ) as { chunk: number; levels_json: string }[];
      for (const row of rows) stored.set(row.chunk, JSON.parse(row.levels_json));
    }
    return pageCategorical(id, m, codes, levelChunk, stored);
  }

  private columnMetas(id: string): ColumnMetaRow[] {
    return this.sql("SELECT position, name, type, level_count FROM dataset_columns WHERE dataset_id = ? ORDER BY position").all(id) as ColumnMetaRow[];
  }
}
