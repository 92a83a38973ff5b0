/**
 * A trainer: the consumer side of the BullMQ queue, what `xigua worker` runs.
 * It takes jobs (as many at once as it has worker threads), runs each through a
 * JobRunner of its own — the same code, limits and outcome writes as the
 * embedded service — and keeps its event loop free, because BullMQ renews a
 * job's lock from it: a blocked loop would let the lock lapse and the job be
 * given to another trainer.
 *
 * Failures. A trainer killed mid-job stops renewing its lock; another trainer's
 * stall check puts the job back (maxStalledCount 1), and whoever takes it runs it
 * again from its row, still `running`. A second death makes BullMQ fail the job
 * ("stalled more than allowable limit"), and the row is ended as `interrupted`.
 * A job delivered twice (a lock lapsed under load) runs twice at most; every
 * outcome write is guarded on the row being `running`, so one result lands.
 * A search's orchestration cannot resume elsewhere: a search found `running` is
 * ended as interrupted, with its unfinished candidates.
 */
import { Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import type { Config } from "../../server/config.js";
import { storeLocator } from "../../server/config.js";
import { openStore, type Store } from "../../store/store.js";
import type { Problem } from "../../store/models.js";
import { JobRunner, type JobLogger } from "../jobs.js";
import { jobProblem } from "../job-failure.js";
import { TrainingPool } from "../pool.js";
import { SearchRunner, type SearchPlan } from "../search-runner.js";
import { BullQueue, endQueuedJob, redisConnection, stopChannel, type QueuedKind } from "./bullmq-queue.js";

type TrainerConfig = Pick<
  Config,
  "dbPath" | "databaseUrl" | "queueUrl" | "queueName" | "jobLockMs" | "workers" | "workerHeapMb" | "jobMemoryMb" | "jobTimeoutMs" | "shutdownGraceMs"
>;

const STALLED = /stalled more than allowable limit/;

const interrupted = (what: string): Problem => jobProblem("interrupted", `the trainer running this ${what} stopped, and so did the one that retried it`);

/** How often a trainer looks for queued rows the queue does not hold, and how old such a row must be. */
const RECONCILE_MS = 60_000;
const RECONCILE_AGE_MS = 60_000;
const RECONCILE_BATCH = 1000;

export class Trainer {
  private closed = false;
  private reconcileTimer?: NodeJS.Timeout;

  private constructor(
    private readonly config: TrainerConfig,
    private readonly store: Store,
    private readonly pool: TrainingPool,
    private readonly runner: JobRunner,
    private readonly producer: BullQueue,
    private readonly searches: SearchRunner,
    private readonly subscriber: Redis,
    private readonly worker: Worker,
    private readonly log: JobLogger,
  ) {}

  static async start(config: TrainerConfig, log: JobLogger): Promise<Trainer> {
    if (!config.queueUrl) throw new Error("a trainer takes jobs from a queue: set XIGUA_QUEUE_URL (redis://…)");
    const store = await openStore(storeLocator(config));
    const heapMb = Math.min(config.workerHeapMb, config.jobMemoryMb);
    const pool = new TrainingPool({ workers: config.workers, maxHeapMb: heapMb });
    const runner = new JobRunner(store, pool, { store: storeLocator(config), timeoutMs: config.jobTimeoutMs, memoryMb: config.jobMemoryMb, heapMb }, log);
    // A search's refit goes back to the queue: it must not die with this process.
    const producer = new BullQueue(store, { url: config.queueUrl, name: config.queueName }, log);
    const searches = new SearchRunner(store, { submitEvaluation: (id) => runner.submitEvaluation(id), whenDone: (id) => runner.whenDone(id), submitTraining: (id) => producer.submitTraining(id) }, log);

    const subscriber = redisConnection(config.queueUrl, { failFast: false });
    subscriber.on("error", () => {});
    subscriber.on("message", (_channel: string, id: string) => runner.stopLocal(id));
    await subscriber.subscribe(stopChannel(config.queueName));

    // The worker's processor and the trainer need each other; autorun is off until both exist.
    const ref: { trainer?: Trainer } = {};
    const worker = new Worker(config.queueName, (job: Job) => ref.trainer!.process(job), {
      connection: redisConnection(config.queueUrl, { failFast: false }),
      concurrency: config.workers,
      lockDuration: config.jobLockMs,
      stalledInterval: config.jobLockMs,
      maxStalledCount: 1,
      autorun: false,
    });
    const trainer = new Trainer(config, store, pool, runner, producer, searches, subscriber, worker, log);
    ref.trainer = trainer;
    worker.on("error", (err) => log.warn({ err }, "queue connection error"));
    worker.on("failed", (job, err) => {
      if (job && STALLED.test(err.message)) void trainer.interrupt(job);
    });
    void worker.run();
    await worker.waitUntilReady();
    trainer.startReconciling();
    return trainer;
  }

  /** Runs one job to its recorded end. */
  private async process(job: Job): Promise<string> {
    const kind = job.name as QueuedKind;
    if (kind === "search") return this.processSearch(job.data as SearchPlan);
    const id = (job.data as { id: string }).id;
    if (!this.runner.has(id)) {
      const row = await (kind === "train" ? this.store.models.get(id) : this.store.evaluations.get(id));
      // Cancelled, or ended by an earlier delivery: nothing to run.
      if (!row || (row.status !== "queued" && row.status !== "running")) return "skipped";
      if (row.status === "running") this.log.warn({ job: id, stalled: job.stalledCounter }, "running a job again: the trainer that held it stopped");
      // With the logger's pid: which trainer ran a job, for operators (and the cluster tests, which kill it).
      else this.log.info({ job: id, kind }, "job taken");
      if (kind === "train") this.runner.submitTraining(id);
      else if (kind === "score") this.runner.submitScoring(id);
      else this.runner.submitEvaluation(id);
    }
    await this.runner.whenDone(id);
    return "done";
  }

  private async processSearch(plan: SearchPlan): Promise<string> {
    const status = await this.store.searches.status(plan.searchId);
    if (status === "running") {
      await endQueuedJob(this.store, "search", plan, jobProblem("interrupted", "the trainer running this search stopped; a search cannot resume elsewhere"));
      return "interrupted";
    }
    if (status !== "queued") return "skipped";
    await this.searches.execute(plan);
    return "done";
  }

  /** A job BullMQ gave up on after its second stall: its row must not stay `running`. */
  private async interrupt(job: Job): Promise<void> {
    try {
      await endQueuedJob(this.store, job.name as QueuedKind, job.data as object, interrupted(job.name === "search" ? "search" : "job"));
    } catch (err) {
      this.log.error({ err, job: job.id }, "recording an interrupted job failed");
    }
  }

  /**
   * Queued rows the queue has lost go back to it. Rows younger than RECONCILE_AGE_MS
   * are left alone: their API process may be about to queue them. A search's plan
   * is not stored, so a search the queue lost stays queued (see the README).
   */
  private async reconcile(): Promise<void> {
    const before = new Date(Date.now() - RECONCILE_AGE_MS).toISOString();
    let resent = 0;
    for (const id of await this.store.models.queued(before, RECONCILE_BATCH)) if (await this.producer.resubmit("train", id)) resent++;
    for (const id of await this.store.evaluations.queued(before, RECONCILE_BATCH)) {
      const row = await this.store.evaluations.get(id);
      if (row && (await this.producer.resubmit(row.spec.model_id ? "score" : "evaluate", id))) resent++;
    }
    if (resent > 0) this.log.warn({ resent }, "queued jobs missing from the queue were sent to it again");
  }

  private startReconciling(): void {
    const tick = () =>
      this.reconcile()
        .catch((err) => this.log.warn({ err }, "checking queued jobs against the queue failed"))
        .finally(() => {
          if (!this.closed) this.reconcileTimer = setTimeout(tick, RECONCILE_MS).unref();
        });
    void tick();
  }

  /** Number of jobs this trainer is running now (tests, metrics). */
  get running(): number {
    return this.runner.activeCount;
  }

  /**
   * Graceful stop: take no more jobs; running ones get the grace period, then are
   * ended as interrupted (as the embedded service does on shutdown).
   */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconcileTimer);
    const closing = this.worker.close();
    await this.runner.close(this.config.shutdownGraceMs);
    await closing;
    await this.pool.destroy();
    await this.producer.close();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
    await this.store.close();
  }
}
