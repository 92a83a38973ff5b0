/**
 * Rows as both stores read them and the records the service sees: the SQLite and
 * the PostgreSQL repositories select the same column names and map them here, so
 * a record is the same whichever store it came from. JSON is kept as text in both
 * (a record round-trips byte for byte: jsonb would reorder keys).
 */
import type { ColumnInfo, DatasetRecord, DatasetSource, DatasetSummary } from "./datasets.js";
import type { EvaluationRecord, EvaluationStatus } from "./evaluations.js";
import type { JobStatus, ModelRecord } from "./models.js";
import type { SearchRecord } from "./searches.js";

/** Column summaries carried by a dataset listing or GET; the rest are paged (columns()). */
export const HEAD_COLUMNS = 100;

/** Levels a column summary shown to clients carries; the rest are paged (levels()). */
export const HEAD_LEVELS = 100;

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** The summary as clients see it: levels bounded, with their count. */
export function boundedInfo(info: ColumnInfo): ColumnInfo {
  if (!info.levels) return info;
  return { ...info, levels: info.levels.slice(0, HEAD_LEVELS), level_count: info.levels.length };
}

export interface DatasetRow {
  seq: number;
  id: string;
  name: string;
  row_count: number;
  columns_json: string;
  source_json: string | null;
  created_at: string;
}

export interface DatasetSummaryRow {
  seq: number;
  id: string;
  name: string;
  row_count: number;
  column_count: number;
  columns_head_json: string;
  source_json: string | null;
  created_at: string;
}

export const DATASET_SUMMARY_FIELDS = "seq, id, name, row_count, column_count, columns_head_json, source_json, created_at";

export function toDatasetRecord(row: DatasetRow): DatasetRecord {
  return { seq: row.seq, id: row.id, name: row.name, row_count: row.row_count, columns: JSON.parse(row.columns_json), source: json<DatasetSource>(row.source_json), created_at: row.created_at };
}

export function toDatasetSummary(row: DatasetSummaryRow): DatasetSummary {
  const { columns_head_json, source_json, ...rest } = row;
  return { ...rest, columns_head: JSON.parse(columns_head_json), source: json<DatasetSource>(source_json) };
}

export interface ModelRow {
  seq: number;
  id: string;
  name: string | null;
  version: number | null;
  status: JobStatus;
  progress: number;
  spec_json: string;
  classes_json: string | null;
  evaluation_id: string | null;
  metrics_json: string | null;
  warnings_json: string | null;
  fit_seconds: number | null;
  error_json: string | null;
  artifact_sha256: string | null;
  pipeline_json: string | null;
  facts_json: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export const MODEL_FIELDS =
  "seq, id, name, status, progress, spec_json, classes_json, evaluation_id, metrics_json, warnings_json, fit_seconds, error_json, artifact_sha256, pipeline_json, facts_json, created_at, started_at, finished_at, version";

export function toModelRecord(r: ModelRow): ModelRecord {
  return {
    seq: r.seq,
    id: r.id,
    name: r.name,
    version: r.version,
    status: r.status,
    progress: r.progress,
    spec: JSON.parse(r.spec_json),
    classes: json(r.classes_json),
    evaluation_id: r.evaluation_id,
    metrics: json(r.metrics_json),
    warnings: json(r.warnings_json),
    fit_seconds: r.fit_seconds,
    error: json(r.error_json),
    artifact_sha256: r.artifact_sha256,
    pipeline: json(r.pipeline_json),
    facts: json(r.facts_json),
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
  };
}

export interface EvaluationRow {
  seq: number;
  id: string;
  model_id: string | null;
  dataset_id: string;
  algorithm: string;
  task: string;
  method: string;
  status: EvaluationStatus;
  spec_json: string;
  result_json: string | null;
  error_json: string | null;
  created_at: string;
  finished_at: string | null;
  updated_at: string;
  version: number;
  progress: number;
  search_id: string | null;
}

export function toEvaluationRecord(r: EvaluationRow): EvaluationRecord {
  return {
    seq: r.seq,
    id: r.id,
    model_id: r.model_id,
    dataset_id: r.dataset_id,
    algorithm: r.algorithm,
    task: r.task,
    method: r.method,
    status: r.status,
    spec: JSON.parse(r.spec_json),
    result: json(r.result_json),
    error: json(r.error_json),
    created_at: r.created_at,
    finished_at: r.finished_at,
    updated_at: r.updated_at,
    version: r.version,
    progress: r.progress,
    search_id: r.search_id,
  };
}

export interface SearchRow {
  seq: number;
  id: string;
  dataset_id: string;
  algorithm: string;
  method: string;
  scoring: string;
  spec_json: string;
  status: JobStatus;
  progress: number;
  results_json: string | null;
  best_json: string | null;
  model_id: string | null;
  error_json: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export function toSearchRecord(r: SearchRow): SearchRecord {
  return {
    seq: r.seq,
    id: r.id,
    dataset_id: r.dataset_id,
    algorithm: r.algorithm,
    method: r.method,
    scoring: r.scoring,
    spec: JSON.parse(r.spec_json),
    status: r.status,
    progress: r.progress,
    results: json(r.results_json),
    best: json(r.best_json),
    model_id: r.model_id,
    error: json(r.error_json),
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
  };
}

/**
 * A finished candidate's score from the JSON texts of its metric and std (as the
 * store picked them out of the evaluation's result): a missing evaluation counts as
 * failed, a missing std as 0 (one fold).
 */
export function toCandidateOutcome(row: { status: EvaluationStatus; mean: string | null; std: string | null } | undefined): {
  status: EvaluationStatus;
  mean_score: number | null;
  std_score: number | null;
} {
  if (!row) return { status: "failed", mean_score: null, std_score: null };
  const succeeded = row.status === "succeeded";
  const mean = row.mean === null ? null : JSON.parse(row.mean);
  const std = row.std === null ? null : JSON.parse(row.std);
  return {
    status: row.status,
    mean_score: succeeded && typeof mean === "number" ? mean : null,
    std_score: succeeded ? (typeof std === "number" ? std : 0) : null,
  };
}
