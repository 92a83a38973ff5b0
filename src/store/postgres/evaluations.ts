/** Evaluations in PostgreSQL: the SQLite repository's statements (src/store/evaluations.ts), with versions from a locked counter. */
import type pg from "pg";
import { newId, nowIso } from "../ids.js";
import type { EvaluationFilters, EvaluationRecord, EvaluationResult, NewEvaluation } from "../evaluations.js";
import type { Problem } from "../models.js";
import { toEvaluationRecord, type EvaluationRow } from "../records.js";
import { changes, one, rows, transaction, type Queryable } from "./connection.js";

/**
 * Prefix a write with this and use NEXT_VERSION for its version: the counter row stays
 * locked until the write commits, so versions commit in the order they were taken
 * (max(version) + 1, SQLite's rule, gives two concurrent PostgreSQL writers the same one).
 */
export const WITH_NEXT_VERSION = "WITH next AS (UPDATE evaluation_version SET version = version + 1 RETURNING version)";
export const NEXT_VERSION = "(SELECT version FROM next)";

/** The filters as SQL conditions over $1.., and their values. */
function whereClause(filters: EvaluationFilters, params: unknown[]): string {
  const where = ["true"];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(`${sql} $${params.length}`);
  };
  if (filters.model_id) add("model_id =", filters.model_id);
  if (filters.dataset_id) add("dataset_id =", filters.dataset_id);
  if (filters.algorithm) add("algorithm =", filters.algorithm);
  if (filters.updated_since) add("updated_at >", filters.updated_since);
  return where.join(" AND ");
}

/** One evaluation row, on the pool or inside a caller's transaction (a model's succeed). */
export async function insertEvaluation(db: Queryable, e: NewEvaluation): Promise<EvaluationRecord> {
  const now = nowIso();
  const finished = e.status === "succeeded" || e.status === "failed" ? now : null;
  const row = await one<EvaluationRow>(
    db,
    `${WITH_NEXT_VERSION}
     INSERT INTO evaluations (id, model_id, search_id, dataset_id, algorithm, task, method, status, progress, spec_json, result_json, created_at, finished_at, updated_at, version)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, ${NEXT_VERSION}) RETURNING *`,
    [newId("ev"), e.model_id ?? null, e.search_id ?? null, e.dataset_id, e.algorithm, e.task, e.method, e.status, e.status === "succeeded" ? 1 : 0, JSON.stringify(e.spec), e.result ? JSON.stringify(e.result) : null, now, finished, now],
  );
  return toEvaluationRecord(row!);
}

export class PgEvaluationRepository {
  constructor(private readonly pool: pg.Pool) {}

  insert(e: NewEvaluation): Promise<EvaluationRecord> {
    return insertEvaluation(this.pool, e);
  }

  async get(id: string): Promise<EvaluationRecord | undefined> {
    const row = await one<EvaluationRow>(this.pool, "SELECT * FROM evaluations WHERE id = $1", [id]);
    return row && toEvaluationRecord(row);
  }

  async markRunning(id: string): Promise<boolean> {
    return (await changes(this.pool, `${WITH_NEXT_VERSION} UPDATE evaluations SET status = 'running', updated_at = $1, version = ${NEXT_VERSION} WHERE id = $2 AND status = 'queued'`, [nowIso(), id])) > 0;
  }

  async setProgress(id: string, progress: number): Promise<void> {
    await this.pool.query(`${WITH_NEXT_VERSION} UPDATE evaluations SET progress = $1, updated_at = $2, version = ${NEXT_VERSION} WHERE id = $3 AND status = 'running'`, [
      Math.min(1, Math.max(0, progress)),
      nowIso(),
      id,
    ]);
  }

  async succeed(id: string, result: EvaluationResult): Promise<boolean> {
    const now = nowIso();
    return (
      (await changes(
        this.pool,
        `${WITH_NEXT_VERSION} UPDATE evaluations SET status = 'succeeded', progress = 1, result_json = $1, finished_at = $2, updated_at = $3, version = ${NEXT_VERSION}
         WHERE id = $4 AND status IN ('queued', 'running')`,
        [JSON.stringify(result), now, now, id],
      )) > 0
    );
  }

  async finishUnsuccessfully(id: string, status: "failed" | "cancelled", error: Problem): Promise<boolean> {
    const now = nowIso();
    return (
      (await changes(
        this.pool,
        `${WITH_NEXT_VERSION} UPDATE evaluations SET status = $1, error_json = $2, finished_at = $3, updated_at = $4, version = ${NEXT_VERSION}
         WHERE id = $5 AND status IN ('queued', 'running')`,
        [status, JSON.stringify(error), now, now, id],
      )) > 0
    );
  }

  async list(filters: EvaluationFilters, limit: number, before: number | null): Promise<EvaluationRecord[]> {
    const params: unknown[] = [];
    const where = whereClause(filters, params);
    params.push(before ?? Number.MAX_SAFE_INTEGER, limit);
    const found = await rows<EvaluationRow>(this.pool, `SELECT * FROM evaluations WHERE ${where} AND seq < $${params.length - 1} ORDER BY seq DESC LIMIT $${params.length}`, params);
    return found.map(toEvaluationRecord);
  }

  /** Changes whenever any evaluation under these filters is added, changed or removed. */
  async fingerprint(filters: EvaluationFilters): Promise<string> {
    const params: unknown[] = [];
    const row = await one<{ n: number; v: number }>(this.pool, `SELECT count(*) AS n, coalesce(max(version), 0) AS v FROM evaluations WHERE ${whereClause(filters, params)}`, params);
    return `${row!.n}-${row!.v}`;
  }

  /** Queued/running evaluations left by a dead process. */
  /** As the models' queued(); a search's candidates are not listed (the search runs them). */
  async queued(createdBefore: string, limit: number): Promise<string[]> {
    return (
      await rows<{ id: string }>(this.pool, "SELECT id FROM evaluations WHERE status = 'queued' AND search_id IS NULL AND created_at < $1 ORDER BY seq LIMIT $2", [createdBefore, limit])
    ).map((r) => r.id);
  }

  recover(interrupted: Problem): Promise<string[]> {
    return transaction(this.pool, async (client) => {
      const now = nowIso();
      await client.query(
        `${WITH_NEXT_VERSION} UPDATE evaluations SET status = 'failed', error_json = $1, finished_at = $2, updated_at = $3, version = ${NEXT_VERSION} WHERE status = 'running'`,
        [JSON.stringify(interrupted), now, now],
      );
      return (await rows<{ id: string }>(client, "SELECT id FROM evaluations WHERE status = 'queued' ORDER BY seq")).map((r) => r.id);
    });
  }
}
