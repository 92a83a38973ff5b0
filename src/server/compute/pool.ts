/**
 * The compute pool: request-scoped work that is O(data) — large predict batches,
 * feature scores — awaited by the request on threads of its own. It is a
 * separate piscina from the training pool, so a request never queues behind an
 * hour-long fit and fits never take its threads. The queue is bounded: past it a
 * request gets 503 + Retry-After instead of waiting without end.
 */
import { Piscina } from "piscina";
import { ApiError } from "../errors.js";
import type { CacheLimits } from "../model-cache.js";
import type { DatasetSummary } from "../../store/datasets.js";
import type { StoreLocator } from "../../store/store.js";
import type { PredictBody } from "../schemas/models.js";
import type { Probabilities, RegistryIdentity } from "../predict.js";
import type { CsvPredictOptions } from "../interop/csv-predict.js";
import type { InteropFormat, OipNames } from "../interop/answers.js";
import type { ExplainOptions, Explained } from "../explain.js";
import type { FeatureScoresTask, WireScore } from "./feature-scores.js";
import type { DatasetUpload } from "./ingest-dataset.js";
import type { TransformTask } from "./transform-dataset.js";
import type { PartialFitTask } from "./partial-fit-model.js";
import type { ModelRecord } from "../../store/models.js";
import { unwrap, type Outcome } from "./problem.js";
import type { ComputeTask, ComputeWorkerData, PredictSplit, PreparedKind } from "./worker.js";
import type { Frame } from "../../data/frame.js";
import type { Prediction } from "../../models/contract.js";
import { concatPredictions } from "../../training/predict-chunks.js";
import { PREDICT_ROWS_TRAILER_BYTES } from "../predict.js";

export interface ComputePoolOptions {
  store: StoreLocator;
  threads: number;
  /** Old-generation heap limit per thread, MiB. */
  maxHeapMb: number;
  /** Each thread's own model cache. */
  cache: CacheLimits;
  /** Tasks waiting for a thread before new ones are refused. */
  maxQueue?: number;
  /** XIGUA_PREDICT_SPLIT_UNITS: the predict cost past which a batch is cut into row ranges. */
  splitUnits: number;
}

