/** Models in PostgreSQL: the SQLite repository's guarded transitions (src/store/models.ts), statement for statement. */
import type pg from "pg";
import { newId, nowIso } from "../ids.js";
import type { JobStatus, ModelFilters, ModelRecord, Problem, ServingRow, StepSummary, TrainingOutcome, TrainSpec } from "../models.js";
import { MODEL_FIELDS, toModelRecord, type ModelRow } from "../records.js";
import { changes, one, rows, transaction } from "./connection.js";
import { insertEvaluation } from "./evaluations.js";

/** $2 is the name; NULL without one. */
const NEXT_VERSION = "CASE WHEN $2::text IS NULL THEN NULL ELSE (SELECT coalesce(max(version), 0) + 1 FROM models WHERE name = $2::text) END";

export class PgModelRepository {
  constructor(private readonly pool: pg.Pool) {}

  insert(spec: TrainSpec): Promise<ModelRecord> {
    return this.insertVersioned(
      spec.name,
      `INSERT INTO models (id, name, version, dataset_id, algorithm, task, target, spec_json, status, created_at) VALUES ($1, $2, ${NEXT_VERSION}, $3, $4, $5, $6, $7, 'queued', $8) RETURNING ${MODEL_FIELDS}`,
      [newId("md"), spec.name, spec.dataset_id, spec.algorithm, spec.task, spec.target, JSON.stringify(spec), nowIso()],
    );
  }

  /** A model that arrives as an imported artifact: already trained. */
  insertImported(spec: TrainSpec, artifact: Buffer, sha256: string, classes: string[] | null, pipeline: StepSummary[]): Promise<ModelRecord> {
    const now = nowIso();
    return this.insertVersioned(
      spec.name,
      `INSERT INTO models (id, name, version, dataset_id, algorithm, task, target, spec_json, status, progress, classes_json, artifact, artifact_sha256, pipeline_json, created_at, finished_at)
       VALUES ($1, $2, ${NEXT_VERSION}, $3, $4, $5, $6, $7, 'succeeded', 1, $8, $9, $10, $11, $12, $13) RETURNING ${MODEL_FIELDS}`,
      [newId("md"), spec.name, spec.dataset_id, spec.algorithm, spec.task, spec.target, JSON.stringify(spec), classes ? JSON.stringify(classes) : null, artifact, sha256, JSON.stringify(pipeline), now, now],
    );
  }

