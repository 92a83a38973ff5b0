/**
 * Models: a model is also its training job. Status moves
 * queued → running → succeeded | failed | cancelled, and each move is one
 * guarded UPDATE so a late message from a worker cannot undo a cancel.
 */
import { statementCache, type Db } from "./database.js";
import { newId, nowIso } from "./ids.js";
import type { EvaluationRepository, NewEvaluation } from "./evaluations.js";
import { MODEL_FIELDS, toModelRecord, type ModelRow } from "./records.js";

export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code: string;
  errors?: { path: string; message: string }[];
}

/** What the client asked for, resolved (defaults filled in). Stored as JSON; the worker trains from it. */
export interface TrainSpec {
  algorithm: string;
  params: Record<string, unknown>;
  task: string;
  dataset_id: string;
  target: string | null;
  features: string[];
  preprocessing: Record<string, unknown>[];
  validation: Record<string, unknown>;
  seed: number;
  positive_class: string | null;
  name: string | null;
}

/** One fitted preprocessing step, described for people (stored as given). */
export interface StepSummary {
  step: string;
  automatic: boolean;
  options: unknown;
  fitted: Record<string, unknown> | null;
}

export interface ModelRecord {
  seq: number;
  id: string;
  name: string | null;
  /** 1 + the highest version of `name` when the model was created; null without a name. */
  version: number | null;
  status: JobStatus;
  progress: number;
  spec: TrainSpec;
  classes: string[] | null;
  evaluation_id: string | null;
  metrics: Record<string, number | null> | null;
  warnings: string[] | null;
  fit_seconds: number | null;
  error: Problem | null;
  artifact_sha256: string | null;
  /** The fitted preprocessing steps, as GET /v1/models/{id} shows them. */
  pipeline: StepSummary[] | null;
  /** What the fit found out about its training rows (clusters, noise, labelled rows), shown as model fields. */
  facts: Record<string, number> | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** What /predict reads per request: status and artifact checksum, and the name and version its response carries. */
export interface ServingRow {
  status: JobStatus;
  artifact_sha256: string | null;
  name: string | null;
  version: number | null;
}

export interface ModelFilters {
  dataset_id?: string;
  algorithm?: string;
  status?: JobStatus;
}

export interface TrainingOutcome {
  artifact: Buffer;
  sha256: string;
  classes: string[] | null;
  metrics: Record<string, number | null> | null;
  warnings: string[];
  fitSeconds: number;
  evaluation: NewEvaluation | null;
  pipeline: StepSummary[];
  facts?: Record<string, number> | null;
}

/**
 * A named model's version, computed inside its INSERT (one statement holds SQLite's write
 * lock, so API processes sharing the file cannot take the same number); NULL without a name.
 */
const NEXT_VERSION = "CASE WHEN ? IS NULL THEN NULL ELSE (SELECT coalesce(max(version), 0) + 1 FROM models WHERE name = ?) END";

export class ModelRepository {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(
    private readonly db: Db,
    private readonly evaluations: EvaluationRepository,
  ) {
    this.sql = statementCache(db);
  }

  insert(spec: TrainSpec): ModelRecord {
    const id = newId("md");
    this.sql(
        `INSERT INTO models (id, name, version, dataset_id, algorithm, task, target, spec_json, status, created_at) VALUES (?, ?, ${NEXT_VERSION}, ?, ?, ?, ?, ?, 'queued', ?)`,
      )
      .run(id, spec.name, spec.name, spec.name, spec.dataset_id, spec.algorithm, spec.task, spec.target, JSON.stringify(spec), nowIso());
    return this.get(id)!;
  }

