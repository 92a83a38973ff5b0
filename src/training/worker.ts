/**
 * Runs on a pool thread. Thin on purpose: open this thread's own reader of the
 * store (SQLite read-only, or a small PostgreSQL pool), load, call the pure
 * trainer/scorer, return plain data. The thread that owns the job does every
 * write, so a worker that dies mid-job leaves nothing half-written.
 *
 *   main thread                              worker thread
 *   ───────────                              ─────────────
 *   pool.run({kind, id, port, stop}) ──────▶ load spec + Frame (own store reader)
 *   mark running, arm time limit ◀ "started"
 *   write progress           ◀── progress ── fit … (throttled)
 *   cancel / timeout / shutdown:
 *     Atomics.store(stop) ─── shared memory ──▶ ctx.signal.aborted → fit throws,
 *     (not ended 2 s later: piscina            thread kept for the next task
 *      terminates the thread, starts another)
 *           stop = memory ◀── shared memory ── ctx.signal.aborted: heap + array
 *                                              buffers > budget (every ≥ 25 ms)
 *   write model+eval         ◀── result ──── serialize artifact
 *   record the problem       ◀── transportable(error)
 */
import type { MessagePort } from "node:worker_threads";
import { openStore, type Store, type StoreLocator } from "../store/store.js";
import { serializeArtifact } from "./artifact.js";
import { describePipeline, type StepDescription } from "./pipeline.js";
import { scoreModel } from "./score.js";
import { resolveSpec } from "./spec.js";
import { evaluateSpec, trainModel, type EvaluationResult } from "./train.js";
import { learningData } from "./dataset-view.js";
import { planSplits, runFold, type FoldOutcome, type Hooks } from "./validate.js";
import { throwIfAborted, type AbortFlag, type MemberWork } from "../models/contract.js";
import { loadRegistry } from "../models/lazy-registry.js";
import { growerFor } from "../models/ensemble/member-work.js";
import { DatasetDeletedError, transportable } from "./job-failure.js";
import { taskSignal } from "./task-signal.js";
import { growClaimed, memberSpread, type SpreadRequest } from "./member-spread.js";

/** Every task carries its job's stop flag (src/training/stop-flag.ts) and memory budget, MiB. */
interface TaskBase {
  store: StoreLocator;
  port: MessagePort;
  stop: Int32Array;
  memoryMb: number;
  /** Other pool threads may grow this task's ensemble members too (member-spread.ts): the pool has more than one. */
  spread?: boolean;
}

export type WorkerTask =
  | (TaskBase & { kind: "train"; modelId: string })
  | (TaskBase & { kind: "score"; evaluationId: string })
  | (TaskBase & { kind: "evaluate"; evaluationId: string })
  /** Splits [from, to) of an evaluation's cross-validation (the fold-parallel path). */
  | (TaskBase & { kind: "folds"; evaluationId: string; from: number; to: number })
  /** A helper of a spread fit (member-spread.ts): grows the members it claims from `next`. */
  | (TaskBase & { kind: "members"; work: MemberWork; count: number; next: Int32Array });

/** What a helper grew: member index and member. */
export interface MembersOutput {
  kind: "members";
  members: { index: number; value: unknown }[];
}

export type WorkerMessage = { type: "started" } | { type: "progress"; value: number } | SpreadRequest;

export interface TrainOutput {
  kind: "train";
  artifact: Uint8Array;
  sha256: string;
  classes: string[] | null;
  evaluation: EvaluationResult | null;
  warnings: string[];
  fitSeconds: number;
  pipeline: StepDescription[];
  facts: Record<string, number> | null;
}

/** Scoring a model on a dataset, or cross-validating an algorithm spec: both end as an evaluation. */
export interface FoldsOutput {
  kind: "folds";
  outcomes: FoldOutcome[];
}

export interface ScoreOutput {
  kind: "score";
  evaluation: EvaluationResult;
  warnings: string[];
}

/** This thread's readers, one per store it was asked to read (tests run several services in one process). */
const readers = new Map<string, Promise<Store>>();

function reader(locator: StoreLocator): Promise<Store> {
  const key = JSON.stringify(locator);
  let store = readers.get(key);
  if (!store) {
    store = openStore(locator, { readonly: true });
    store.catch(() => readers.delete(key)); // a store that was down when first asked is retried by the next task
    readers.set(key, store);
  }
  return store;
}

/** At most one progress message per 100 ms: a tight fit loop must not flood the main thread. Also a stop checkpoint. */
function progressReporter(port: MessagePort, signal: AbortFlag): (value: number) => void {
  let last = 0;
  return (value) => {
    throwIfAborted(signal);
    const now = Date.now();
    if (now - last < 100 && value < 1) return;
    last = now;
    port.postMessage({ type: "progress", value } satisfies WorkerMessage);
  };
}

