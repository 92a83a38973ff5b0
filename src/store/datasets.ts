/**
 * Datasets: a metadata row, one row per column (name, type, levels, summary) and
 * the column's values in chunks of CHUNK_ROWS rows (dataset_chunks), so that a
 * page of rows reads one or two chunks per column instead of every column whole.
 *
 * The metadata row keeps the full column list (columns_json, for training and
 * spec resolution) and, for listings, its first HEAD_COLUMNS entries and the
 * count: listing datasets must not parse a 100,000-column summary per dataset.
 */
import { statementCache, type Db } from "./database.js";
import { columnLength, type Frame, type Column } from "../data/frame.js";
import { columnChunks, decodeColumnParts } from "../data/codec.js";
import { newId, nowIso } from "./ids.js";

/**
 * Rows per chunk of new datasets (each records its own in chunk_rows): a numeric
 * chunk is 64 KiB; a page (≤ 500 rows) spans at most two.
 */
export const CHUNK_ROWS = 8192;

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
  levels_json: string | null;
}

const SUMMARY_FIELDS = "seq, id, name, row_count, column_count, columns_head_json, created_at";

function toRecord(row: DatasetRow): DatasetRecord {
  return { seq: row.seq, id: row.id, name: row.name, row_count: row.row_count, columns: JSON.parse(row.columns_json), created_at: row.created_at };
}

function toSummary(row: SummaryRow): DatasetSummary {
  const { columns_head_json, ...rest } = row;
  return { ...rest, columns_head: JSON.parse(columns_head_json) };
}

export class DatasetRepository {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(
    private readonly db: Db,
    /** Rows per chunk for new datasets; tests make it small to cross chunk boundaries cheaply. */
    private readonly chunkRows = CHUNK_ROWS,
  ) {
    this.sql = statementCache(db);
  }

  /** One transaction: a failed upload leaves nothing behind. */
  insert(name: string, frame: Frame, columns: ColumnInfo[]): DatasetSummary {
    const id = newId("ds");
    const createdAt = nowIso();
    const insertDataset = this.sql(
      "INSERT INTO datasets (id, name, row_count, columns_json, column_count, columns_head_json, chunk_rows, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const insertColumn = this.sql(
      "INSERT INTO dataset_columns (dataset_id, position, name, type, levels_json, info_json) VALUES (?, ?, ?, ?, ?, ?)",
    );
    const insertChunk = this.sql("INSERT INTO dataset_chunks (dataset_id, position, chunk, data) VALUES (?, ?, ?, ?)");
    this.db
      .transaction(() => {
        const head = columns.slice(0, HEAD_COLUMNS).map(boundedInfo);
        insertDataset.run(id, name, frame.rowCount, JSON.stringify(columns), columns.length, JSON.stringify(head), this.chunkRows, createdAt);
        frame.columns.forEach((col, position) => {
          const levels = col.type === "categorical" ? JSON.stringify(col.levels) : null;
          insertColumn.run(id, position, col.name, col.type, levels, JSON.stringify(boundedInfo(columns[position])));
          columnChunks(col, this.chunkRows).forEach((bytes, chunk) => insertChunk.run(id, position, chunk, bytes));
        });
      })
      .immediate();
    return this.summary(id)!;
  }

  /** Every column described: for resolving specs and training, not for listings. */
  get(id: string): DatasetRecord | undefined {
    const row = this.sql("SELECT * FROM datasets WHERE id = ?").get(id) as DatasetRow | undefined;
    return row && toRecord(row);
  }

  summary(id: string): DatasetSummary | undefined {
    const row = this.sql(`SELECT ${SUMMARY_FIELDS} FROM datasets WHERE id = ?`).get(id) as SummaryRow | undefined;
    return row && toSummary(row);
  }

  /** Newest first; `before` is the seq of the last item of the previous page. */
  list(limit: number, before: number | null): DatasetSummary[] {
    const rows = this.sql(`SELECT ${SUMMARY_FIELDS} FROM datasets WHERE seq < ? ORDER BY seq DESC LIMIT ?`)
      .all(before ?? Number.MAX_SAFE_INTEGER, limit) as SummaryRow[];
    return rows.map(toSummary);
  }