  /** A model that arrives as an imported artifact: already trained. */
  insertImported(spec: TrainSpec, artifact: Buffer, sha256: string, classes: string[] | null, pipeline: StepSummary[]): ModelRecord {
    const id = newId("md");
    const now = nowIso();
    this.sql(
        `INSERT INTO models (id, name, version, dataset_id, algorithm, task, target, spec_json, status, progress, classes_json, artifact, artifact_sha256, pipeline_json, created_at, finished_at)
         VALUES (?, ?, ${NEXT_VERSION}, ?, ?, ?, ?, ?, 'succeeded', 1, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, spec.name, spec.name, spec.name, spec.dataset_id, spec.algorithm, spec.task, spec.target, JSON.stringify(spec), classes ? JSON.stringify(classes) : null, artifact, sha256, JSON.stringify(pipeline), now, now);
    return this.get(id)!;
  }

  get(id: string): ModelRecord | undefined {
    const row = this.sql(`SELECT ${MODEL_FIELDS} FROM models WHERE id = ?`).get(id) as ModelRow | undefined;
    return row && toModelRecord(row);
  }

  list(filters: ModelFilters, limit: number, before: number | null): ModelRecord[] {
    const where = ["seq < @before"];
    if (filters.dataset_id) where.push("dataset_id = @dataset_id");
    if (filters.algorithm) where.push("algorithm = @algorithm");
    if (filters.status) where.push("status = @status");
    const rows = this.sql(`SELECT ${MODEL_FIELDS} FROM models WHERE ${where.join(" AND ")} ORDER BY seq DESC LIMIT @limit`)
      .all({ ...filters, before: before ?? Number.MAX_SAFE_INTEGER, limit }) as ModelRow[];
    return rows.map(toModelRecord);
  }

  /** The two facts /predict needs, by primary key (cheap enough for every request). */
  servingState(id: string): ServingRow | undefined {
    return this.sql("SELECT status, artifact_sha256, name, version FROM models WHERE id = ?").get(id) as ServingRow | undefined;
  }

  getArtifact(id: string): { artifact: Buffer; sha256: string } | undefined {
    const row = this.sql("SELECT artifact, artifact_sha256 FROM models WHERE id = ? AND artifact IS NOT NULL").get(id) as
      | { artifact: Buffer; artifact_sha256: string }
      | undefined;
    return row && { artifact: row.artifact, sha256: row.artifact_sha256 };
  }

  markRunning(id: string): boolean {
    return (
      this.sql("UPDATE models SET status = 'running', started_at = ?, progress = 0 WHERE id = ? AND status = 'queued'").run(nowIso(), id)
        .changes > 0
    );
  }

  setProgress(id: string, progress: number): void {
    this.sql("UPDATE models SET progress = ? WHERE id = ? AND status = 'running'").run(Math.min(1, Math.max(0, progress)), id);
  }

  /** Model, its evaluation and the status change land together or not at all. */
  succeed(id: string, outcome: TrainingOutcome): boolean {
    return this.db
      .transaction(() => {
        const current = this.sql("SELECT status FROM models WHERE id = ?").get(id) as { status: JobStatus } | undefined;
        // "queued" too: the result can overtake the worker's "started" message (two channels).
        if (!current || (current.status !== "running" && current.status !== "queued")) return false;
        const evaluationId = outcome.evaluation ? this.evaluations.insert({ ...outcome.evaluation, model_id: id }).id : null;
        this.sql(
            `UPDATE models SET status = 'succeeded', progress = 1, artifact = ?, artifact_sha256 = ?, classes_json = ?, metrics_json = ?,
             warnings_json = ?, fit_seconds = ?, evaluation_id = ?, pipeline_json = ?, facts_json = ?, started_at = coalesce(started_at, ?), finished_at = ? WHERE id = ?`,
          )
          .run(
            outcome.artifact,
            outcome.sha256,
            outcome.classes ? JSON.stringify(outcome.classes) : null,
            outcome.metrics ? JSON.stringify(outcome.metrics) : null,
            outcome.warnings.length ? JSON.stringify(outcome.warnings) : null,
            outcome.fitSeconds,
            evaluationId,
            JSON.stringify(outcome.pipeline),
            outcome.facts ? JSON.stringify(outcome.facts) : null,
            nowIso(),
            nowIso(),
            id,
          );
        return true;
      })
      .immediate();
  }

  /** Ends a job that has not ended yet; returns false when it already had. */
  finishUnsuccessfully(id: string, status: "failed" | "cancelled", error: Problem): boolean {
    return (
      this.sql("UPDATE models SET status = ?, error_json = ?, finished_at = ? WHERE id = ? AND status IN ('queued', 'running')")
        .run(status, JSON.stringify(error), nowIso(), id).changes > 0
    );
  }

  /** The model and the aliases that pointed at its version. */
  delete(id: string): boolean {
    return this.db
      .transaction(() => {
        this.sql(`DELETE FROM registry_aliases WHERE (name, version) IN (SELECT name, version FROM models WHERE id = ?)`).run(id);
        return this.sql("DELETE FROM models WHERE id = ?").run(id).changes > 0;
      })
      .immediate();
  }

  /**
   * Start-up recovery: a row left `running` belonged to a process that died, so
   * its job is gone (failed, interrupted); `queued` rows are returned to be queued again.
   */
  /** Queued jobs created before `createdBefore` (ISO time), oldest first: what a trainer sends to the queue again if the queue lost it. */
  queued(createdBefore: string, limit: number): string[] {
    return (this.sql("SELECT id FROM models WHERE status = 'queued' AND created_at < ? ORDER BY seq LIMIT ?").all(createdBefore, limit) as { id: string }[]).map((r) => r.id);
  }

  recover(interrupted: Problem): string[] {
    return this.db
      .transaction(() => {
        this.sql("UPDATE models SET status = 'failed', error_json = ?, finished_at = ? WHERE status = 'running'")
          .run(JSON.stringify(interrupted), nowIso());
        return (this.sql("SELECT id FROM models WHERE status = 'queued' ORDER BY seq").all() as { id: string }[]).map((r) => r.id);
      })
      .immediate();
  }
}
