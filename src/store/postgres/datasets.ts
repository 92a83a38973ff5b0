/**
 * Datasets in PostgreSQL: the same tables and chunk layout as the SQLite store
 * (src/store/datasets.ts), assembled by the same code (dataset-chunks.ts).
 */
import type pg from "pg";
import type { Frame } from "../../data/frame.js";
import { columnChunks } from "../../data/codec.js";
import { newId, nowIso } from "../ids.js";
import type { ColumnInfo, DatasetRecord, DatasetSource, DatasetSummary } from "../datasets.js";
import { DATASET_SUMMARY_FIELDS, HEAD_COLUMNS, boundedInfo, toDatasetRecord, toDatasetSummary, type DatasetRow, type DatasetSummaryRow } from "../records.js";
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
} from "../dataset-chunks.js";
import { changes, one, rows, transaction } from "./connection.js";

export class PgDatasetRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * One transaction: PostgreSQL has no database-wide write lock for a big upload to
   * hold (SQLite's store writes in short transactions for that), and a dataset that
   * is never half-written needs no `complete` flag nor clean-up at start-up.
   */
  async insert(name: string, frame: Frame, columns: ColumnInfo[], source: DatasetSource | null = null): Promise<DatasetSummary> {
    const id = newId("ds");
    const createdAt = nowIso();
    const head = columns.slice(0, HEAD_COLUMNS).map(boundedInfo);
    const row = await transaction(this.pool, async (client) => {
      const inserted = await one<DatasetSummaryRow>(
        client,
        `INSERT INTO datasets (id, name, row_count, column_count, columns_head_json, chunk_rows, level_chunk, created_at, source_json) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         RETURNING ${DATASET_SUMMARY_FIELDS}`,
        [id, name, frame.rowCount, columns.length, JSON.stringify(head), CHUNK_ROWS, LEVEL_CHUNK, createdAt, source && JSON.stringify(source)],
      );
      await client.query("INSERT INTO dataset_summaries (dataset_id, columns_json) VALUES ($1, $2)", [id, JSON.stringify(columns)]);
      // One statement for all column rows: a 100,000-column dataset is one round trip, not 100,000.
      await client.query(
        `INSERT INTO dataset_columns (dataset_id, position, name, type, level_count, info_json)
         SELECT $1, c.position, c.name, c.type, c.level_count, c.info_json FROM unnest($2::int[], $3::text[], $4::text[], $5::int[], $6::text[]) AS c(position, name, type, level_count, info_json)`,
        [
          id,
          frame.columns.map((_, position) => position),
          frame.columns.map((c) => c.name),
          frame.columns.map((c) => c.type),
          frame.columns.map((c) => (c.type === "categorical" ? c.levels.length : 0)),
          frame.columns.map((_, position) => JSON.stringify(boundedInfo(columns[position]))),
        ],
      );
      for (const [position, col] of frame.columns.entries()) {
        for (const [chunk, data] of columnChunks(col, CHUNK_ROWS).entries()) {
          await client.query({ name: "xigua-insert-chunk", text: "INSERT INTO dataset_chunks (dataset_id, position, chunk, data) VALUES ($1, $2, $3, $4)", values: [id, position, chunk, data] });
        }
        const levels = col.type === "categorical" ? col.levels : [];
        for (let at = 0, chunk = 0; at < levels.length; at += LEVEL_CHUNK, chunk++) {
          await client.query({
            name: "xigua-insert-levels",
            text: "INSERT INTO dataset_levels (dataset_id, position, chunk, levels_json) VALUES ($1, $2, $3, $4)",
            values: [id, position, chunk, JSON.stringify(levels.slice(at, at + LEVEL_CHUNK))],
          });
        }
      }
      return inserted!;
    });
    return toDatasetSummary(row);
  }

  /** Nothing to remove: insert() is one transaction, so no dataset is ever left half-written (and one another node is writing is invisible until it commits). */
  async removeIncomplete(): Promise<number> {
    return 0;
  }

  async get(id: string): Promise<DatasetRecord | undefined> {
    const row = await one<DatasetRow>(this.pool, "SELECT d.seq, d.id, d.name, d.row_count, s.columns_json, d.source_json, d.created_at FROM datasets d JOIN dataset_summaries s ON s.dataset_id = d.id WHERE d.id = $1", [id]);
    return row && toDatasetRecord(row);
  }

  async summary(id: string): Promise<DatasetSummary | undefined> {
    const row = await one<DatasetSummaryRow>(this.pool, `SELECT ${DATASET_SUMMARY_FIELDS} FROM datasets WHERE id = $1`, [id]);
    return row && toDatasetSummary(row);
  }

  /** Newest first; `before` is the seq of the last item of the previous page. */
  async list(limit: number, before: number | null): Promise<DatasetSummary[]> {
    const found = await rows<DatasetSummaryRow>(this.pool, `SELECT ${DATASET_SUMMARY_FIELDS} FROM datasets WHERE seq < $1 ORDER BY seq DESC LIMIT $2`, [before ?? Number.MAX_SAFE_INTEGER, limit]);
    return found.map(toDatasetSummary);
  }

  async columns(id: string, offset: number, limit: number): Promise<{ items: ColumnInfo[]; total: number } | undefined> {
    const meta = await one<{ column_count: number }>(this.pool, "SELECT column_count FROM datasets WHERE id = $1", [id]);
    if (!meta) return undefined;
    const found = await rows<{ info_json: string }>(this.pool, "SELECT info_json FROM dataset_columns WHERE dataset_id = $1 AND position >= $2 ORDER BY position LIMIT $3", [id, offset, limit]);
    return { items: found.map((r) => JSON.parse(r.info_json)), total: meta.column_count };
  }

  async levels(id: string, column: string, offset: number, limit: number): Promise<{ items: string[]; total: number } | undefined> {
    const meta = await one<{ position: number; level_count: number; level_chunk: number }>(
      this.pool,
      "SELECT c.position, c.level_count, d.level_chunk FROM dataset_columns c JOIN datasets d ON d.id = c.dataset_id WHERE c.dataset_id = $1 AND c.name = $2",
      [id, column],
    );
    if (!meta) return undefined;
    const range = levelRange(meta.level_count, meta.level_chunk, offset, limit);
    if (range.to === range.from) return { items: [], total: meta.level_count };
    const chunks = await rows<{ levels_json: string }>(
      this.pool,
      "SELECT levels_json FROM dataset_levels WHERE dataset_id = $1 AND position = $2 AND chunk BETWEEN $3 AND $4 ORDER BY chunk",
      [id, meta.position, range.firstChunk, range.lastChunk],
    );
    return { items: sliceLevels(chunks.map((c) => c.levels_json), range, meta.level_chunk), total: meta.level_count };
  }

  async delete(id: string): Promise<boolean> {
    return (await changes(this.pool, "DELETE FROM datasets WHERE id = $1", [id])) > 0;
  }

  async loadFrame(id: string): Promise<Frame | undefined> {
    const meta = await one<{ row_count: number }>(this.pool, "SELECT row_count FROM datasets WHERE id = $1", [id]);
    if (!meta) return undefined;
    const values = groupByPosition(await rows<ChunkRow>(this.pool, "SELECT position, data FROM dataset_chunks WHERE dataset_id = $1 ORDER BY position, chunk", [id]));
    const levels = concatLevels(await rows<{ position: number; levels_json: string }>(this.pool, "SELECT position, levels_json FROM dataset_levels WHERE dataset_id = $1 ORDER BY position, chunk", [id]));
    return assembleFrame(id, meta.row_count, await this.columnMetas(id), values, levels);
  }

  /** Rows [offset, offset + limit): the value chunks that hold them, and the level chunks their codes point into (one query for all columns). */
  async loadRows(id: string, offset: number, limit: number): Promise<{ frame: Frame; total: number } | undefined> {
    const meta = await one<{ row_count: number; chunk_rows: number; level_chunk: number }>(this.pool, "SELECT row_count, chunk_rows, level_chunk FROM datasets WHERE id = $1", [id]);
    if (!meta) return undefined;
    const page = pageRange(meta.row_count, meta.chunk_rows, offset, limit);
    const values =
      page.rows === 0
        ? new Map<number, Buffer[]>()
        : groupByPosition(
            await rows<ChunkRow>(this.pool, "SELECT position, data FROM dataset_chunks WHERE dataset_id = $1 AND chunk BETWEEN $2 AND $3 ORDER BY position, chunk", [
              id,
              page.firstChunk,
              page.lastChunk,
            ]),
          );
    const metas = await this.columnMetas(id);
    const decoded = metas.map((m) => decodePageColumn(id, m, values.get(m.position) ?? [], page));
    const wanted: { position: number; chunk: number }[] = [];
    decoded.forEach((d, i) => {
      if (d instanceof Int32Array) for (const chunk of pageLevelChunks(d, meta.level_chunk)) wanted.push({ position: metas[i].position, chunk });
    });
    const stored = new Map<number, Map<number, string[]>>();
    if (wanted.length > 0) {
      const found = await rows<{ position: number; chunk: number; levels_json: string }>(
        this.pool,
        "SELECT l.position, l.chunk, l.levels_json FROM dataset_levels l JOIN unnest($2::int[], $3::int[]) AS w(position, chunk) USING (position, chunk) WHERE l.dataset_id = $1",
        [id, wanted.map((w) => w.position), wanted.map((w) => w.chunk)],
      );
      for (const r of found) {
        const byChunk = stored.get(r.position) ?? new Map<number, string[]>();
        byChunk.set(r.chunk, JSON.parse(r.levels_json));
        stored.set(r.position, byChunk);
      }
    }
    const columns = decoded.map((d, i) => (d instanceof Int32Array ? pageCategorical(id, metas[i], d, meta.level_chunk, stored.get(metas[i].position) ?? new Map()) : d));
    return { frame: { rowCount: page.rows, columns }, total: page.total };
  }

  private columnMetas(id: string): Promise<ColumnMetaRow[]> {
    return rows<ColumnMetaRow>(this.pool, "SELECT position, name, type, level_count FROM dataset_columns WHERE dataset_id = $1 ORDER BY position", [id]);
  }
}
