/**
 * Runs training and scoring jobs on the pool and records every state change.
 * A job ends exactly once: succeeded (result written in one transaction),
 * failed (worker error, crash, OOM, timeout — with a problem object), or
 * cancelled. The guarded UPDATEs in the store make late arrivals harmless.
 * Stopping is cooperative (a shared flag the fit polls, see stop()), so cancel,
 * timeout and shutdown keep the thread; the time limit counts from the start.
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import type { Store, StoreLocator } from "../store/store.js";
import type { Problem } from "../store/models.js";
import type { TrainingPool } from "./pool.js";
import type { FoldsOutput, MembersOutput, ScoreOutput, TrainOutput, WorkerMessage, WorkerTask } from "./worker.js";
import type { SpreadReply, SpreadRequest } from "./member-spread.js";
import type { DatasetRecord } from "../store/datasets.js";
import { assembleValidation, splitCount, type AssemblySpec } from "./validate.js";
import type { Validation } from "./validation.js";
import { describeFailure, jobProblem, memoryLimitProblem } from "./job-failure.js";
import { createStopFlag, requestStop, stopReason, type StopReason } from "./stop-flag.js";
import { StoreUnavailableError } from "../store/store-errors.js";
import { getAlgorithm, loadRegistry } from "../models/lazy-registry.js";
import { identifierWarnings } from "./train.js";

export interface JobOptions {
  /** The store the pool's workers open readers of themselves (src/training/worker.ts). */
  store: StoreLocator;
  /** Per-job wall-clock limit, ms, counted from the moment a worker starts the job (not from submission). */
  timeoutMs: number;
  /** Memory budget of each worker thread running the job, MiB (XIGUA_JOB_MEMORY_MB). */
  memoryMb: number;
  /** The pool threads' heap limit, MiB: named in the out_of_memory problem. */
  heapMb: number;
  /** How long a stopped task may take to notice its flag before its thread is terminated. */
  killGraceMs?: number;
  /** Called when a training job's success is recorded (the job duration metric). */
  onTrained?: (algorithm: string, fitSeconds: number) => void;
}

/** A fit checks its signal every few ms; one that has not stopped by then is stuck in a loop without checkpoints. */
const DEFAULT_KILL_GRACE_MS = 2000;

export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

type JobKind = "train" | "score" | "evaluate";

/** One pool task of a job. Its controller is piscina's: aborting it drops a queued task, or terminates the thread of a running one. */
interface PoolTask {
  kill: AbortController;
  started: boolean;
  ended: boolean;
  killTimer?: NodeJS.Timeout;
}

interface RunningJob {
  kind: JobKind;
  /** Shared with every task's worker (src/training/stop-flag.ts). */
  stop: Int32Array;
  tasks: PoolTask[];
  done: Promise<void>;
  /** This job's markRunning and progress writes, in the order its worker reported them; its outcome is written after them. */
  writes: Promise<void>;
  started: boolean;
  timer?: NodeJS.Timeout;
}

/** A worker task before its progress port is attached. */
type TaskBody = WorkerTask extends infer T ? (T extends unknown ? Omit<T, "port"> : never) : never;

/** What cutting an evaluation into fold chunks needs of its dataset's target column. */
interface TargetFacts {
  usableRows: number;
  missing: number;
  levels: readonly string[];
}

/** Datasets never change, so their target facts are kept for the next evaluation (a search submits hundreds on one dataset). */
const TARGET_FACTS_CACHE = 16;

/** How long a job's state write waits for an unreachable store to come back. */
const STORE_RETRY_MS = 10 * 60 * 1000;

const interruptedProblem = (): Problem => jobProblem("interrupted", "the service stopped while this job was running");

export class JobRunner {
  private readonly running = new Map<string, RunningJob>();
  /** Promises, so that the evaluations a search submits together share one read of their dataset. */
  private readonly targetFacts = new Map<string, Promise<TargetFacts | null>>();
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

