/**
 * Where jobs go once their row is stored: the one seam between the routes and
 * whatever runs fits. Two implementations: LocalQueue (this process's worker
 * threads, the embedded default) and BullQueue (a BullMQ queue in Redis that
 * `xigua worker` processes take jobs from; XIGUA_QUEUE_URL).
 *
 * The store is the truth for every job's state: a queue only carries ids (and a
 * search's plan), so losing the queue loses no result, and every outcome write
 * is guarded on the row's state, so a job delivered twice lands once.
 */
import type { SearchPlan } from "../search-runner.js";

export interface JobQueue {
  /** Jobs queued or running (the XIGUA_MAX_JOBS back-pressure). */
  activeCount(): Promise<number>;
  submitTraining(modelId: string): Promise<void>;
  /** Scores a stored model on a dataset. */
  submitScoring(evaluationId: string): Promise<void>;
  /** Cross-validates an algorithm spec without keeping a model. */
  submitEvaluation(evaluationId: string): Promise<void>;
  /** Runs a search's candidates, ranks them, refits the best (search-runner.ts). */
  submitSearch(plan: SearchPlan): Promise<void>;
  /**
   * Records the cancellation (false when the job is not queued or running) and stops
   * the job wherever it runs. Also stops a job whose row another write already ended
   * (a search's candidates, after the search's cancel ended them all).
   */
  cancel(id: string): Promise<boolean>;
  /** Resolves when the job's row has ended (at once if it has). */
  whenDone(id: string): Promise<void>;
  /** Ready to take jobs: the pool is alive, or the queue's server answers. */
  isHealthy(): Promise<boolean>;
  /** Start-up: what a previous run left behind (see JobRunner.recover). */
  recover(): Promise<{ requeued: number }>;
  /** Graceful stop; running jobs get `graceMs` (in-process) before they are ended as interrupted. */
  close(graceMs: number): Promise<void>;
}

/** The queue's server is down or unreachable: the server answers 503 + Retry-After, and nothing stored is lost. */
export class QueueUnavailableError extends Error {
  override name = "QueueUnavailableError";
}
