/**
 * Runs on a pool thread. Thin on purpose: open this thread's own read-only
 * connection, load, call the pure trainer/scorer, return plain data. The main
 * thread does every write, so a worker that dies mid-job leaves nothing half-written.
 *
 *   main thread                         worker thread
 *   ───────────                         ─────────────
 *   pool.run({kind, id, port}) ───────▶ load spec + Frame (read-only db)
 *   mark running        ◀── "started" ─
 *   write progress      ◀── progress ── fit … (throttled)
 *   write model+eval    ◀── result ──── serialize artifact
 */
import type { MessagePort } from "node:worker_threads";
import { openDatabase, type Db } from "../store/database.js";
import { DatasetRepository } from "../store/datasets.js";
import { EvaluationRepository } from "../store/evaluations.js";
import { ModelRepository } from "../store/models.js";
import { serializeArtifact } from "./artifact.js";
import { describePipeline, type StepDescription } from "./pipeline.js";
import { scoreModel } from "./score.js";
import { resolveSpec } from "./spec.js";
import { evaluateSpec, trainModel, type EvaluationResult } from "./train.js";
import { learningData } from "./dataset-view.js";
import { planSplits, runFold, type FoldOutcome } from "./validate.js";

export type WorkerTask =
  | { kind: "train"; dbPath: string; modelId: string; port: MessagePort }
  | { kind: "score"; dbPath: string; evaluationId: string; port: MessagePort }
  | { kind: "evaluate"; dbPath: string; evaluationId: string; port: MessagePort }
  /** Splits [from, to) of an evaluation's cross-validation (the fold-parallel path). */
  | { kind: "folds"; dbPath: string; evaluationId: string; from: number; to: number; port: MessagePort };

export type WorkerMessage = { type: "started" } | { type: "progress"; value: number };

export interface TrainOutput {
  kind: "train";
  artifact: Uint8Array;
  sha256: string;
  classes: string[] | null;
  evaluation: EvaluationResult | null;
  warnings: string[];
  fitSeconds: number;
  pipeline: StepDescription[];
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

const connections = new Map<string, Db>();

function connection(path: string): Db {
  let db = connections.get(path);
  if (!db || !db.open) {
    db = openDatabase(path, { readonly: true });
    connections.set(path, db);
  }
  return db;
}

/** At most one progress message per 100 ms: a tight fit loop must not flood the main thread. */
function progressReporter(port: MessagePort): (value: number) => void {
  let last = 0;
  return (value) => {
    const now = Date.now();
    if (now - last < 100 && value < 1) return;
    last = now;
    port.postMessage({ type: "progress", value } satisfies WorkerMessage);
  };
}

export default async function runTask(task: WorkerTask): Promise<TrainOutput | ScoreOutput | FoldsOutput> {
  const db = connection(task.dbPath);
  const datasets = new DatasetRepository(db);
  const evaluations = new EvaluationRepository(db);
  const models = new ModelRepository(db, evaluations);
  task.port.postMessage({ type: "started" } satisfies WorkerMessage);
  const progress = progressReporter(task.port);
  try {
    if (task.kind === "train") {
      const record = models.get(task.modelId);
      if (!record) throw new Error(`model ${task.modelId} vanished`);
      const dataset = datasets.get(record.spec.dataset_id);
      const frame = datasets.loadFrame(record.spec.dataset_id);
      if (!dataset || !frame) throw new Error(`dataset ${record.spec.dataset_id} was deleted before training started`);
      const spec = resolveSpec({ ...record.spec, preprocessing: record.spec.preprocessing as never }, dataset);
      const result = trainModel(frame, spec, { progress });
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
      };
    }
    const evaluation = evaluations.get(task.evaluationId);
    if (!evaluation) throw new Error(`evaluation ${task.evaluationId} vanished`);
    if (task.kind === "folds") {
      const dataset = datasets.get(evaluation.dataset_id);
      const frame = datasets.loadFrame(evaluation.dataset_id);
      if (!dataset || !frame) throw new Error(`dataset ${evaluation.dataset_id} was deleted before the evaluation started`);
      const spec = resolveSpec(evaluation.spec as never, dataset, "evaluate");
      const data = learningData(frame, spec.features, spec.target, spec.task);
      const splits = planSplits(spec, data);
      const outcomes: FoldOutcome[] = [];
      const count = task.to - task.from;
      for (let i = task.from; i < task.to; i++) {
        const done = i - task.from;
        const { pipeline: _unused, ...outcome } = runFold(spec, data, splits[i], i, { progress }, (f) => progress((done + f) / count));
        outcomes.push(outcome);
      }
      progress(1);
      return { kind: "folds", outcomes };
    }
    if (task.kind === "evaluate") {
      const dataset = datasets.get(evaluation.dataset_id);
      const frame = datasets.loadFrame(evaluation.dataset_id);
      if (!dataset || !frame) throw new Error(`dataset ${evaluation.dataset_id} was deleted before the evaluation started`);
      const spec = resolveSpec(evaluation.spec as never, dataset, "evaluate");
      return { kind: "score", ...evaluateSpec(frame, spec, { progress }) };
    }
    const modelId = String(evaluation.spec.model_id);
    const stored = models.getArtifact(modelId);
    if (!stored) throw new Error(`model ${modelId} has no artifact`);
    const frame = datasets.loadFrame(evaluation.dataset_id);
    if (!frame) throw new Error(`dataset ${evaluation.dataset_id} was deleted before scoring started`);
    return { kind: "score", evaluation: scoreModel(stored.artifact, frame, evaluation.spec, progress), warnings: [] };
  } finally {
    task.port.close();
  }
}