  /**
   * Resolves false when the job is not queued or running. The cancellation is recorded
   * before the job is stopped, as before; an await now sits between the two. That is
   * safe: the job's own outcome writes are guarded (succeed needs `running`, failing
   * needs `queued` or `running`), so a job that ends meanwhile either lands first (and
   * this resolves false) or finds the row cancelled and writes nothing; and a job that
   * stops sees the `cancelled` flag and leaves the row to this method.
   */
  async cancel(id: string): Promise<boolean> {
    const job = this.running.get(id);
    const reason = jobProblem("cancelled", "cancelled by a client request");
    const ended = await (id.startsWith("md_")
      ? this.store.models.finishUnsuccessfully(id, "cancelled", reason)
      : this.store.evaluations.finishUnsuccessfully(id, "cancelled", reason));
    if (job) this.stop(job, "cancelled");
    return ended;
  }

  /**
   * Stops a job running here whose row another process already ended (a cancel
   * recorded by an API node, sent to trainers over the queue's stop channel).
   * Nothing is written: the stopped job finds its reason `cancelled` and leaves the row.
   */
  stopLocal(id: string): void {
    const job = this.running.get(id);
    if (job) this.stop(job, "cancelled");
  }

  /** Whether the job runs (or waits for a thread) in this process. */
  has(id: string): boolean {
    return this.running.has(id);
  }

  /**
   * Start-up: jobs left running by a dead process failed; queued ones run again,
   * except a search's candidates: a search cannot resume after a restart, so it
   * and its candidates end as interrupted first (re-queued, they would run for nothing).
   */
  async recover(): Promise<{ requeued: number }> {
    await this.store.searches.recover(jobProblem("interrupted", "the service stopped while this search was running"));
    const models = await this.store.models.recover(interruptedProblem());
    const evaluations = await this.store.evaluations.recover(interruptedProblem());
    models.forEach((id) => this.submitTraining(id));
    for (const id of evaluations) {
      if ((await this.store.evaluations.get(id))?.spec.model_id) this.submitScoring(id);
      else this.submitEvaluation(id);
    }
    return { requeued: models.length + evaluations.length };
  }