  /** Column descriptions [offset, offset + limit) and the column count; undefined for an unknown dataset. */
  columns(id: string, offset: number, limit: number): { items: ColumnInfo[]; total: number } | undefined {
    const meta = this.sql("SELECT column_count FROM datasets WHERE id = ?").get(id) as { column_count: number } | undefined;
    if (!meta) return undefined;
    const rows = this.sql("SELECT info_json FROM dataset_columns WHERE dataset_id = ? AND position >= ? ORDER BY position LIMIT ?")
      .all(id, offset, limit) as { info_json: string }[];
    return { items: rows.map((r) => JSON.parse(r.info_json)), total: meta.column_count };
  }

  /**
   * Levels [offset, offset + limit) of one column and their count (none for a numeric
   * column); undefined when the dataset has no such column. The slice is cut by
   * SQLite, so no JavaScript array of every level is built.
   */
  levels(id: string, column: string, offset: number, limit: number): { items: string[]; total: number } | undefined {
    const meta = this.sql("SELECT json_array_length(coalesce(levels_json, '[]')) AS total FROM dataset_columns WHERE dataset_id = ? AND name = ?").get(id, column) as
      | { total: number }
      | undefined;
    if (!meta) return undefined;
    const items = this.sql(
      "SELECT j.value AS level FROM dataset_columns c, json_each(coalesce(c.levels_json, '[]')) j WHERE c.dataset_id = ? AND c.name = ? AND j.key >= ? ORDER BY j.key LIMIT ?",
    )
      .pluck()
      .all(id, column, offset, limit) as string[];
    return { items, total: meta.total };
  }

  delete(id: string): boolean {
    return this.sql("DELETE FROM datasets WHERE id = ?").run(id).changes > 0;
  }

  loadFrame(id: string): Frame | undefined {
    const meta = this.sql("SELECT row_count FROM datasets WHERE id = ?").get(id) as { row_count: number } | undefined;
    if (!meta) return undefined;
    const chunks = this.sql("SELECT position, data FROM dataset_chunks WHERE dataset_id = ? ORDER BY position, chunk").all(id) as { position: number; data: Buffer }[];
    const columns = this.assemble(id, chunks);
    for (const c of columns) {
      const length = columnLength(c);
      if (length !== meta.row_count) throw new Error(`dataset ${id}: column ${c.name} has ${length} stored rows, expected ${meta.row_count}`);
    }
    return { rowCount: meta.row_count, columns };
  }

  /**
   * Rows [offset, offset + limit) as a Frame of just those rows, and the dataset's
   * row count; reads only the chunks that hold them.
   */
  loadRows(id: string, offset: number, limit: number): { frame: Frame; total: number } | undefined {
    const meta = this.sql("SELECT row_count, chunk_rows FROM datasets WHERE id = ?").get(id) as { row_count: number; chunk_rows: number } | undefined;
    if (!meta) return undefined;
    const total = meta.row_count;
    const from = Math.min(offset, total);
    const to = Math.min(total, from + limit);
    if (to === from) return { frame: { rowCount: 0, columns: this.assemble(id, []) }, total };
    const first = Math.floor(from / meta.chunk_rows);
    const last = Math.floor((to - 1) / meta.chunk_rows);
    const chunks = this.sql("SELECT position, data FROM dataset_chunks WHERE dataset_id = ? AND chunk BETWEEN ? AND ? ORDER BY position, chunk")
      .all(id, first, last) as { position: number; data: Buffer }[];
    const skip = from - first * meta.chunk_rows;
    const columns = this.assemble(id, chunks).map((c) => {
      const length = columnLength(c);
      if (length < skip + to - from) throw new Error(`dataset ${id}: column ${c.name} is missing stored rows ${from}–${to - 1}`);
      return sliceColumn(c, skip, skip + to - from);
    });
    return { frame: { rowCount: to - from, columns }, total };
  }

  /** Columns in position order from their chunks (already in position, chunk order). */
  private assemble(id: string, chunks: readonly { position: number; data: Buffer }[]): Column[] {
    const metas = this.sql("SELECT position, name, type, levels_json FROM dataset_columns WHERE dataset_id = ? ORDER BY position").all(id) as ColumnMetaRow[];
    const parts = new Map<number, Buffer[]>();
    for (const c of chunks) {
      const list = parts.get(c.position);
      if (list) list.push(c.data);
      else parts.set(c.position, [c.data]);
    }
    return metas.map((m) => decodeColumnParts(m.name, m.type, parts.get(m.position) ?? [], m.levels_json ? JSON.parse(m.levels_json) : undefined));
  }
}

function sliceColumn(c: Column, from: number, to: number): Column {
  return c.type === "numeric" ? { ...c, values: c.values.subarray(from, to) } : { ...c, codes: c.codes.subarray(from, to) };
}
