/**
 * Runs training and scoring jobs on the pool and records every state change.
 * A job ends exactly once: succeeded (result written in one transaction),
 * failed (worker error, crash, OOM, timeout — with a problem object), or
 * cancelled. The guarded UPDATEs in the store make late arrivals harmless.
 */
import { MessageChannel } from "node:worker_threads";
import type { Store } from "../store/store.js";
import type { Problem } from "../store/models.js";
import type { TrainingPool } from "./pool.js";
import type { ScoreOutput, TrainOutput, WorkerMessage } from "./worker.js";

export interface JobOptions {
  /** Per-job wall-clock limit, ms. */
  timeoutMs: number;
}

export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

type JobKind = "train" | "score" | "evaluate";

interface RunningJob {
  kind: JobKind;
  controller: AbortController;
  done: Promise<void>;
  started: boolean;
}

class TimeoutError extends Error {}
class CancelledError extends Error {}
class ShutdownError extends Error {}

const problem = (title: string, detail: string, code: string, status = 500): Problem => ({
  type: `urn:xigua:problem:${code}`,
  title,
  status,
  detail,
  code,
});

/** What a job's error says to the client: the reason, never a stack. */
function describeFailure(error: unknown): Problem {
  const e = error as { code?: string; message?: string; name?: string };
  if (e?.code === "ERR_WORKER_OUT_OF_MEMORY") return problem("Training ran out of memory", "the job exceeded the worker heap limit (XIGUA_WORKER_HEAP_MB)", "out_of_memory");
  if (e?.name === "UnusableInputError") return problem("Unusable input", e.message ?? "", "unusable_input", 422);
  if (e?.message?.includes("Terminating worker thread") || e?.message?.includes("worker") && e?.message?.includes("exit")) {
    return problem("Worker crashed", "the worker thread running this job stopped unexpectedly", "worker_crashed");
  }
  return problem("Training failed", e?.message ? String(e.message).slice(0, 500) : "unknown error", "training_failed");
}

export class JobRunner {
  private readonly running = new Map<string, RunningJob>();
  private closing = false;

  constructor(
    private readonly store: Store,
    private readonly pool: TrainingPool,
    private readonly options: JobOptions,
    private readonly log: JobLogger,
  ) {}

  get activeCount(): number {
    return this.running.size;
  }

  submitTraining(modelId: string): void {
    this.submit("train", modelId);
  }

  /** Scores a stored model on a dataset. */
  submitScoring(evaluationId: string): void {
    this.submit("score", evaluationId);
  }

  /** Cross-validates an algorithm spec without keeping a model. */
  submitEvaluation(evaluationId: string): void {
    this.submit("evaluate", evaluationId);
  }

  /** Resolves when the job has ended (at once if it is not running here). */
  whenDone(id: string): Promise<void> {
    return this.running.get(id)?.done ?? Promise.resolve();
  }

  /** Returns false when the job is not queued or running. */
  cancel(id: string): boolean {
    const job = this.running.get(id);
    const reason = problem("Cancelled", "cancelled by a client request", "cancelled", 409);
    const ended =
      id.startsWith("md_") ? this.store.models.finishUnsuccessfully(id, "cancelled", reason) : this.store.evaluations.finishUnsuccessfully(id, "cancelled", reason);
    job?.controller.abort(new CancelledError("cancelled"));
    return ended;
  }

  /** Start-up: jobs left running by a dead process failed; queued ones run again. */
  recover(): { requeued: number } {
    const interrupted = problem("Interrupted", "the service stopped while this job was running", "interrupted");
    const models = this.store.models.recover(interrupted);
    const evaluations = this.store.evaluations.recover(interrupted);
    models.forEach((id) => this.submitTraining(id));
    evaluations.forEach((id) => (this.store.evaluations.get(id)?.spec.model_id ? this.submitScoring(id) : this.submitEvaluation(id)));
    return { requeued: models.length + evaluations.length };
  }

