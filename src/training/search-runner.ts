/**
 * Runs a hyper-parameter search: every candidate is an evaluation job on the
 * pool (several at once when there are several workers), so each candidate's
 * result is an evaluation a dashboard can read; then ranks, the best params,
 * and with refit a model trained on all rows with them.
 *
 *   route ──▶ search row + one queued evaluation per candidate (one transaction)
 *         ──▶ SearchRunner.start: submit all ─▶ pool ─▶ each evaluation ends
 *                                  progress = ended / total
 *         ──▶ rank, best, refit (a new model job)
 */
import type { Store } from "../store/store.js";
import type { SearchResultRow } from "../store/searches.js";
import type { TrainSpec } from "../store/models.js";
import { rankScores } from "../evaluation/search-space.js";
import type { JobLogger, JobRunner } from "./jobs.js";

export interface SearchPlan {
  searchId: string;
  evaluationIds: string[];
  scoring: string;
  higherIsBetter: boolean;
  /** The model to train with the best params (null: no refit). */
  refit: Omit<TrainSpec, "params"> | null;
}

export class SearchRunner {
  constructor(
    private readonly store: Store,
    private readonly jobs: JobRunner,
    private readonly log: JobLogger,
  ) {}

  start(plan: SearchPlan): void {
    this.run(plan).catch((err) => {
      this.log.error({ err, search: plan.searchId }, "search failed");
      try {
        this.store.searches.finishUnsuccessfully(plan.searchId, "failed", { type: "urn:xigua:problem:search_failed", title: "Search failed", status: 500, code: "search_failed", detail: "the search could not be completed" });
      } catch {
        // The store is closed (shutdown): the next start marks the search interrupted.
      }
    });
  }

  private results(plan: SearchPlan): SearchResultRow[] {
    const rows = plan.evaluationIds.map((id) => {
      const e = this.store.evaluations.get(id);
      const result = (e?.result ?? {}) as { metrics?: Record<string, number | null>; metrics_std?: Record<string, number | null> };
      const mean = e?.status === "succeeded" ? (result.metrics?.[plan.scoring] ?? null) : null;
      return {
        params: (e?.spec.params as Record<string, unknown>) ?? {},
        mean_score: mean,
        std_score: e?.status === "succeeded" ? (result.metrics_std?.[plan.scoring] ?? 0) : null,
        rank: null as number | null,
        evaluation_id: id,
        status: e?.status ?? "failed",
      };
    });
    const ranks = rankScores(rows.map((r) => r.mean_score), plan.higherIsBetter);
    rows.forEach((r, i) => (r.rank = ranks[i]));
    return rows;
  }

  private async run(plan: SearchPlan): Promise<void> {
    this.store.searches.markRunning(plan.searchId);
    plan.evaluationIds.forEach((id) => this.jobs.submitEvaluation(id));
    let ended = 0;
    await Promise.all(
      plan.evaluationIds.map(async (id) => {
        await this.jobs.whenDone(id);
        ended++;
        this.store.searches.update(plan.searchId, ended / plan.evaluationIds.length, this.results(plan));
      }),
    );
    if (this.store.searches.get(plan.searchId)?.status !== "running") return; // cancelled meanwhile
    const results = this.results(plan);
    const best = results.find((r) => r.rank === 1);
    if (!best) {
      const current = this.store.searches.get(plan.searchId);
      if (current?.status === "running") {
        this.store.searches.finishUnsuccessfully(plan.searchId, "failed", {
          type: "urn:xigua:problem:search_failed",
          title: "Search failed",
          status: 422,
          code: "search_failed",
          detail: `no candidate produced a ${plan.scoring} score; see the candidates' evaluations`,
        });
      }
      return;
    }
    let modelId: string | null = null;
    if (plan.refit) {
      const model = this.store.models.insert({ ...plan.refit, params: best.params });
      this.jobs.submitTraining(model.id);
      modelId = model.id;
    }
    this.store.searches.succeed(plan.searchId, results, { params: best.params, score: best.mean_score }, modelId);
  }
}
