/** Datasets: metadata row + one blob per column (DESIGN.md's Frame as stored). */
import { statementCache, type Db } from "./database.js";
import type { Frame, Column } from "../data/frame.js";
import { encodeColumn, decodeColumn } from "../data/codec.js";
import { newId, nowIso } from "./ids.js";

/** Column metadata as the API shows it; computed once at upload and kept as JSON. */
export interface ColumnInfo {
  name: string;
  type: "numeric" | "categorical";
  missing_count: number;
  levels?: string[];
  summary?: { min: number | null; max: number | null; mean: number | null; std: number | null };
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

function toRecord(row: DatasetRow): DatasetRecord {
  return { seq: row.seq, id: row.id, name: row.name, row_count: row.row_count, columns: JSON.parse(row.columns_json), created_at: row.created_at };
}

export class DatasetRepository {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(private readonly db: Db) {
    this.sql = statementCache(db);
  }

  /** One transaction: a failed upload leaves nothing behind. */
  insert(name: string, frame: Frame, columns: ColumnInfo[]): DatasetRecord {
    const id = newId("ds");
    const createdAt = nowIso();
    const insertDataset = this.sql(
      "INSERT INTO datasets (id, name, row_count, columns_json, created_at) VALUES (?, ?, ?, ?, ?)",
    );
    const insertColumn = this.sql(
      "INSERT INTO dataset_columns (dataset_id, position, name, type, levels_json, data) VALUES (?, ?, ?, ?, ?, ?)",
    );
    this.db
      .transaction(() => {
        insertDataset.run(id, name, frame.rowCount, JSON.stringify(columns), createdAt);
        frame.columns.forEach((col, position) => {
          const enc = encodeColumn(col);
          insertColumn.run(id, position, col.name, enc.type, enc.levels ? JSON.stringify(enc.levels) : null, enc.bytes);
        });
      })
      .immediate();
    return this.get(id)!;
  }

  get(id: string): DatasetRecord | undefined {
    const row = this.sql("SELECT * FROM datasets WHERE id = ?").get(id) as DatasetRow | undefined;
    return row && toRecord(row);
  }

  /** Newest first; `before` is the seq of the last item of the previous page. */
  list(limit: number, before: number | null): DatasetRecord[] {
    const rows = this.sql("SELECT * FROM datasets WHERE seq < ? ORDER BY seq DESC LIMIT ?")
      .all(before ?? Number.MAX_SAFE_INTEGER, limit) as DatasetRow[];
    return rows.map(toRecord);
  }

  delete(id: string): boolean {
    return this.sql("DELETE FROM datasets WHERE id = ?").run(id).changes > 0;
  }

  loadFrame(id: string): Frame | undefined {
    const meta = this.sql("SELECT row_count FROM datasets WHERE id = ?").get(id) as { row_count: number } | undefined;
    if (!meta) return undefined;
    const rows = this.sql("SELECT name, type, levels_json, data FROM dataset_columns WHERE dataset_id = ? ORDER BY position")
      .all(id) as { name: string; type: "numeric" | "categorical"; levels_json: string | null; data: Buffer }[];
    const columns: Column[] = rows.map((r) => decodeColumn(r.name, r.type, r.data, r.levels_json ? JSON.parse(r.levels_json) : undefined));
    return { rowCount: meta.row_count, columns };
  }
}
