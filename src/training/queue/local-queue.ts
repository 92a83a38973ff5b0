/**
 * The embedded default: jobs run on this process's worker-thread pool
 * (JobRunner) and searches are orchestrated here (SearchRunner). Nothing
 * leaves the process, so submitting cannot fail and never waits.
 */
import type { Store } from "../../store/store.js";
import type { JobLogger, JobRunner } from "../jobs.js";
import type { TrainingPool } from "../pool.js";
import { SearchRunner, type SearchPlan } from "../search-runner.js";
import type { JobQueue } from "./job-queue.js";

export class LocalQueue implements JobQueue {
  private readonly searches: SearchRunner;

  constructor(
    readonly runner: JobRunner,
    readonly pool: TrainingPool,
    store: Store,
    log: JobLogger,
  ) {
    this.searches = new SearchRunner(store, runner, log);
  }

  async activeCount(): Promise<number> {
    return this.runner.activeCount;
  }

  async submitTraining(modelId: string): Promise<void> {
    this.runner.submitTraining(modelId);
  }

  async submitScoring(evaluationId: string): Promise<void> {
    this.runner.submitScoring(evaluationId);
  }

  async submitEvaluation(evaluationId: string): Promise<void> {
    this.runner.submitEvaluation(evaluationId);
  }

  async submitSearch(plan: SearchPlan): Promise<void> {
    this.searches.start(plan);
  }

  cancel(id: string): Promise<boolean> {
    return this.runner.cancel(id);
  }

  whenDone(id: string): Promise<void> {
    return this.runner.whenDone(id);
  }

  async isHealthy(): Promise<boolean> {
    return this.pool.alive;
  }

  recover(): Promise<{ requeued: number }> {
    return this.runner.recover();
  }

  close(graceMs: number): Promise<void> {
    return this.runner.close(graceMs);
  }
}
