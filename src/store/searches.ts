/** Hyper-parameter searches: the request, progress, and the ranked results. */
import { statementCache, type Db } from "./database.js";
import { NEXT_VERSION, type EvaluationStatus, type NewEvaluation } from "./evaluations.js";
import { newId, nowIso } from "./ids.js";
import type { JobStatus, Problem } from "./models.js";
import { toCandidateOutcome, toSearchRecord, type SearchRow } from "./records.js";

export interface SearchResultRow {
  params: Record<string, unknown>;
  mean_score: number | null;
  std_score: number | null;
  rank: number | null;
  evaluation_id: string;
  status: string;
}

export interface SearchRecord {
  seq: number;
  id: string;
  dataset_id: string;
  algorithm: string;
  method: string;
  scoring: string;
  spec: Record<string, unknown>;
  status: JobStatus;
  progress: number;
  results: SearchResultRow[] | null;
  best: { params: Record<string, unknown>; score: number | null } | null;
  model_id: string | null;
  error: Problem | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface NewSearch {
  dataset_id: string;
  algorithm: string;
  method: string;
  scoring: string;
  spec: Record<string, unknown>;
}

/** A candidate evaluation as a search inserts it (queued, linked to the search). */
export type NewCandidate = Omit<NewEvaluation, "search_id" | "status" | "result" | "model_id">;

/** A candidate's row in its search's results, before it runs. */
export function queuedResultRow(candidate: NewCandidate, evaluationId: string): SearchResultRow {
  return { params: candidate.spec.params as Record<string, unknown>, mean_score: null, std_score: null, rank: null, evaluation_id: evaluationId, status: "queued" };
}

/** A finished candidate as the search ranks it. */
export interface CandidateOutcome {
  status: EvaluationStatus | "failed";
  mean_score: number | null;
  std_score: number | null;
}

/** Metric names are identifiers, but quoting keeps any name a single JSON path step. */
const metricPath = (group: "metrics" | "metrics_std", metric: string) => `$.${group}.${JSON.stringify(metric)}`;

export class SearchRepository {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(private readonly db: Db) {
    this.sql = statementCache(db);
  }

  /**
   * The search and one queued evaluation per candidate (its params in `spec.params`),
   * linked both ways, in one transaction: a request queues all of them or none.
   * Candidates are inserted here rather than through EvaluationRepository.insert,
   * which reads each row back: a 1000-candidate transaction holds the event loop.
   */
  insertWithCandidates(s: NewSearch, candidates: readonly NewCandidate[]): SearchRecord {
    return this.db
      .transaction(() => {
        const id = newId("sr");
        const now = nowIso();
        const results: SearchResultRow[] = candidates.map((c) => this.insertCandidate(id, c, now));
        this.sql(
          `INSERT INTO searches (id, dataset_id, algorithm, method, scoring, spec_json, status, results_json, created_at)
           VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?)`,
        ).run(id, s.dataset_id, s.algorithm, s.method, s.scoring, JSON.stringify(s.spec), JSON.stringify(results), now);
        return this.get(id)!;
      })
      .immediate();
  }

  /** A candidate's queued evaluation row; returns its result row. */
  private insertCandidate(searchId: string, c: NewCandidate, now: string): SearchResultRow {
    const evaluationId = newId("ev");
    this.sql(
      `INSERT INTO evaluations (id, search_id, dataset_id, algorithm, task, method, status, progress, spec_json, created_at, updated_at, version)
       VALUES (?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?, ${NEXT_VERSION})`,
    ).run(evaluationId, searchId, c.dataset_id, c.algorithm, c.task, c.method, JSON.stringify(c.spec), now, now);
    return queuedResultRow(c, evaluationId);
  }

  /**
   * A running search's next candidate: its evaluation and its results row, in one
   * transaction guarded on `running` (a cancel either lands before, and nothing is
   * inserted, or after, and ends this candidate with the others).
   */
  appendCandidate(searchId: string, candidate: NewCandidate): SearchResultRow | null {
    return this.db
      .transaction(() => {
        const search = this.sql("SELECT results_json FROM searches WHERE id = ? AND status = 'running'").get(searchId) as { results_json: string | null } | undefined;
        if (!search) return null;
        const row = this.insertCandidate(searchId, candidate, nowIso());
        const results = [...((search.results_json ? JSON.parse(search.results_json) : []) as SearchResultRow[]), row];
        this.sql("UPDATE searches SET results_json = ? WHERE id = ?").run(JSON.stringify(results), searchId);
        return row;
      })
      .immediate();
  }

  /** Status alone, without parsing the results. */
  status(id: string): JobStatus | undefined {
    return (this.sql("SELECT status FROM searches WHERE id = ?").get(id) as { status: JobStatus } | undefined)?.status;
  }