  /**
   * Graceful stop: queued jobs stay queued in the database (the next start runs them);
   * running ones get `graceMs` to finish, then are ended as interrupted.
   */
  async close(graceMs: number): Promise<void> {
    this.closing = true;
    for (const job of this.running.values()) if (!job.started) this.stop(job, "shutdown");
    const all = Promise.all([...this.running.values()].map((j) => j.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    // Each job is recorded as interrupted, then stopped (an await between: a job that
    // ends meanwhile is either recorded first or finds its row failed; see cancel()).
    await Promise.all(
      [...this.running].map(async ([id, job]) => {
        if (job.kind === "train") await this.store.models.finishUnsuccessfully(id, "failed", interruptedProblem());
        else await this.store.evaluations.finishUnsuccessfully(id, "failed", interruptedProblem());
        this.stop(job, "shutdown");
      }),
    );
    await all;
  }

  /**
   * Sets the job's shared flag, which its fits poll (cooperative: the thread survives).
   * Tasks still queued leave piscina's queue at once; a running task that has not
   * ended after the grace period is stuck outside any checkpoint, and its thread is
   * terminated (piscina replaces it).
   */
  private stop(job: RunningJob, reason: StopReason): void {
    requestStop(job.stop, reason);
    for (const task of job.tasks) {
      if (task.ended) continue;
      if (!task.started) task.kill.abort(reason);
      else task.killTimer ??= setTimeout(() => task.ended || task.kill.abort(reason), this.options.killGraceMs ?? DEFAULT_KILL_GRACE_MS).unref();
    }
  }

  /**
   * One job = one or more pool tasks sharing a stop flag and a time limit.
   * A cross-validation with several splits is cut into one chunk of folds per
   * worker, so a k-fold evaluation uses every core; the chunks' folds are then
   * assembled here (cheap: scoring held-out predictions).
   *
   * The job is registered synchronously (whenDone and cancel see it at once); an
   * evaluation reads its record first (foldChunks), and if it was stopped during that
   * read, no task is queued and it ends as a stopped queued task would.
   */
  private submit(kind: JobKind, id: string): void {
    if (this.closing) return;
    const job: RunningJob = { kind, stop: createStopFlag(), tasks: [], done: Promise.resolve(), writes: Promise.resolve(), started: false };
    const work: Promise<TrainOutput | ScoreOutput> =
      kind === "evaluate"
        ? this.foldChunks(id).then((chunks) => (stopReason(job.stop) ? Promise.reject(new Error("stopped before it was queued")) : this.startTasks(kind, id, job, chunks)))
        : this.startTasks(kind, id, job, null);
    job.done = work
      .then(
        // After the job's own progress writes: succeed needs the row `running`.
        (output) => job.writes.then(() => this.untilStored(id, () => this.succeed(id, output))),
        (error) => {
          const reason = stopReason(job.stop);
          this.stop(job, "cancelled"); // one chunk failed: the others have nothing left to contribute
          return job.writes.then(() => this.untilStored(id, () => this.fail(id, job, reason, error)));
        },
      )
      .catch((error) => this.log.error({ err: error, job: id }, "recording a job's outcome failed"))
      .finally(() => {
        clearTimeout(job.timer);
        this.running.delete(id);
      });
    this.running.set(id, job);
  }

  /** The job's pool tasks: one, or one per chunk of folds. */
  private startTasks(kind: JobKind, id: string, job: RunningJob, chunks: Awaited<ReturnType<JobRunner["foldChunks"]>>): Promise<TrainOutput | ScoreOutput> {
    const parts = chunks?.ranges.length ?? 1;
    const progress = new Float64Array(parts);
    const ports: MessagePort[] = [];
    // The port's handler used to write synchronously; the writes now chain on job.writes,
    // so they still reach the store in the order the worker sent them.
    const write = (f: () => Promise<unknown>) => {
      job.writes = job.writes.then(f).then(
        () => undefined,
        (err) => this.log.warn({ err, job: id }, "recording a job's progress failed"),
      );
    };
    const onStarted = () => {
      if (job.started) return;
      job.started = true;
      // The time limit counts from here: time spent queued behind other jobs is not this job's.
      job.timer = setTimeout(() => this.stop(job, "timeout"), this.options.timeoutMs).unref();
      write(() => this.untilStored(id, () => (kind === "train" ? this.store.models.markRunning(id) : this.store.evaluations.markRunning(id))));
    };
    /** `part` −1: a spread fit's helper (member-spread.ts), whose progress the fit itself reports. */
    const run = (body: TaskBody, part: number): Promise<TrainOutput | ScoreOutput | FoldsOutput | MembersOutput> => {
      const task: PoolTask = { kill: new AbortController(), started: false, ended: false };
      job.tasks.push(task);
      const { port1, port2 } = new MessageChannel();
      ports.push(port1);
      port1.on("message", (message: WorkerMessage) => {
        if (message.type === "started") {
          task.started = true;
          onStarted();
        } else if (message.type === "spread") {
          this.spread(message, port1, job, (helper) => run(helper, -1) as Promise<MembersOutput>);
        } else if (message.type === "progress" && part >= 0) {
          progress[part] = message.value;
          const overall = progress.reduce((a, b) => a + b, 0) / parts;
          write(() => (kind === "train" ? this.store.models.setProgress(id, overall) : this.store.evaluations.setProgress(id, overall)));
        }
      });
      return this.pool.run({ ...body, port: port2 } as WorkerTask, task.kill.signal).finally(() => {
        task.ended = true;
        clearTimeout(task.killTimer);
      });
    };
    const base = { store: this.options.store, stop: job.stop, memoryMb: this.options.memoryMb };
    // One task alone may spread an ensemble's members over the other threads; fold chunks already use them.
    const spread = !chunks && this.pool.size > 1;
    const work: Promise<TrainOutput | ScoreOutput> = chunks
      ? Promise.all(chunks.ranges.map(([from, to], part) => run({ kind: "folds", ...base, evaluationId: id, from, to }, part))).then((outputs) => ({
          kind: "score" as const,
          evaluation: assembleValidation(chunks.spec, chunks.classes, outputs.flatMap((o) => (o as FoldsOutput).outcomes)),
          warnings: chunks.warnings,
        }))
      : (run(kind === "train" ? { kind, ...base, spread, modelId: id } : { kind, ...base, spread, evaluationId: id }, 0) as Promise<TrainOutput | ScoreOutput>);
    return work.finally(() => ports.forEach((p) => p.close()));
  }

  /**
   * A task's fit asks for its members to be grown on other threads too: one helper task per
   * other pool thread, each claiming members from the shared counter (so one that gets a
   * thread late claims none and ends), its members or its failure forwarded to the fit.
   * The helpers are the job's tasks: its stop flag, cancel and time limit reach them.
   */
  private spread(request: SpreadRequest, fit: MessagePort, job: RunningJob, start: (helper: TaskBody) => Promise<MembersOutput>): void {
    const { id, work, count, next } = request;
    const reply = (message: SpreadReply) => fit.postMessage(message);
    for (let h = 1; h < this.pool.size; h++) {
      this.spreadHelpers++;
      start({ kind: "members", store: this.options.store, stop: job.stop, memoryMb: this.options.memoryMb, work, count, next }).then(
        (out) => reply({ type: "members", id, members: out.members }),
        (error: unknown) => reply({ type: "spread-failed", id, message: error instanceof Error ? error.message : String(error) }),
      );
    }
  }

  /** Helper tasks started for spread fits (tests check that a fit did spread). */
  spreadHelpers = 0;

  /**
   * Fold ranges for a cross-validation evaluation, one per worker; null when it is better
   * run as one task. Runs on the main thread for every submitted evaluation, so it reads
   * the stored spec's resolved fields (the route resolved and validated it; the worker
   * resolves it again and reports any problem) and the target's facts once per dataset.
   */
  private async foldChunks(id: string): Promise<{ ranges: [number, number][]; spec: AssemblySpec; classes: string[] | null; warnings: string[] } | null> {
    if (this.pool.size < 2) return null;
    const record = await this.store.evaluations.get(id);
    if (!record || record.spec.model_id) return null;
    const stored = record.spec as { target?: unknown; validation?: Validation; positive_class?: string | null; beta?: number; left_out_identifiers?: string[] };
    if (typeof stored.target !== "string" || !stored.validation) return null;
    const target = await this.targetFactsOf(record.dataset_id, stored.target);
    if (!target) return null;
    const splits = splitCount(stored.validation, target.usableRows);
    if (splits < 2) return null;
    const parts = Math.min(splits, this.pool.size);
    const ranges: [number, number][] = Array.from({ length: parts }, (_, p) => [Math.floor((p * splits) / parts), Math.floor(((p + 1) * splits) / parts)]);
    const spec: AssemblySpec = { validation: stored.validation, positiveClass: stored.positive_class ?? null, ...(stored.beta !== undefined ? { beta: stored.beta } : {}) };
    const classes = record.task === "classification" ? [...target.levels] : null;
    // The same warnings the in-worker path gives (train.ts): identifiers left out, and rows without a target
    // dropped — except by a semi-supervised learner, which keeps them as unlabelled data.
    // A job recovered at start-up may get here before any request has loaded the registry.
    await loadRegistry();
    const keepsUnlabelled = getAlgorithm(record.algorithm)?.accepts.unlabelled === true;
    const warnings = [
      ...identifierWarnings(stored.left_out_identifiers ?? []),
      ...(target.missing && !keepsUnlabelled ? [`${target.missing} rows with a missing target were left out`] : []),
    ];
    return { ranges, spec, classes, warnings };
  }

  private targetFactsOf(datasetId: string, column: string): Promise<TargetFacts | null> {
    const key = `${datasetId}\u0000${column}`;
    const cached = this.targetFacts.get(key);
    if (cached) return cached;
    const facts = this.store.datasets.get(datasetId).then((dataset: DatasetRecord | undefined) => {
      // Not kept when the dataset is missing or the read failed: the worker reports the missing dataset.
      if (!dataset) this.targetFacts.delete(key);
      const info = dataset?.columns.find((c) => c.name === column);
      return dataset && info ? { usableRows: dataset.row_count - info.missing_count, missing: info.missing_count, levels: info.levels ?? [] } : null;
    });
    facts.catch(() => this.targetFacts.delete(key));
    if (this.targetFacts.size >= TARGET_FACTS_CACHE) this.targetFacts.delete(this.targetFacts.keys().next().value!);
    this.targetFacts.set(key, facts);
    return facts;
  }

  /**
   * A state write the store could not take because it was unreachable (PostgreSQL
   * restarting) is tried again, backing off to 5 s, for up to STORE_RETRY_MS: a fit
   * that finished while the database was away still lands, and `running` is not left
   * behind. Progress writes are not retried (the next one supersedes them).
   */
  private async untilStored<T>(id: string, write: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + STORE_RETRY_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (e) {
        if (!(e instanceof StoreUnavailableError) || Date.now() > deadline || this.closing) throw e;
        if (attempt === 1) this.log.warn({ job: id, err: e }, "the store is unavailable; recording this job's state again shortly");
        await new Promise((r) => setTimeout(r, Math.min(5000, 250 * 2 ** attempt)));
      }
    }
  }

  private async succeed(id: string, output: TrainOutput | ScoreOutput): Promise<void> {
    if (output.kind === "score") {
      await this.store.evaluations.succeed(id, { ...output.evaluation, ...(output.warnings.length ? { warnings: output.warnings } : {}) } as unknown as Record<string, unknown>);
      return;
    }
    const model = await this.store.models.get(id);
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
    // One unit of work in the store (artifact, metrics, evaluation); the read above is only for the spec, which never changes.
    const recorded = await this.store.models.succeed(id, {
      artifact: Buffer.from(output.artifact),
      sha256: output.sha256,
      classes: output.classes,
      metrics: (output.evaluation?.metrics as Record<string, number | null> | undefined) ?? null,
      warnings: output.warnings,
      fitSeconds: output.fitSeconds,
      evaluation,
      pipeline: output.pipeline,
      facts: output.facts ?? null,
    });
    if (!recorded) return;
    this.options.onTrained?.(model.spec.algorithm, output.fitSeconds);
    this.log.info({ model: id, fit_seconds: output.fitSeconds }, "model trained");
  }

  private async fail(id: string, job: RunningJob, reason: StopReason | null, error: unknown): Promise<void> {
    if (reason === "cancelled") return; // recorded by cancel()
    if (reason === "shutdown") return; // queued: stays queued; running: recorded by close()
    const failure =
      reason === "timeout"
        ? { problem: jobProblem("timeout", `the job exceeded its time limit of ${this.options.timeoutMs / 1000} s (XIGUA_JOB_TIMEOUT_S)`) }
        : reason === "memory"
          ? { problem: memoryLimitProblem(this.options.memoryMb), internal: (error as { message?: string })?.message }
          : describeFailure(error, { jobId: id, memoryMb: this.options.memoryMb, heapMb: this.options.heapMb });
    const p = failure.problem;
    const ended = await (job.kind === "train" ? this.store.models.finishUnsuccessfully(id, "failed", p) : this.store.evaluations.finishUnsuccessfully(id, "failed", p));
    if (!ended) return;
    if (p.status >= 500) this.log.error({ job: id, code: p.code, error: failure.internal }, "job failed");
    else this.log.warn({ job: id, code: p.code, detail: p.detail, ...(failure.internal ? { error: failure.internal } : {}) }, "job failed");
  }
}