  /**
   * A named model takes its version under a transaction-scoped advisory lock on its name:
   * concurrent inserts of one name (from any process) queue there, and each INSERT's
   * snapshot, taken after the lock, sees the versions committed before it.
   */
  private async insertVersioned(name: string | null, sql: string, params: unknown[]): Promise<ModelRecord> {
    if (name === null) return toModelRecord((await one<ModelRow>(this.pool, sql, params))!);
    return transaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext('xigua model version'), hashtext($1))", [name]);
      return toModelRecord((await one<ModelRow>(client, sql, params))!);
    });
  }

  async get(id: string): Promise<ModelRecord | undefined> {
    const row = await one<ModelRow>(this.pool, `SELECT ${MODEL_FIELDS} FROM models WHERE id = $1`, [id]);
    return row && toModelRecord(row);
  }

  async list(filters: ModelFilters, limit: number, before: number | null): Promise<ModelRecord[]> {
    const params: unknown[] = [before ?? Number.MAX_SAFE_INTEGER];
    const where = ["seq < $1"];
    for (const field of ["dataset_id", "algorithm", "status"] as const) {
      if (!filters[field]) continue;
      params.push(filters[field]);
      where.push(`${field} = $${params.length}`);
    }
    params.push(limit);
    const found = await rows<ModelRow>(this.pool, `SELECT ${MODEL_FIELDS} FROM models WHERE ${where.join(" AND ")} ORDER BY seq DESC LIMIT $${params.length}`, params);
    return found.map(toModelRecord);
  }

  servingState(id: string): Promise<ServingRow | undefined> {
    return one(this.pool, "SELECT status, artifact_sha256, name, version FROM models WHERE id = $1", [id]);
  }

  async getArtifact(id: string): Promise<{ artifact: Buffer; sha256: string } | undefined> {
    const row = await one<{ artifact: Buffer; artifact_sha256: string }>(this.pool, "SELECT artifact, artifact_sha256 FROM models WHERE id = $1 AND artifact IS NOT NULL", [id]);
    return row && { artifact: row.artifact, sha256: row.artifact_sha256 };
  }

  async markRunning(id: string): Promise<boolean> {
    return (await changes(this.pool, "UPDATE models SET status = 'running', started_at = $1, progress = 0 WHERE id = $2 AND status = 'queued'", [nowIso(), id])) > 0;
  }

  async setProgress(id: string, progress: number): Promise<void> {
    await this.pool.query("UPDATE models SET progress = $1 WHERE id = $2 AND status = 'running'", [Math.min(1, Math.max(0, progress)), id]);
  }

  /** Model, its evaluation and the status change land together or not at all; the row is locked from the status check to the commit. */
  succeed(id: string, outcome: TrainingOutcome): Promise<boolean> {
    return transaction(this.pool, async (client) => {
      const current = await one<{ status: JobStatus }>(client, "SELECT status FROM models WHERE id = $1 FOR UPDATE", [id]);
      // "queued" too: the result can overtake the worker's "started" message (two channels).
      if (!current || (current.status !== "running" && current.status !== "queued")) return false;
      const evaluationId = outcome.evaluation ? (await insertEvaluation(client, { ...outcome.evaluation, model_id: id })).id : null;
      const now = nowIso();
      await client.query(
        `UPDATE models SET status = 'succeeded', progress = 1, artifact = $1, artifact_sha256 = $2, classes_json = $3, metrics_json = $4,
         warnings_json = $5, fit_seconds = $6, evaluation_id = $7, pipeline_json = $8, facts_json = $9, started_at = coalesce(started_at, $10), finished_at = $11 WHERE id = $12`,
        [
          outcome.artifact,
          outcome.sha256,
          outcome.classes ? JSON.stringify(outcome.classes) : null,
          outcome.metrics ? JSON.stringify(outcome.metrics) : null,
          outcome.warnings.length ? JSON.stringify(outcome.warnings) : null,
          outcome.fitSeconds,
          evaluationId,
          JSON.stringify(outcome.pipeline),
          outcome.facts ? JSON.stringify(outcome.facts) : null,
          now,
          now,
          id,
        ],
      );
      return true;
    });
  }

  /** Ends a job that has not ended yet; returns false when it already had. */
  async finishUnsuccessfully(id: string, status: "failed" | "cancelled", error: Problem): Promise<boolean> {
    return (
      (await changes(this.pool, "UPDATE models SET status = $1, error_json = $2, finished_at = $3 WHERE id = $4 AND status IN ('queued', 'running')", [status, JSON.stringify(error), nowIso(), id])) > 0
    );
  }

  /** The model and the aliases that pointed at its version. */
  delete(id: string): Promise<boolean> {
    return transaction(this.pool, async (client) => {
      await client.query("DELETE FROM registry_aliases WHERE (name, version) IN (SELECT name, version FROM models WHERE id = $1)", [id]);
      return (await changes(client, "DELETE FROM models WHERE id = $1", [id])) > 0;
    });
  }

  /** Queued jobs created before `createdBefore` (ISO time), oldest first: what a trainer sends to the queue again if the queue lost it. */
  async queued(createdBefore: string, limit: number): Promise<string[]> {
    return (await rows<{ id: string }>(this.pool, "SELECT id FROM models WHERE status = 'queued' AND created_at < $1 ORDER BY seq LIMIT $2", [createdBefore, limit])).map((r) => r.id);
  }

  /** Start-up recovery: `running` rows fail as interrupted; the ids of `queued` ones, to queue again. */
  recover(interrupted: Problem): Promise<string[]> {
    return transaction(this.pool, async (client) => {
      await client.query("UPDATE models SET status = 'failed', error_json = $1, finished_at = $2 WHERE status = 'running'", [JSON.stringify(interrupted), nowIso()]);
      return (await rows<{ id: string }>(client, "SELECT id FROM models WHERE status = 'queued' ORDER BY seq")).map((r) => r.id);
    });
  }
}