  /**
   * One ended candidate's score, picked out inside SQLite so the runner never parses
   * the evaluation's folds and curves: a missing evaluation counts as failed, a
   * missing std as 0 (one fold), as before.
   */
  candidateOutcome(evaluationId: string, metric: string): CandidateOutcome {
    const row = this.sql(
      // `->` returns the number's JSON text, parsed here: the exact double the evaluation stored.
      `SELECT status, result_json -> ? AS mean, result_json -> ? AS std FROM evaluations WHERE id = ?`,
    ).get(metricPath("metrics", metric), metricPath("metrics_std", metric), evaluationId) as { status: EvaluationStatus; mean: string | null; std: string | null } | undefined;
    return toCandidateOutcome(row);
  }

  get(id: string): SearchRecord | undefined {
    const row = this.sql("SELECT * FROM searches WHERE id = ?").get(id) as SearchRow | undefined;
    return row && toSearchRecord(row);
  }

  /**
   * Newest first: at most `limit` searches, and no more candidate rows in all than
   * `maxResults` (the first search always fits). Rows past the stop are not parsed;
   * `more` says another page exists.
   */
  list(limit: number, before: number | null, maxResults: number): { rows: SearchRecord[]; more: boolean } {
    const rows: SearchRecord[] = [];
    let results = 0;
    const query = this.sql("SELECT *, coalesce(json_array_length(results_json), 0) AS result_count FROM searches WHERE seq < ? ORDER BY seq DESC LIMIT ?");
    for (const row of query.iterate(before ?? Number.MAX_SAFE_INTEGER, limit + 1) as IterableIterator<SearchRow & { result_count: number }>) {
      if (rows.length === limit || (rows.length > 0 && results + row.result_count > maxResults)) return { rows, more: true };
      results += row.result_count;
      rows.push(toSearchRecord(row));
    }
    return { rows, more: false };
  }

  markRunning(id: string): void {
    this.sql("UPDATE searches SET status = 'running', started_at = ? WHERE id = ? AND status = 'queued'").run(nowIso(), id);
  }

  update(id: string, progress: number, results: SearchResultRow[]): void {
    this.sql("UPDATE searches SET progress = ?, results_json = ? WHERE id = ? AND status = 'running'").run(progress, JSON.stringify(results), id);
  }

  succeed(id: string, results: SearchResultRow[], best: SearchRecord["best"], modelId: string | null): boolean {
    return (
      this.sql(
        "UPDATE searches SET status = 'succeeded', progress = 1, results_json = ?, best_json = ?, model_id = ?, finished_at = ? WHERE id = ? AND status = 'running'",
      ).run(JSON.stringify(results), JSON.stringify(best), modelId, nowIso(), id).changes > 0
    );
  }

  finishUnsuccessfully(id: string, status: "failed" | "cancelled", error: Problem): boolean {
    return (
      this.sql("UPDATE searches SET status = ?, error_json = ?, finished_at = ? WHERE id = ? AND status IN ('queued', 'running')").run(
        status,
        JSON.stringify(error),
        nowIso(),
        id,
      ).changes > 0
    );
  }

  /**
   * Cancels the search and its unfinished candidates in one transaction (one
   * commit, not one per candidate). False when the search was not queued or running.
   */
  cancel(id: string, reason: Problem): boolean {
    return this.db
      .transaction(() => {
        if (!this.finishUnsuccessfully(id, "cancelled", reason)) return false;
        this.endCandidates(id, "cancelled", reason);
        return true;
      })
      .immediate();
  }

  /**
   * A search's orchestration lives in the process that started it: after a restart it
   * cannot resume. Every queued or running search fails as interrupted, and so does
   * every unfinished candidate (of those, or of a search that had ended without
   * ending them), in one transaction: no candidate is left for the job runner to re-queue.
   */
  recover(interrupted: Problem): void {
    this.db
      .transaction(() => {
        this.sql("UPDATE searches SET status = 'failed', error_json = ?, finished_at = ? WHERE status IN ('queued', 'running')").run(JSON.stringify(interrupted), nowIso());
        const now = nowIso();
        this.sql(
          `UPDATE evaluations SET status = 'failed', error_json = ?, finished_at = ?, updated_at = ?, version = ${NEXT_VERSION}
           WHERE search_id IS NOT NULL AND status IN ('queued', 'running')`,
        ).run(JSON.stringify(interrupted), now, now);
      })
      .immediate();
  }

  private endCandidates(searchId: string, status: "failed" | "cancelled", reason: Problem): void {
    const now = nowIso();
    this.sql(
      `UPDATE evaluations SET status = ?, error_json = ?, finished_at = ?, updated_at = ?, version = ${NEXT_VERSION}
       WHERE search_id = ? AND status IN ('queued', 'running')`,
    ).run(status, JSON.stringify(reason), now, now, searchId);
  }
}