  /**
   * Graceful stop: queued jobs stay queued in the database (the next start runs them);
   * running ones get `graceMs` to finish, then are ended as interrupted.
   */
  async close(graceMs: number): Promise<void> {
    this.closing = true;
    for (const job of this.running.values()) if (!job.started) job.controller.abort(new ShutdownError("shutdown"));
    const all = Promise.all([...this.running.values()].map((j) => j.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    for (const [id, job] of this.running) {
      const interrupted = problem("Interrupted", "the service stopped while this job was running", "interrupted");
      if (job.kind === "train") this.store.models.finishUnsuccessfully(id, "failed", interrupted);
      else this.store.evaluations.finishUnsuccessfully(id, "failed", interrupted);
      job.controller.abort(new ShutdownError("shutdown"));
    }
    await all;
  }

  private submit(kind: JobKind, id: string): void {
    if (this.closing) return;
    const controller = new AbortController();
    const { port1, port2 } = new MessageChannel();
    const job: RunningJob = { kind, controller, done: Promise.resolve(), started: false };
    const timer = setTimeout(() => controller.abort(new TimeoutError(`the job exceeded its time limit of ${this.options.timeoutMs / 1000} s`)), this.options.timeoutMs);
    timer.unref();
    port1.on("message", (message: WorkerMessage) => {
      if (message.type === "started") {
        job.started = true;
        if (kind === "train") this.store.models.markRunning(id);
        else this.store.evaluations.markRunning(id);
      } else if (message.type === "progress") {
        if (kind === "train") this.store.models.setProgress(id, message.value);
        else this.store.evaluations.setProgress(id, message.value);
      }
    });
    const task = kind === "train" ? { kind, dbPath: this.store.path, modelId: id, port: port2 } : { kind, dbPath: this.store.path, evaluationId: id, port: port2 };
    job.done = this.pool
      .run(task, controller.signal)
      .then(
        (output) => this.succeed(id, output),
        (error) => this.fail(id, kind, controller.signal.reason ?? error, error),
      )
      .catch((error) => this.log.error({ err: error, job: id }, "recording a job's outcome failed"))
      .finally(() => {
        clearTimeout(timer);
        port1.close();
        this.running.delete(id);
      });
    this.running.set(id, job);
  }

  private succeed(id: string, output: TrainOutput | ScoreOutput): void {
    if (output.kind === "score") {
      this.store.evaluations.succeed(id, { ...output.evaluation, ...(output.warnings.length ? { warnings: output.warnings } : {}) } as unknown as Record<string, unknown>);
      return;
    }
    const model = this.store.models.get(id);
    if (!model) return;
    const evaluation = output.evaluation
      ? {
          dataset_id: model.spec.dataset_id,
          algorithm: model.spec.algorithm,
          task: model.spec.task,
          method: String(model.spec.validation.method),
          status: "succeeded" as const,
          spec: { ...model.spec, model_id: id },
          result: output.evaluation as unknown as Record<string, unknown>,
        }
      : null;
    const recorded = this.store.models.succeed(id, {
      artifact: Buffer.from(output.artifact),
      sha256: output.sha256,
      classes: output.classes,
      metrics: (output.evaluation?.metrics as Record<string, number | null> | undefined) ?? null,
      warnings: output.warnings,
      fitSeconds: output.fitSeconds,
      evaluation,
    });
    if (recorded) this.log.info({ model: id, fit_seconds: output.fitSeconds }, "model trained");
  }

  private fail(id: string, kind: JobKind, reason: unknown, error: unknown): void {
    if (reason instanceof CancelledError) return; // already recorded by cancel()
    if (reason instanceof ShutdownError) return; // queued: stays queued; running: recorded by close()
    const p = reason instanceof TimeoutError ? problem("Time limit exceeded", reason.message, "timeout") : describeFailure(error);
    const ended = kind === "train" ? this.store.models.finishUnsuccessfully(id, "failed", p) : this.store.evaluations.finishUnsuccessfully(id, "failed", p);
    if (ended) this.log.warn({ job: id, code: p.code, detail: p.detail }, "job failed");
  }
}
