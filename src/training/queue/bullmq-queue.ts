/**
 * The producer side of the BullMQ queue (XIGUA_QUEUE_URL): API processes add
 * jobs here and `xigua worker` processes take them (trainer.ts). A BullMQ job
 * carries only the row's id (its id is the row's id, so adding a job twice
 * adds it once) or a search's plan; states, progress and results live in the
 * store.
 *
 *   API process                      Redis                    trainer process
 *   ───────────                      ─────                    ───────────────
 *   insert row (queued) ─▶ store
 *   queue.add(kind, {id}, jobId=id) ─▶ wait list ─▶ Worker (lock, renewed) ─▶ JobRunner ─▶ pool thread
 *   cancel: row → cancelled ─▶ store
 *           publish id ───────────────▶ stop channel ─▶ JobRunner.stopLocal(id)
 *   poll the row (whenDone)  ◀── store ◀──────────────────── outcome, guarded on `running`
 *
 * The producer's connection does not queue commands while Redis is away
 * (enableOfflineQueue: false): a request fails at once with 503 instead of
 * hanging, and its row, already stored, is sent again by recover().
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import type { Store } from "../../store/store.js";
import type { Problem } from "../../store/models.js";
import type { JobLogger } from "../jobs.js";
import type { SearchPlan } from "../search-runner.js";
import { jobProblem } from "../job-failure.js";
import { QueueUnavailableError, type JobQueue } from "./job-queue.js";

export type QueuedKind = "train" | "score" | "evaluate" | "search";

export interface BullQueueOptions {
  url: string;
  name: string;
}

/** The channel trainers listen on for jobs to stop (a cancelled row). */
export const stopChannel = (queueName: string) => `xigua:${queueName}:stop`;

/** Finished BullMQ jobs kept for inspection; the store keeps the real history. */
const KEEP_FINISHED = { count: 1000 };

const WHEN_DONE_POLL_MS = 100;

/** Ends a job's row (a search's: with its unfinished candidates) unless it has ended already. */
export async function endQueuedJob(store: Store, kind: QueuedKind, data: object, problem: Problem): Promise<void> {
  if (kind === "search") {
    const plan = data as SearchPlan;
    await store.searches.finishUnsuccessfully(plan.searchId, "failed", problem);
    for (const c of plan.candidates) await store.evaluations.finishUnsuccessfully(c.evaluation_id, "failed", problem);
    return;
  }
  const { id } = data as { id: string };
  if (kind === "train") await store.models.finishUnsuccessfully(id, "failed", problem);
  else await store.evaluations.finishUnsuccessfully(id, "failed", problem);
}

export function redisConnection(url: string, options: { failFast: boolean }): Redis {
  return new Redis(url, {
    // BullMQ's workers need this null (blocking commands retry forever); producers fail fast instead.
    maxRetriesPerRequest: options.failFast ? 1 : null,
    enableOfflineQueue: !options.failFast,
    // Reconnect forever, backing off to 2 s: Redis coming back resumes service by itself.
    retryStrategy: (times) => Math.min(times * 100, 2000),
    connectTimeout: 2000,
  });
}

async function unavailableOnFailure<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    throw new QueueUnavailableError(`the job queue is unavailable: ${(e as Error).message}`);
  }
}

export class BullQueue implements JobQueue {
  private readonly redis: Redis;
  private readonly queue: Queue;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly options: BullQueueOptions,
    private readonly log: JobLogger,
  ) {
    this.redis = redisConnection(options.url, { failFast: true });
    // ioredis reports every failed reconnect as an error event; unhandled, it would crash the process.
    this.redis.on("error", () => {});
    this.queue = new Queue(options.name, { connection: this.redis });
    this.queue.on("error", () => {});
  }

  async activeCount(): Promise<number> {
    const counts = await unavailableOnFailure(this.queue.getJobCounts("waiting", "active", "delayed", "prioritized"));
    return Object.values(counts).reduce((a, b) => a + b, 0);
  }

  submitTraining(modelId: string): Promise<void> {
    return this.add("train", { id: modelId }, modelId);
  }

  submitScoring(evaluationId: string): Promise<void> {
    return this.add("score", { id: evaluationId }, evaluationId);
  }

  submitEvaluation(evaluationId: string): Promise<void> {
    return this.add("evaluate", { id: evaluationId }, evaluationId);
  }

  submitSearch(plan: SearchPlan): Promise<void> {
    return this.add("search", plan, plan.searchId);
  }

  /**
   * A job that cannot be queued is ended at once (the client gets a 503 and sends the
   * request again): left `queued`, its row would wait for a job no trainer will ever see.
   */
  private async add(kind: QueuedKind, data: object, jobId: string): Promise<void> {
    try {
      await unavailableOnFailure(this.queue.add(kind, data, { jobId, removeOnComplete: KEEP_FINISHED, removeOnFail: KEEP_FINISHED }));
    } catch (e) {
      const problem = jobProblem("interrupted", "the job queue was unavailable when this job was submitted; submit it again");
      await endQueuedJob(this.store, kind, data, problem).catch((err) => this.log.error({ err, job: jobId }, "ending a job that could not be queued failed"));
      throw e;
    }
  }

  /**
   * Sends a stored, queued job to the queue again if the queue does not hold it (Redis
   * restarted without its data, or an API process died between storing and queueing).
   * Adding it twice is harmless: the BullMQ job id is the row's id. True when it was added.
   */
  async resubmit(kind: Exclude<QueuedKind, "search">, id: string): Promise<boolean> {
    if (await this.queue.getJob(id)) return false;
    await this.queue.add(kind, { id }, { jobId: id, removeOnComplete: KEEP_FINISHED, removeOnFail: KEEP_FINISHED });
    return true;
  }

  /**
   * The row first (the store decides whether there was anything to cancel), then the
   * trainers are told; a trainer that misses the message finishes the fit and its
   * guarded write finds the row cancelled. A job still waiting leaves the queue.
   */
  async cancel(id: string): Promise<boolean> {
    const reason = jobProblem("cancelled", "cancelled by a client request");
    const ended = await (id.startsWith("md_") ? this.store.models.finishUnsuccessfully(id, "cancelled", reason) : this.store.evaluations.finishUnsuccessfully(id, "cancelled", reason));
    try {
      await this.redis.publish(stopChannel(this.options.name), id);
      await this.queue.remove(id);
    } catch (err) {
      // remove() refuses a job a trainer holds (the stop message covers it); Redis down: the trainer's write is refused by the row.
      this.log.warn({ err, job: id }, "telling trainers to stop a cancelled job failed");
    }
    return ended;
  }

  /** Polls the row: the job runs in another process. */
  async whenDone(id: string): Promise<void> {
    for (;;) {
      const row = await (id.startsWith("md_") ? this.store.models.get(id) : this.store.evaluations.get(id));
      if (!row || (row.status !== "queued" && row.status !== "running") || this.closed) return;
      await new Promise((r) => setTimeout(r, WHEN_DONE_POLL_MS));
    }
  }

  async isHealthy(): Promise<boolean> {
    if (this.redis.status !== "ready") return false;
    try {
      return (await Promise.race([this.redis.ping(), new Promise<string>((r) => setTimeout(() => r("timeout"), 1000).unref())])) === "PONG";
    } catch {
      return false;
    }
  }

  /** Trainers own running jobs (a dead one's are retried through BullMQ's stall check); nothing to do at an API node's start. */
  async recover(): Promise<{ requeued: number }> {
    return { requeued: 0 };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue.close().catch(() => {});
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
