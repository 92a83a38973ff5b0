/**
 * Runs training and scoring jobs on the pool and records every state change.
 * A job ends exactly once: succeeded (result written in one transaction),
 * failed (worker error, crash, OOM, timeout — with a problem object), or
 * cancelled. The guarded UPDATEs in the store make late arrivals harmless.
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import type { Store } from "../store/store.js";
import type { Problem } from "../store/models.js";
import type { TrainingPool } from "./pool.js";
import type { FoldsOutput, ScoreOutput, TrainOutput, WorkerMessage, WorkerTask } from "./worker.js";
import { resolveSpec } from "./spec.js";
import type { ResolvedSpec } from "./train.js";
import { assembleValidation, splitCount } from "./validate.js";

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

/** A worker task before its progress port is attached. */
type TaskBody = WorkerTask extends infer T ? (T extends unknown ? Omit<T, "port"> : never) : never;

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
  if (e?.name === "UnusableInputError" || e?.name === "DataError") {
    const path = (error as { path?: string }).path;
    return { ...problem("Unusable input", e.message ?? "", "unusable_input", 422), ...(path ? { errors: [{ path, message: e.message ?? "" }] } : {}) };
  }
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

  /**
   * One job = one or more pool tasks sharing an abort signal and a time limit.
   * A cross-validation with several splits is cut into one chunk of folds per
   * worker, so a k-fold evaluation uses every core; the chunks' folds are then
   * assembled here (cheap: scoring held-out predictions).
   */
  private submit(kind: JobKind, id: string): void {
    if (this.closing) return;
    const controller = new AbortController();
    const job: RunningJob = { kind, controller, done: Promise.resolve(), started: false };
    const timer = setTimeout(() => controller.abort(new TimeoutError(`the job exceeded its time limit of ${this.options.timeoutMs / 1000} s`)), this.options.timeoutMs);
    timer.unref();
    const chunks = kind === "evaluate" ? this.foldChunks(id) : null;
    const parts = chunks?.ranges.length ?? 1;
    const progress = new Float64Array(parts);
    const ports: MessagePort[] = [];
    const run = (task: TaskBody, part: number): Promise<TrainOutput | ScoreOutput | FoldsOutput> => {
      const { port1, port2 } = new MessageChannel();
      ports.push(port1);
      port1.on("message", (message: WorkerMessage) => {
        if (message.type === "started") {
          if (job.started) return;
          job.started = true;
          if (kind === "train") this.store.models.markRunning(id);
          else this.store.evaluations.markRunning(id);
        } else if (message.type === "progress") {
          progress[part] = message.value;
          const overall = progress.reduce((a, b) => a + b, 0) / parts;
          if (kind === "train") this.store.models.setProgress(id, overall);
          else this.store.evaluations.setProgress(id, overall);
        }
      });
      return this.pool.run({ ...task, port: port2 } as WorkerTask, controller.signal);
    };
    const base = { dbPath: this.store.path };
    const work: Promise<TrainOutput | ScoreOutput> = chunks
      ? Promise.all(chunks.ranges.map(([from, to], part) => run({ kind: "folds", ...base, evaluationId: id, from, to }, part))).then((outputs) => ({
          kind: "score" as const,
          evaluation: assembleValidation(chunks.spec, chunks.classes, outputs.flatMap((o) => (o as FoldsOutput).outcomes)),
          warnings: chunks.warnings,
        }))
      : (run(kind === "train" ? { kind, ...base, modelId: id } : { kind, ...base, evaluationId: id }, 0) as Promise<TrainOutput | ScoreOutput>);
    job.done = work
      .then(
        (output) => this.succeed(id, output),
        (error) => this.fail(id, kind, controller.signal.reason ?? error, error),
      )
      .catch((error) => this.log.error({ err: error, job: id }, "recording a job's outcome failed"))
      .finally(() => {
        clearTimeout(timer);
        ports.forEach((p) => p.close());
        this.running.delete(id);
      });
    this.running.set(id, job);
  }

  /** Fold ranges for a cross-validation evaluation, one per worker; null when it is better run as one task. */
  private foldChunks(id: string): { ranges: [number, number][]; spec: ResolvedSpec; classes: string[] | null; warnings: string[] } | null {
    if (this.pool.size < 2) return null;
    const record = this.store.evaluations.get(id);
    const dataset = record && this.store.datasets.get(record.dataset_id);
    if (!record || !dataset || record.spec.model_id) return null;
    let spec: ResolvedSpec;
    try {
      spec = resolveSpec(record.spec as never, dataset, "evaluate");
    } catch {
      return null; // the worker will report the problem
    }
    const target = dataset.columns.find((c) => c.name === spec.target);
    const usable = dataset.row_count - (target?.missing_count ?? 0);
    const splits = splitCount(spec.validation, usable);
    if (splits < 2) return null;
    const parts = Math.min(splits, this.pool.size);
    const ranges: [number, number][] = Array.from({ length: parts }, (_, p) => [Math.floor((p * splits) / parts), Math.floor(((p + 1) * splits) / parts)]);
    const classes = spec.task === "classification" ? [...(target?.levels ?? [])] : null;
    const warnings = target?.missing_count ? [`${target.missing_count} rows with a missing target were left out`] : [];
    return { ranges, spec, classes, warnings };
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
      pipeline: output.pipeline,
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
