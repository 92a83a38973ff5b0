/** Searches in PostgreSQL: the SQLite repository's statements and transactions (src/store/searches.ts). */
import type pg from "pg";
import { newId, nowIso } from "../ids.js";
import type { EvaluationStatus } from "../evaluations.js";
import type { JobStatus, Problem } from "../models.js";
import { queuedResultRow, type CandidateOutcome, type NewCandidate, type NewSearch, type SearchRecord, type SearchResultRow } from "../searches.js";
import { toCandidateOutcome, toSearchRecord, type SearchRow } from "../records.js";
import { changes, one, rows, transaction, type Queryable } from "./connection.js";
import { NEXT_VERSION, WITH_NEXT_VERSION } from "./evaluations.js";

export class PgSearchRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** The search and one queued evaluation per candidate (one statement for all of them), in one transaction. */
  insertWithCandidates(s: NewSearch, candidates: readonly NewCandidate[]): Promise<SearchRecord> {
    return transaction(this.pool, async (client) => {
      const id = newId("sr");
      const now = nowIso();
      const ids = candidates.map(() => newId("ev"));
      if (candidates.length > 0) {
        // WITH ORDINALITY + ORDER BY: the candidates' seq follow their order, as one insert each would give.
        await client.query(
          `${WITH_NEXT_VERSION}
           INSERT INTO evaluations (id, search_id, dataset_id, algorithm, task, method, status, progress, spec_json, created_at, updated_at, version)
           SELECT c.id, $1, c.dataset_id, c.algorithm, c.task, c.method, 'queued', 0, c.spec_json, $2, $2, ${NEXT_VERSION}
           FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) WITH ORDINALITY AS c(id, dataset_id, algorithm, task, method, spec_json, n)
           ORDER BY c.n`,
          [
            id,
            now,
            ids,
            candidates.map((c) => c.dataset_id),
            candidates.map((c) => c.algorithm),
            candidates.map((c) => c.task),
            candidates.map((c) => c.method),
            candidates.map((c) => JSON.stringify(c.spec)),
          ],
        );
      }
      const results: SearchResultRow[] = candidates.map((c, i) => queuedResultRow(c, ids[i]));
      const row = await one<SearchRow>(
        client,
        `INSERT INTO searches (id, dataset_id, algorithm, method, scoring, spec_json, status, results_json, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7, $8) RETURNING *`,
        [id, s.dataset_id, s.algorithm, s.method, s.scoring, JSON.stringify(s.spec), JSON.stringify(results), now],
      );
      return toSearchRecord(row!);
    });
  }

  /**
   * A running search's next candidate and its results row, in one transaction: the
   * search row is locked (FOR UPDATE) so a cancel waits for it, or lands first and
   * nothing is inserted.
   */
  appendCandidate(searchId: string, candidate: NewCandidate): Promise<SearchResultRow | null> {
    return transaction(this.pool, async (client) => {
      const search = await one<{ results_json: string | null }>(client, "SELECT results_json FROM searches WHERE id = $1 AND status = 'running' FOR UPDATE", [searchId]);
      if (!search) return null;
      const id = newId("ev");
      const now = nowIso();
      await client.query(
        `${WITH_NEXT_VERSION}
         INSERT INTO evaluations (id, search_id, dataset_id, algorithm, task, method, status, progress, spec_json, created_at, updated_at, version)
         VALUES ($1, $2, $3, $4, $5, $6, 'queued', 0, $7, $8, $8, ${NEXT_VERSION})`,
        [id, searchId, candidate.dataset_id, candidate.algorithm, candidate.task, candidate.method, JSON.stringify(candidate.spec), now],
      );
      const row = queuedResultRow(candidate, id);
      const results = [...((search.results_json ? JSON.parse(search.results_json) : []) as SearchResultRow[]), row];
      await client.query("UPDATE searches SET results_json = $1 WHERE id = $2", [JSON.stringify(results), searchId]);
      return row;
    });
  }

  async status(id: string): Promise<JobStatus | undefined> {
    return (await one<{ status: JobStatus }>(this.pool, "SELECT status FROM searches WHERE id = $1", [id]))?.status;
  }

  /**
   * One ended candidate's score, picked out inside PostgreSQL so the runner never parses
   * the evaluation's folds and curves. `json` (not jsonb) keeps the number's text as the
   * evaluation stored it: the exact double.
   */
  async candidateOutcome(evaluationId: string, metric: string): Promise<CandidateOutcome> {
    const row = await one<{ status: EvaluationStatus; mean: string | null; std: string | null }>(
      this.pool,
      "SELECT status, (result_json::json -> 'metrics' -> $1)::text AS mean, (result_json::json -> 'metrics_std' -> $1)::text AS std FROM evaluations WHERE id = $2",
      [metric, evaluationId],
    );
    return toCandidateOutcome(row);
  }

  async get(id: string): Promise<SearchRecord | undefined> {
    const row = await one<SearchRow>(this.pool, "SELECT * FROM searches WHERE id = $1", [id]);
    return row && toSearchRecord(row);
  }

  /** Newest first: at most `limit` searches and no more candidate rows than `maxResults` (the first always fits); rows past the stop are not parsed. */
  async list(limit: number, before: number | null, maxResults: number): Promise<{ rows: SearchRecord[]; more: boolean }> {
    const found = await rows<SearchRow & { result_count: number }>(
      this.pool,
      "SELECT *, coalesce(json_array_length(results_json::json), 0) AS result_count FROM searches WHERE seq < $1 ORDER BY seq DESC LIMIT $2",
      [before ?? Number.MAX_SAFE_INTEGER, limit + 1],
    );
    const out: SearchRecord[] = [];
    let results = 0;
    for (const row of found) {
      if (out.length === limit || (out.length > 0 && results + row.result_count > maxResults)) return { rows: out, more: true };
      results += row.result_count;
      const { result_count: _, ...searchRow } = row;
      out.push(toSearchRecord(searchRow));
    }
    return { rows: out, more: false };
  }

  async markRunning(id: string): Promise<void> {
    await this.pool.query("UPDATE searches SET status = 'running', started_at = $1 WHERE id = $2 AND status = 'queued'", [nowIso(), id]);
  }

  async update(id: string, progress: number, results: SearchResultRow[]): Promise<void> {
    await this.pool.query("UPDATE searches SET progress = $1, results_json = $2 WHERE id = $3 AND status = 'running'", [progress, JSON.stringify(results), id]);
  }

  async succeed(id: string, results: SearchResultRow[], best: SearchRecord["best"], modelId: string | null): Promise<boolean> {
    return (
      (await changes(
        this.pool,
        "UPDATE searches SET status = 'succeeded', progress = 1, results_json = $1, best_json = $2, model_id = $3, finished_at = $4 WHERE id = $5 AND status = 'running'",
        [JSON.stringify(results), JSON.stringify(best), modelId, nowIso(), id],
      )) > 0
    );
  }

  finishUnsuccessfully(id: string, status: "failed" | "cancelled", error: Problem): Promise<boolean> {
    return finishSearch(this.pool, id, status, error);
  }

  /** Cancels the search and its unfinished candidates in one transaction; false when the search was not queued or running. */
  cancel(id: string, reason: Problem): Promise<boolean> {
    return transaction(this.pool, async (client) => {
      if (!(await finishSearch(client, id, "cancelled", reason))) return false;
      const now = nowIso();
      await client.query(
        `${WITH_NEXT_VERSION} UPDATE evaluations SET status = 'cancelled', error_json = $1, finished_at = $2, updated_at = $3, version = ${NEXT_VERSION}
         WHERE search_id = $4 AND status IN ('queued', 'running')`,
        [JSON.stringify(reason), now, now, id],
      );
      return true;
    });
  }

  /** Every queued or running search, and every unfinished candidate of any search, fails as interrupted, in one transaction. */
  recover(interrupted: Problem): Promise<void> {
    return transaction(this.pool, async (client) => {
      await client.query("UPDATE searches SET status = 'failed', error_json = $1, finished_at = $2 WHERE status IN ('queued', 'running')", [JSON.stringify(interrupted), nowIso()]);
      const now = nowIso();
      await client.query(
        `${WITH_NEXT_VERSION} UPDATE evaluations SET status = 'failed', error_json = $1, finished_at = $2, updated_at = $3, version = ${NEXT_VERSION}
         WHERE search_id IS NOT NULL AND status IN ('queued', 'running')`,
        [JSON.stringify(interrupted), now, now],
      );
    });
  }
}

async function finishSearch(db: Queryable, id: string, status: "failed" | "cancelled", error: Problem): Promise<boolean> {
  return (await changes(db, "UPDATE searches SET status = $1, error_json = $2, finished_at = $3 WHERE id = $4 AND status IN ('queued', 'running')", [status, JSON.stringify(error), nowIso(), id])) > 0;
}
