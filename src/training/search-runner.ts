/**
 * Runs a hyper-parameter search: every candidate is an evaluation job on the
 * pool (several at once when there are several workers), so each candidate's
 * result is an evaluation a dashboard can read; then ranks, the best params,
 * and with refit a model trained on all rows with them.
 *
 *   route ──▶ search row + one queued evaluation per candidate (one transaction)
 *         ──▶ SearchRunner.start: submit all ─▶ pool ─▶ each evaluation ends
 *                                  its row updated in memory; progress written ≤ 10/s
 *         ──▶ bayesian: one proposal at a time (GP + expected improvement over the
 *             scores so far), appended to the search and run, up to n_iter
 *         ──▶ rank, best, refit (a new model job)
 *
 * A bayesian search is sequential after its random start: each proposal needs
 * the score of the one before, and one candidate at a time keeps the GP's
 * information maximal per evaluation (a batch would need fantasised scores).
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { jobProblem } from "./job-failure.js";
import type { Store } from "../store/store.js";
import type { NewCandidate, SearchResultRow } from "../store/searches.js";
import { createRng } from "../data/random.js";
import { proposeCandidatePausing } from "../evaluation/bayesian/propose.js";
import type { ParamDistributions } from "../evaluation/search-space.js";
import { getAlgorithm, loadRegistry } from "../models/lazy-registry.js";
import type { TrainSpec } from "../store/models.js";
import { rankScores } from "../evaluation/search-space.js";
import type { JobLogger } from "./jobs.js";

export interface SearchPlan {
  searchId: string;
  /** One row per candidate, as inserted (queued). */
  candidates: readonly SearchResultRow[];
  scoring: string;
  higherIsBetter: boolean;
  /** The model to train with the best params (null: no refit). */
  refit: Omit<TrainSpec, "params"> | null;
  /** A bayesian search: `candidates` is its random start; the rest are proposed here. */
  bayesian?: BayesianPlan;
}

export interface BayesianPlan {
  space: ParamDistributions;
  /** Candidates in all, the random start included. */
  nIter: number;
  seed: number;
  /** Each proposal's evaluation: this, with the proposal's params in spec.params. */
  template: NewCandidate;
}

/**
 * Progress is written at most this often: each write serialises every row, so
 * writing per candidate would make a search O(N²) in its own results.
 */
const PROGRESS_WRITE_MS = 100;
/** Candidates handed to the job runner per event-loop turn (each submission builds a channel and a pool task). */
const SUBMIT_CHUNK = 50;

function ranked(rows: readonly SearchResultRow[], higherIsBetter: boolean): SearchResultRow[] {
  const ranks = rankScores(rows.map((r) => r.mean_score), higherIsBetter);
  return rows.map((r, i) => ({ ...r, rank: ranks[i] }));
}

/**
 * What a search needs of the jobs around it: its candidates run on this process's
 * pool (their results are awaited here), the refit goes wherever models train
 * (with a BullMQ queue, to any trainer: a refit must survive this process).
 */
export interface SearchJobs {
  submitEvaluation(evaluationId: string): void;
  whenDone(evaluationId: string): Promise<void>;
  submitTraining(modelId: string): void | Promise<void>;
}

export class SearchRunner {
  constructor(
    private readonly store: Store,
    private readonly jobs: SearchJobs,
    private readonly log: JobLogger,
  ) {}

  start(plan: SearchPlan): void {
    void this.execute(plan);
  }

  /** Runs the search to its end; never rejects (a failure is recorded on the search). */
  execute(plan: SearchPlan): Promise<void> {
    return this.run(plan).catch(async (err) => {
      this.log.error({ err, search: plan.searchId }, "search failed");
      await this.store.searches
        .finishUnsuccessfully(plan.searchId, "failed", jobProblem("training_failed", `the search failed unexpectedly; see the server log (search ${plan.searchId})`))
        .catch(() => {
          // The store is closed (shutdown) or unreachable: the search is recovered as interrupted.
        });
    });
  }