export default async function runTask(task: WorkerTask): Promise<TrainOutput | ScoreOutput | FoldsOutput | MembersOutput> {
  task.port.postMessage({ type: "started" } satisfies WorkerMessage);
  const signal = taskSignal(task.stop, task.memoryMb);
  try {
    // Specs, pipelines and artifacts look algorithms up through models/lazy-registry.ts (once per thread).
    await loadRegistry();
    throwIfAborted(signal); // stopped while it was being handed over
    if (task.kind === "members") {
      return { kind: "members", members: growClaimed(growerFor(task.work, { signal }), task.count, task.next, signal) };
    }
    return await run(task, { progress: progressReporter(task.port, signal), signal, ...(task.spread ? { members: memberSpread(task.port, signal) } : {}) });
  } catch (error) {
    throw transportable(error);
  } finally {
    task.port.close();
  }
}

/** Reads the spec and the table (the only awaits), then fits synchronously: the fit's checkpoints poll the shared stop flag, not the event loop. */
async function run(task: Exclude<WorkerTask, { kind: "members" }>, hooks: Hooks & { progress: (value: number) => void }): Promise<TrainOutput | ScoreOutput | FoldsOutput> {
  const { datasets, evaluations, models } = await reader(task.store);
  const { progress } = hooks;
  if (task.kind === "train") {
    const record = await models.get(task.modelId);
    if (!record) throw new Error(`model ${task.modelId} vanished`);
    const [dataset, frame] = await Promise.all([datasets.get(record.spec.dataset_id), datasets.loadFrame(record.spec.dataset_id)]);
    throwIfAborted(hooks.signal);
    if (!dataset || !frame) throw new DatasetDeletedError(`dataset ${record.spec.dataset_id} was deleted before training started`);
    const spec = resolveSpec({ ...record.spec, preprocessing: record.spec.preprocessing as never }, dataset);
    const result = trainModel(frame, spec, hooks);
    const { bytes, sha256 } = serializeArtifact(result.model);
    return {
      kind: "train",
      artifact: bytes,
      sha256,
      classes: result.model.classes,
      evaluation: result.evaluation,
      warnings: result.warnings,
      fitSeconds: result.fitSeconds,
      pipeline: describePipeline(result.model.pipeline),
      facts: result.facts,
    };
  }
  const evaluation = await evaluations.get(task.evaluationId);
  if (!evaluation) throw new Error(`evaluation ${task.evaluationId} vanished`);
  if (task.kind === "folds") {
    const [dataset, frame] = await Promise.all([datasets.get(evaluation.dataset_id), datasets.loadFrame(evaluation.dataset_id)]);
    throwIfAborted(hooks.signal);
    if (!dataset || !frame) throw new DatasetDeletedError(`dataset ${evaluation.dataset_id} was deleted before the evaluation started`);
    const spec = resolveSpec(evaluation.spec as never, dataset, "evaluate");
    const data = learningData(frame, spec.features, spec.target, spec.task, spec.algorithm.accepts.unlabelled);
    const splits = planSplits(spec, data);
    const outcomes: FoldOutcome[] = [];
    const count = task.to - task.from;
    for (let i = task.from; i < task.to; i++) {
      const done = i - task.from;
      const { pipeline: _unused, ...outcome } = runFold(spec, data, splits[i], i, hooks, (f) => progress((done + f) / count));
      outcomes.push(outcome);
    }
    progress(1);
    return { kind: "folds", outcomes };
  }
  if (task.kind === "evaluate") {
    const [dataset, frame] = await Promise.all([datasets.get(evaluation.dataset_id), datasets.loadFrame(evaluation.dataset_id)]);
    throwIfAborted(hooks.signal);
    if (!dataset || !frame) throw new DatasetDeletedError(`dataset ${evaluation.dataset_id} was deleted before the evaluation started`);
    const spec = resolveSpec(evaluation.spec as never, dataset, "evaluate");
    const reference = typeof evaluation.spec.reference === "string" ? evaluation.spec.reference : undefined;
    return { kind: "score", ...evaluateSpec(frame, spec, hooks, { reference }) };
  }
  const modelId = String(evaluation.spec.model_id);
  const [stored, frame] = await Promise.all([models.getArtifact(modelId), datasets.loadFrame(evaluation.dataset_id)]);
  throwIfAborted(hooks.signal);
  if (!stored) throw new Error(`model ${modelId} has no artifact`);
  if (!frame) throw new DatasetDeletedError(`dataset ${evaluation.dataset_id} was deleted before scoring started`);
  return { kind: "score", evaluation: scoreModel(stored.artifact, frame, evaluation.spec, progress), warnings: [] };
}
