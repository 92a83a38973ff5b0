/**
 * Evaluations. Every write takes the next `version` (a table-wide counter), so a
 * dashboard's ETag is just count + highest version under its filters: one
 * indexed query, and a poll that finds nothing new costs almost nothing.
 */
import { statementCache, type Db } from "./database.js";
import { newId, nowIso } from "./ids.js";
import type { Problem } from "./models.js";
import { toEvaluationRecord, type EvaluationRow } from "./records.js";

export type EvaluationStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

/** The computed part of an evaluation (metrics, per_class, confusion_matrix, curves, folds, …), stored as JSON. */
export type EvaluationResult = Record<string, unknown>;

export interface NewEvaluation {
  model_id?: string | null;
  dataset_id: string;
  algorithm: string;
  task: string;
  method: string;
  status: EvaluationStatus;
  spec: Record<string, unknown>;
  result?: EvaluationResult | null;
  search_id?: string | null;
}

export interface EvaluationRecord {
  seq: number;
  id: string;
  model_id: string | null;
  dataset_id: string;
  algorithm: string;
  task: string;
  method: string;
  status: EvaluationStatus;
  spec: Record<string, unknown>;
  result: EvaluationResult | null;
  error: Problem | null;
  created_at: string;
  finished_at: string | null;
  updated_at: string;
  version: number;
  progress: number;
  search_id: string | null;
}

export interface EvaluationFilters {
  model_id?: string;
  dataset_id?: string;
  algorithm?: string;
  updated_since?: string;
}

export const NEXT_VERSION = "(SELECT coalesce(max(version), 0) + 1 FROM evaluations)";

function whereClause(filters: EvaluationFilters): string {
  const where = ["1 = 1"];
  if (filters.model_id) where.push("model_id = @model_id");
  if (filters.dataset_id) where.push("dataset_id = @dataset_id");
  if (filters.algorithm) where.push("algorithm = @algorithm");
  if (filters.updated_since) where.push("updated_at > @updated_since");
  return where.join(" AND ");
}

export class EvaluationRepository {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(private readonly db: Db) {
    this.sql = statementCache(db);
  }

  insert(e: NewEvaluation): EvaluationRecord {
    const id = newId("ev");
    const now = nowIso();
    const finished = e.status === "succeeded" || e.status === "failed" ? now : null;
    this.sql(
        `INSERT INTO evaluations (id, model_id, search_id, dataset_id, algorithm, task, method, status, progress, spec_json, result_json, created_at, finished_at, updated_at, version)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${NEXT_VERSION})`,
      )
      .run(id, e.model_id ?? null, e.search_id ?? null, e.dataset_id, e.algorithm, e.task, e.method, e.status, e.status === "succeeded" ? 1 : 0, JSON.stringify(e.spec), e.result ? JSON.stringify(e.result) : null, now, finished, now);
    return this.get(id)!;
  }

  get(id: string): EvaluationRecord | undefined {
    const row = this.sql("SELECT * FROM evaluations WHERE id = ?").get(id) as EvaluationRow | undefined;
    return row && toEvaluationRecord(row);
  }

  markRunning(id: string): boolean {
    return (
      this.sql(`UPDATE evaluations SET status = 'running', updated_at = ?, version = ${NEXT_VERSION} WHERE id = ? AND status = 'queued'`)
        .run(nowIso(), id).changes > 0
    );
  }

  setProgress(id: string, progress: number): void {
    this.sql(`UPDATE evaluations SET progress = ?, updated_at = ?, version = ${NEXT_VERSION} WHERE id = ? AND status = 'running'`).run(
      Math.min(1, Math.max(0, progress)),
      nowIso(),
      id,
    );
  }

  succeed(id: string, result: EvaluationResult): boolean {
    const now = nowIso();
    return (
      this.sql(
          `UPDATE evaluations SET status = 'succeeded', progress = 1, result_json = ?, finished_at = ?, updated_at = ?, version = ${NEXT_VERSION}
           WHERE id = ? AND status IN ('queued', 'running')`,
        )
        .run(JSON.stringify(result), now, now, id).changes > 0
    );
  }

  finishUnsuccessfully(id: string, status: "failed" | "cancelled", error: Problem): boolean {
    const now = nowIso();
    return (
      this.sql(
          `UPDATE evaluations SET status = ?, error_json = ?, finished_at = ?, updated_at = ?, version = ${NEXT_VERSION}
           WHERE id = ? AND status IN ('queued', 'running')`,
        )
        .run(status, JSON.stringify(error), now, now, id).changes > 0
    );
  }

  list(filters: EvaluationFilters, limit: number, before: number | null): EvaluationRecord[] {
    const rows = this.sql(`SELECT * FROM evaluations WHERE ${whereClause(filters)} AND seq < @before ORDER BY seq DESC LIMIT @limit`)
      .all({ ...filters, before: before ?? Number.MAX_SAFE_INTEGER, limit }) as EvaluationRow[];
    return rows.map(toEvaluationRecord);
  }

  /** Changes whenever any evaluation under these filters is added, changed or removed. */
  fingerprint(filters: EvaluationFilters): string {
    const row = this.sql(`SELECT count(*) AS n, coalesce(max(version), 0) AS v FROM evaluations WHERE ${whereClause(filters)}`)
      .get(filters) as { n: number; v: number };
    return `${row.n}-${row.v}`;
  }

  /** Queued/running evaluations left by a dead process. */
  /** As ModelRepository.queued; a search's candidates are not listed (the search runs them). */
  queued(createdBefore: string, limit: number): string[] {
    return (
      this.sql("SELECT id FROM evaluations WHERE status = 'queued' AND search_id IS NULL AND created_at < ? ORDER BY seq LIMIT ?").all(createdBefore, limit) as { id: string }[]
    ).map((r) => r.id);
  }

  recover(interrupted: Problem): string[] {
    return this.db
      .transaction(() => {
        const now = nowIso();
        this.sql(
            `UPDATE evaluations SET status = 'failed', error_json = ?, finished_at = ?, updated_at = ?, version = ${NEXT_VERSION} WHERE status = 'running'`,
          )
          .run(JSON.stringify(interrupted), now, now);
        return (this.sql("SELECT id FROM evaluations WHERE status = 'queued' ORDER BY seq").all() as { id: string }[]).map((r) => r.id);
      })
      .immediate();
  }
}