  /**
   * Each candidate's row is updated in memory from its own evaluation when it
   * ends (one indexed read), so N candidates cost N reads, not N².
   */
  private async run(plan: SearchPlan): Promise<void> {
    await this.store.searches.markRunning(plan.searchId);
    const rows = plan.candidates.map((c) => ({ ...c }));
    for (let i = 0; i < rows.length; i += SUBMIT_CHUNK) {
      if (i > 0) {
        await nextTurn();
        if ((await this.store.searches.status(plan.searchId)) !== "running") break; // cancelled: its candidates are already ended
      }
      rows.slice(i, i + SUBMIT_CHUNK).forEach((r) => this.jobs.submitEvaluation(r.evaluation_id));
    }
    const total = plan.bayesian?.nIter ?? rows.length;
    let ended = 0;
    let pendingWrite: NodeJS.Timeout | undefined;
    // A progress write is not awaited by the timer; the last one is awaited before the search ends (see below).
    let lastWrite: Promise<void> = Promise.resolve();
    const writeProgress = () => {
      pendingWrite = undefined;
      lastWrite = this.store.searches.update(plan.searchId, ended / total, ranked(rows, plan.higherIsBetter)).catch((err) => {
        // The store closed under a pending write (shutdown); the search is recovered as interrupted.
        this.log.warn({ err, search: plan.searchId }, "search progress not written");
      });
    };
    await Promise.all(
      rows.map(async (row) => {
        await this.jobs.whenDone(row.evaluation_id);
        Object.assign(row, await this.store.searches.candidateOutcome(row.evaluation_id, plan.scoring));
        ended++;
        pendingWrite ??= setTimeout(writeProgress, PROGRESS_WRITE_MS).unref();
      }),
    );
    clearTimeout(pendingWrite);
    await lastWrite; // a progress write still in flight must not land after the outcome (update is guarded on running, but keep the order)
    if ((await this.store.searches.status(plan.searchId)) !== "running") return; // cancelled meanwhile
    // A candidate still queued never ran: the service is stopping, and the next start marks the search interrupted.
    if (rows.some((r) => r.status === "queued")) return;
    if (plan.bayesian && !(await this.proposeRest(plan, plan.bayesian, rows))) return;
    const results = ranked(rows, plan.higherIsBetter);
    const best = results.find((r) => r.rank === 1);
    if (!best) {
      await this.store.searches.finishUnsuccessfully(plan.searchId, "failed", jobProblem("search_failed", `no candidate produced a ${plan.scoring} score; see the candidates' evaluations`));
      return;
    }
    // Awaits now sit between the status check, the refit's insert and succeed (one synchronous
    // run before). With SQLite each store call settles at once, with no I/O between, so no other
    // request's handler runs in between: the order is as before. A backend with real round trips
    // can see a cancel land here: succeed is guarded on `running`, so the search stays cancelled
    // (the refit model, if inserted, is then trained on its own, like any model).
    let modelId: string | null = null;
    if (plan.refit) {
      const model = await this.store.models.insert({ ...plan.refit, params: best.params });
      await this.jobs.submitTraining(model.id);
      modelId = model.id;
    }
    await this.store.searches.succeed(plan.searchId, results, { params: best.params, score: best.mean_score }, modelId);
  }

  /**
   * A bayesian search's proposals, one at a time, each appended (with its results
   * row) only while the search runs. False when the search stopped meanwhile
   * (cancelled, failed, or the service is stopping): nothing more to record.
   */
  private async proposeRest(plan: SearchPlan, bayesian: BayesianPlan, rows: SearchResultRow[]): Promise<boolean> {
    // A search recovered at start-up may get here before any request has loaded the registry.
    await loadRegistry();
    const algorithm = getAlgorithm(bayesian.template.algorithm);
    if (!algorithm) throw new Error(`unknown algorithm ${bayesian.template.algorithm}`);
    // The random start drew from createRng(seed); proposals take a stream of their own.
    const rng = createRng(bayesian.seed).fork();
    const sign = plan.higherIsBetter ? 1 : -1;
    while (rows.length < bayesian.nIter) {
      if ((await this.store.searches.status(plan.searchId)) !== "running") return false;
      const observations = rows.map((r) => ({ params: r.params, score: r.mean_score === null ? null : sign * r.mean_score }));
      const proposal = await proposeCandidatePausing(bayesian.space, observations, rng, nextTurn);
      if (!proposal) break; // a discrete space with every candidate evaluated
      // The route validated the space's bounds and list values: a proposal fails only a cross-parameter rule.
      const params = algorithm.params.safeParse(proposal);
      if (!params.success) {
        await this.store.searches.finishUnsuccessfully(
          plan.searchId,
          "failed",
          jobProblem("search_failed", `proposed candidate ${JSON.stringify(proposal)} is not valid for ${algorithm.name}: ${params.error.issues[0].message}`),
        );
        return false;
      }
      const row = await this.store.searches.appendCandidate(plan.searchId, { ...bayesian.template, spec: { ...bayesian.template.spec, params: params.data } });
      if (!row) return false;
      const current = { ...row };
      rows.push(current);
      this.jobs.submitEvaluation(row.evaluation_id);
      await this.jobs.whenDone(row.evaluation_id);
      Object.assign(current, await this.store.searches.candidateOutcome(row.evaluation_id, plan.scoring));
      if (current.status === "queued") return false; // never ran: the service is stopping
      await this.store.searches.update(plan.searchId, rows.length / bayesian.nIter, ranked(rows, plan.higherIsBetter));
    }
    return (await this.store.searches.status(plan.searchId)) === "running";
  }
}
