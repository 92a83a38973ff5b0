/**
 * The worker-thread pool (piscina). Each thread has a heap limit, so a runaway
 * job dies alone (ERR_WORKER_OUT_OF_MEMORY rejects its task) and the process lives.
 * Array buffers are outside that limit: the worker's ctx.signal watches them
 * (src/training/task-signal.ts).
 */
import { Piscina } from "piscina";
import type { FoldsOutput, MembersOutput, TrainOutput, ScoreOutput, WorkerTask } from "./worker.js";

export interface PoolOptions {
  workers: number;
  /** Old-generation heap limit per worker thread, MiB. */
  maxHeapMb: number;
}

// Runs the compiled worker in production and the TypeScript source under tsx (tests, dev):
// the worker sits next to this file with the same extension.
const workerFile = new URL(`./worker${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url).href;

export class TrainingPool {
  private started: Piscina | null = null;
  private destroyed = false;

  constructor(private readonly options: PoolOptions) {}

  /**
   * The threads start with the first task, not with the server: each one loads every
   * algorithm family (≈ 60 MiB of RSS) and a server that only serves or stores datasets
   * never needs them. Once started, all of them stay up (below).
   */
  private get piscina(): Piscina {
    if (this.started) return this.started;
    if (this.destroyed) throw new Error("the training pool is closed");
    const options = this.options;
    const piscina = new Piscina({
      filename: workerFile,
      // All threads stay up. With fewer, a thread killed by an abort or a crash was not
      // replaced until the next run() call, and queued tasks waited for it (piscina 5:
      // an abort calls only _ensureMinimumWorkers). Warm threads also keep their SQLite connections.
      minThreads: options.workers,
      maxThreads: options.workers,
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb },
      // A worker that outlives its task must not be frozen between tasks: progress ports are async.
      atomics: "disabled",
    });
    // Errors outside any task (e.g. a thread that failed to start) must not crash the process; tasks see their own rejections.
    piscina.on("error", () => {});
    this.started = piscina;
    return piscina;
  }

  async run(task: WorkerTask, signal: AbortSignal): Promise<TrainOutput | ScoreOutput | FoldsOutput | MembersOutput> {
    return this.piscina.run(task, { transferList: [task.port], signal }) as Promise<TrainOutput | ScoreOutput | FoldsOutput | MembersOutput>;
  }

  /** Most tasks that run at once. */
  get size(): number {
    return this.options.workers;
  }

  get alive(): boolean {
    return !this.destroyed;
  }

  get threadCount(): number {
    return this.started ? this.started.threads.length : 0;
  }

  /** Tasks waiting for a thread. */
  get queueSize(): number {
    return this.started ? this.started.queueSize : 0;
  }

  /** Piscina's utilisation: the threads' busy time over their capacity since the pool started, 0..1. */
  get utilization(): number {
    return this.started ? this.started.utilization : 0;
  }

  /** For tests that kill a worker mid-job. */
  get threads() {
    return this.piscina.threads;
  }

  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    await this.started?.destroy();
  }
}