// The compiled worker in production, the TypeScript source under tsx (tests, dev).
const workerFile = new URL(`./worker${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url).href;

/** A predict task's answer: the response's bytes, or its failure. */
function bytesOf(result: unknown): Buffer {
  if (ArrayBuffer.isView(result)) return Buffer.from(result.buffer, result.byteOffset, result.byteLength);
  return unwrap(result as Outcome<never>);
}

/** The buffers of a frame's columns, moved to the thread that predicts them rather than copied. */
function frameBuffers(X: Frame): ArrayBuffer[] {
  return X.columns.map((c) => (c.type === "numeric" ? c.values.buffer : c.codes.buffer) as ArrayBuffer);
}

/** The typed arrays of a prediction, moved likewise. */
function predictionBuffers(p: Prediction): ArrayBuffer[] {
  return Object.values(p).flatMap((v) => (ArrayBuffer.isView(v) ? [v.buffer as ArrayBuffer] : []));
}

export class ComputePool {
  private readonly piscina: Piscina;
  /** Its most threads: how many row ranges a large predict batch may be cut into. */
  private readonly threads: number;
  private readonly splitUnits: number;

  constructor(options: ComputePoolOptions) {
    this.threads = options.threads;
    this.splitUnits = options.splitUnits;
    this.piscina = new Piscina({
      filename: workerFile,
      minThreads: 0,
      maxThreads: options.threads,
      // Warm threads keep their store connection and model cache between requests.
      idleTimeout: 60_000,
      maxQueue: options.maxQueue ?? 64,
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb },
      workerData: { store: options.store, cache: options.cache } satisfies ComputeWorkerData,
    });
    // A thread that fails outside a task must not take the process with it; tasks see their own rejections.
    this.piscina.on("error", () => {});
  }

  /** The last prepare task, while it runs. */
  private preparing: Promise<unknown> | null = null;

  /**
   * Called when a large body (plugins/csv-body.ts) starts arriving for a task of this kind:
   * starts a thread and has it load the modules and store connection the task needs
   * meanwhile, so the task does not wait for them after the last byte (a fresh thread
   * took ≈ 120 ms before it read an upload's first byte). Skipped when tasks are waiting.
   */
  prepare(kind: PreparedKind): void {
    if (this.preparing || this.piscina.queueSize > 0) return;
    const done = this.run({ kind: "prepare", for: kind })
      .catch(() => {})
      .finally(() => {
        if (this.preparing === done) this.preparing = null;
      });
    this.preparing = done;
  }

  /** A body's task waits for its prepare task, so that it runs on the prepared thread rather than starting another. */
  private async runPrepared(task: ComputeTask, transferList?: ArrayBuffer[]): Promise<unknown> {
    if (this.preparing) await this.preparing;
    return this.run(task, transferList);
  }

  private async run(task: ComputeTask, transferList?: ArrayBuffer[]): Promise<unknown> {
    try {
      return await this.piscina.run(task, transferList ? { transferList } : undefined);
    } catch (e) {
      if ((e as Error).message === "Task queue is at limit") throw new ApiError("unavailable", "the compute pool is busy; try again shortly");
      throw e;
    }
  }

  /** An unparsed body (its blocks are moved to the thread, not copied) or a parsed one → the 200 response's JSON bytes and the rows predicted. */
  async predict(
    modelId: string,
    sha256: string,
    maxRows: number,
    input: { blocks: Uint8Array<ArrayBuffer>[] } | { body: PredictBody },
    probabilities?: Probabilities,
    identity?: RegistryIdentity,
  ): Promise<{ json: Buffer; rows: number }> {
    const base = { kind: "predict", modelId, sha256, maxRows, parts: this.threads, splitUnits: this.splitUnits, ...(probabilities !== undefined ? { probabilities } : {}), ...(identity ? { identity } : {}) } as const;
    const task: ComputeTask = "blocks" in input ? { ...base, blocks: input.blocks } : { ...base, body: input.body };
    const transferList = "blocks" in input ? input.blocks.map((b) => b.buffer) : undefined;
    let result = await this.run(task, transferList);
    if (!ArrayBuffer.isView(result)) {
      // A batch worth splitting comes back as row ranges (predict.ts splitParts): each is predicted on a thread of its own,
      // at once, and one more task turns the joined output into the response, so the bytes are those of the unsplit batch.
      const split = unwrap(result as Outcome<PredictSplit>);
      const parts = await Promise.all(split.ranges.map((X) => this.run({ kind: "predict-range", modelId, sha256, X }, frameBuffers(X)).then((r) => unwrap(r as Outcome<Prediction>))));
      this.splitBatches++;
      const prediction = concatPredictions(parts);
      result = await this.run({ kind: "predict-finish", modelId, sha256, prediction, split: split.options, ...(identity ? { identity } : {}) }, predictionBuffers(prediction));
      if (!ArrayBuffer.isView(result)) return unwrap(result as Outcome<never>);
    }
    // The row count rides after the JSON (worker.ts withRowCount), for the prediction counters.
    const length = result.byteLength - PREDICT_ROWS_TRAILER_BYTES;
    const rows = new DataView(result.buffer, result.byteOffset + length, PREDICT_ROWS_TRAILER_BYTES).getUint32(0);
    return { json: Buffer.from(result.buffer, result.byteOffset, length), rows };
  }

  /** Predict batches this pool cut into row ranges run on several threads (GET /metrics: xigua_predict_split_batches_total). */
  splitBatches = 0;

  /** An MLflow or OIP body's blocks (moved to the thread) → the response's bytes. */
  async predictInterop(format: InteropFormat, modelId: string, sha256: string, maxRows: number, blocks: Uint8Array<ArrayBuffer>[], names?: OipNames): Promise<Buffer> {
    const task: ComputeTask = { kind: "predict-interop", format, modelId, sha256, maxRows, blocks, ...(names ? { names } : {}) };
    return bytesOf(await this.run(task, blocks.map((b) => b.buffer)));
  }

  /** A text/csv predict body's blocks (moved to the thread) → the response's bytes (JSON or CSV, as `options.format` says). */
  async predictCsv(modelId: string, sha256: string, blocks: Uint8Array<ArrayBuffer>[], length: number, options: CsvPredictOptions): Promise<Buffer> {
    const task: ComputeTask = { kind: "predict-csv", modelId, sha256, blocks, length, options };
    return bytesOf(await this.runPrepared(task, blocks.map((b) => b.buffer)));
  }

  /** The explanation's bytes, or (options null) only a check that the stored artifact still loads. */
  async explain(modelId: string, sha256: string, options: ExplainOptions | null): Promise<Explained | null> {
    return unwrap((await this.run({ kind: "explain", modelId, sha256, options })) as Outcome<Explained | null>);
  }

  async featureScores(datasetId: string, task: FeatureScoresTask): Promise<WireScore[]> {
    return unwrap((await this.run({ kind: "feature-scores", datasetId, ...task })) as Outcome<WireScore[]>);
  }

  /** Reads and stores an upload left in blocks (moved to the thread, not copied); the stored dataset's summary. */
  async ingestDataset(upload: DatasetUpload): Promise<DatasetSummary> {
    const transferList = upload.blocks.map((b) => b.buffer as ArrayBuffer);
    return unwrap((await this.runPrepared({ kind: "ingest-dataset", upload }, transferList)) as Outcome<DatasetSummary>);
  }

  /** A projection model applied to a stored dataset, stored as a new dataset (with its lineage); its summary. */
  async transformDataset(task: TransformTask): Promise<DatasetSummary> {
    return unwrap((await this.run({ kind: "transform-dataset", ...task })) as Outcome<DatasetSummary>);
  }

  /** A model updated with new rows (partial fit), stored as a new model with its lineage; its record. */
  async partialFit(task: PartialFitTask): Promise<ModelRecord> {
    return unwrap((await this.run({ kind: "partial-fit", ...task })) as Outcome<ModelRecord>);
  }

  get threadCount(): number {
    return this.piscina.threads.length;
  }

  /** Tasks waiting for a thread. */
  get queueSize(): number {
    return this.piscina.queueSize;
  }

  /** Piscina's utilisation: the threads' busy time over their capacity since the pool started, 0..1. */
  get utilization(): number {
    return this.piscina.utilization;
  }

  async destroy(): Promise<void> {
    await this.piscina.destroy();
  }
}
