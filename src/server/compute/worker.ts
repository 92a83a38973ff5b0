/**
 * A compute-pool thread: request-scoped work that is O(data) and so must not run
 * on the request thread. It opens its own store (SQLite: a read-only connection,
 * and for uploads a read-write one, see ingest-dataset.ts; PostgreSQL: a small
 * pool) and keeps its own model cache; the request thread has already checked that the model or dataset
 * exists, and passes the sha256 it saw, so a model replaced in between is
 * refused rather than served stale.
 *
 *   request thread                         compute thread
 *   ──────────────                         ──────────────
 *   body blocks (transferred) ──────────▶  JSON.parse, row cap, validate
 *                                           load artifact (cached by id + sha256)
 *   send bytes as JSON     ◀── transferred  predict, serialise
 */
import { move, workerData } from "piscina";
import { importBeside } from "../../import-beside.js";
import { loadRegistry } from "../../models/lazy-registry.js";
import { openStore, type Store, type StoreLocator } from "../../store/store.js";
import { ApiError } from "../errors.js";
import type { CacheLimits } from "../model-cache.js";
import type { Frame } from "../../data/frame.js";
import type { Prediction } from "../../models/contract.js";
import type { Probabilities, RegistryIdentity } from "../predict.js";
import type { CsvPredictOptions } from "../interop/csv-predict.js";
import type { InteropFormat, OipNames } from "../interop/answers.js";
import type { PredictBody } from "../schemas/models.js";
import type { ExplainOptions, Explained } from "../explain.js";
import type { FeatureScoresTask, WireScore } from "./feature-scores.js";
import type { DatasetUpload } from "./ingest-dataset.js";
import { problemOf, type Outcome } from "./problem.js";
import type { TransformTask } from "./transform-dataset.js";
import type { PartialFitTask } from "./partial-fit-model.js";

/**
 * What each kind of task needs is imported with its first task: a thread that only
 * stores uploads never loads the models (importing everything took ≈ 300 ms and
 * ≈ 30 MiB before the first upload could start).
 */
const load = <T>(path: string): Promise<T> => importBeside<T>(import.meta.url, path);
const predicting = () => load<typeof import("../predict.js")>("../predict");

export interface ComputeWorkerData {
  store: StoreLocator;
  cache: CacheLimits;
}

export type ComputeTask =
  /** `blocks`: an unparsed body; `body`: one already parsed and validated on the request thread. */
  /** `probabilities` overrides the body's flag ("available": when the model gives them; the interop formats). */
  /** `parts`: the pool's thread count; a batch worth splitting (predict.ts splitParts) answers with a PredictSplit instead of the response. */
  | { kind: "predict"; modelId: string; sha256: string; maxRows: number; blocks?: Uint8Array[]; body?: PredictBody; identity?: RegistryIdentity; probabilities?: Probabilities; parts?: number; splitUnits?: number }
  /** One row range of a split batch, already read onto the model's features → the model's output for it. */
  | { kind: "predict-range"; modelId: string; sha256: string; X: Frame }
  /** A split batch's joined output → the response's bytes, as the predict task gives them. */
  | { kind: "predict-finish"; modelId: string; sha256: string; prediction: Prediction; split: PredictSplitOptions; identity?: RegistryIdentity }
  /** An MLflow or OIP body too large to parse on the request thread. */
  | { kind: "predict-interop"; format: InteropFormat; modelId: string; sha256: string; maxRows: number; blocks: Uint8Array[]; names?: OipNames }
  /** A text/csv predict body's bytes. */
  | { kind: "predict-csv"; modelId: string; sha256: string; blocks: Uint8Array[]; length: number; options: CsvPredictOptions }
  | ({ kind: "feature-scores"; datasetId: string } & FeatureScoresTask)
  | { kind: "ingest-dataset"; upload: DatasetUpload }
  | ({ kind: "transform-dataset" } & TransformTask)
  | ({ kind: "partial-fit" } & PartialFitTask)
  /** Nothing to compute: starts the thread and loads what `for` needs while its body still arrives (pool.ts prepare). */
  | { kind: "prepare"; for: PreparedKind }
  /** `options` null: only check that the stored artifact still loads (the artifact route's 409). */
  | { kind: "explain"; modelId: string; sha256: string; options: ExplainOptions | null };

/** Task kinds whose body may still be arriving when the pool is told of them. */
export type PreparedKind = "ingest-dataset" | "predict-csv";

const { store: locator, cache: limits } = workerData as ComputeWorkerData;

/** Opened on first use, kept while the thread lives; one that failed to open (store down) is retried by the next task. */
function lazily<T>(open: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    if (!value) {
      value = open();
      value.catch(() => (value = undefined));
    }
    return value;
  };
}

const reader = lazily(async () => {
  const { ModelCache } = await load<typeof import("../model-cache.js")>("../model-cache");
  const store = await openStore(locator, { readonly: true });
  return { store, models: new ModelCache(store.models, limits) };
});

/**
 * Uploads write through a store of this thread's own (SQLite: a read-write connection;
 * WAL gives one writer at a time across connections, the others wait up to busy_timeout;
 * readers are never blocked, and see the dataset once it commits). It writes each page
 * once and reads through `reader`, so SQLite's stock 2 MiB page cache is enough: with
 * better-sqlite3's 16 MiB a 100,000 × 20 upload left 16 MiB of its pages cached.
 */
const writer = lazily((): Promise<Store> => openStore(locator, { cacheKib: 2000 }));

/** What the rest of a split batch needs from its body besides the rows. */
export interface PredictSplitOptions {
  rows: number;
  probabilities: Probabilities;
  threshold: PredictBody["decision_threshold"];
}

/** A batch to be predicted in ranges on several threads (compute/pool.ts): its rows already read onto the model's features. */
export interface PredictSplit {
  ranges: Frame[];
  options: PredictSplitOptions;
}

async function predict(task: Extract<ComputeTask, { kind: "predict" }>): Promise<Uint8Array | PredictSplit> {
  const { models } = await reader();
  const { parsePredictBody, predictJson, predictWire, servingModel, splitParts, encodedRows, PREDICT_ROWS_TRAILER_BYTES } = await predicting();
  const body = task.body ?? parsePredictBody(task.blocks!, task.maxRows);
  const model = await servingModel(models, task.modelId, task.sha256);
  const parts = task.parts && task.splitUnits ? splitParts(body.rows.length, model.bytes, task.parts, task.splitUnits) : 1;
  if (parts > 1) {
    const { rowRanges, sliceRows } = await chunking();
    const X = encodedRows(task.modelId, model, body.rows);
    const options = { rows: body.rows.length, probabilities: task.probabilities ?? body.probabilities ?? false, threshold: body.decision_threshold };
    return { ranges: rowRanges(X.rowCount, parts).map(([from, to]) => sliceRows(X, from, to)), options };
  }
  const json = task.probabilities !== undefined ? JSON.stringify(predictWire(task.modelId, model, body, task.probabilities, task.identity)) : predictJson(task.modelId, model, body, task.identity);
  return withRowCount(json, body.rows.length, PREDICT_ROWS_TRAILER_BYTES);
}

const chunking = () => load<typeof import("../../training/predict-chunks.js")>("../../training/predict-chunks");

async function predictRange(task: Extract<ComputeTask, { kind: "predict-range" }>): Promise<Prediction> {
  const { models } = await reader();
  const [{ servingModel }, { predictPipeline }] = await Promise.all([predicting(), load<typeof import("../../training/pipeline.js")>("../../training/pipeline")]);
  const model = await servingModel(models, task.modelId, task.sha256);
  return predictPipeline(model.algorithm, model.pipeline, task.X);
}

async function predictFinish(task: Extract<ComputeTask, { kind: "predict-finish" }>): Promise<Uint8Array> {
  const { models } = await reader();
  const { servingModel, withThreshold, wireOf, PREDICT_ROWS_TRAILER_BYTES } = await predicting();
  const model = await servingModel(models, task.modelId, task.sha256);
  const prediction = withThreshold(model, task.prediction, task.split.threshold);
  return withRowCount(JSON.stringify(wireOf(task.modelId, model, prediction, task.split.probabilities, task.identity)), task.split.rows, PREDICT_ROWS_TRAILER_BYTES);
}

/** Parsed here with the same guards as the request thread's reader (parsePredictBody), then converted, predicted and formatted. */
async function predictInterop(task: Extract<ComputeTask, { kind: "predict-interop" }>): Promise<string> {
  const { models } = await reader();
  const [{ parseJsonBlocks }, { refuseDeepBody }, { servingModel }, { answerHere }] = await Promise.all([
    load<typeof import("../json-blocks.js")>("../json-blocks"),
    load<typeof import("../plugins/body-depth.js")>("../plugins/body-depth"),
    predicting(),
    load<typeof import("../interop/answers.js")>("../interop/answers"),
  ]);
  const payload = parseJsonBlocks(task.blocks);
  refuseDeepBody(payload);
  const model = await servingModel(models, task.modelId, task.sha256);
  return answerHere(task.format, task.modelId, model, payload, task.maxRows, task.names);
}

async function predictCsvTask(task: Extract<ComputeTask, { kind: "predict-csv" }>): Promise<string> {
  const { models } = await reader();
  const [{ servingModel }, { predictCsv }, { joinBlocks }] = await Promise.all([
    predicting(),
    load<typeof import("../interop/csv-predict.js")>("../interop/csv-predict"),
    load<typeof import("../json-blocks.js")>("../json-blocks"),
  ]);
  const model = await servingModel(models, task.modelId, task.sha256);
  return predictCsv(task.modelId, model, joinBlocks(task.blocks, task.length), task.options);
}

async function explain(task: Extract<ComputeTask, { kind: "explain" }>): Promise<Explained | null> {
  const { models } = await reader();
  const [{ servingModel }, { explainModel }] = await Promise.all([predicting(), load<typeof import("../explain.js")>("../explain")]);
  const model = await servingModel(models, task.modelId, task.sha256);
  return task.options ? explainModel(model, task.options) : null;
}

async function featureScores(task: Extract<ComputeTask, { kind: "feature-scores" }>): Promise<WireScore[]> {
  const frame = await (await reader()).store.datasets.loadFrame(task.datasetId);
  if (!frame) throw new ApiError("not_found", `dataset ${task.datasetId} does not exist`);
  const { scoreFeatures } = await load<typeof import("./feature-scores.js")>("./feature-scores");
  return scoreFeatures(frame, task);
}

const ingesting = () => load<typeof import("./ingest-dataset.js")>("./ingest-dataset");

/** The modules and store connection a task of that kind needs (a failure is left for the task itself to report). */
async function prepare(kind: PreparedKind): Promise<void> {
  if (kind === "ingest-dataset") await Promise.all([ingesting(), writer()]);
  else await Promise.all([predicting(), loadRegistry(), load("../interop/csv-predict"), load("../json-blocks"), reader()]);
}

const utf8 = new TextEncoder();

/** The response's UTF-8 bytes and, in the trailer after them (PREDICT_ROWS_TRAILER_BYTES), how many rows were predicted (for the metrics). */
function withRowCount(json: string, rows: number, trailerBytes: number): Uint8Array {
  const bytes = new Uint8Array(Buffer.byteLength(json) + trailerBytes);
  utf8.encodeInto(json, bytes);
  new DataView(bytes.buffer).setUint32(bytes.length - trailerBytes, rows);
  return bytes;
}

/**
 * A predict answers with the response's bytes, moved to the request thread rather
 * than copied (a 100k-row response is tens of MB); TextEncoder gives them their own
 * ArrayBuffer, never a slice of Node's shared Buffer pool. Anything else, and every
 * failure, answers with an Outcome.
 */
/** Kinds that never look an algorithm up: a thread that only stores uploads does not load the registry. */
const WITHOUT_ALGORITHMS: ReadonlySet<ComputeTask["kind"]> = new Set(["ingest-dataset", "feature-scores", "prepare"]);

export default async function runComputeTask(task: ComputeTask): Promise<Uint8Array | Outcome<unknown>> {
  try {
    // Models, their artifacts and pipelines look algorithms up (models/lazy-registry.ts).
    if (!WITHOUT_ALGORITHMS.has(task.kind)) await loadRegistry();
    if (task.kind === "predict") {
      const answer = await predict(task);
      return answer instanceof Uint8Array ? (move(answer) as Uint8Array) : { ok: true, value: answer };
    }
    if (task.kind === "predict-range") return { ok: true, value: await predictRange(task) };
    if (task.kind === "predict-finish") return move(await predictFinish(task)) as Uint8Array;
    if (task.kind === "predict-interop") return move(utf8.encode(await predictInterop(task))) as Uint8Array;
    if (task.kind === "predict-csv") return move(utf8.encode(await predictCsvTask(task))) as Uint8Array;
    if (task.kind === "explain") return { ok: true, value: await explain(task) };
    if (task.kind === "prepare") return { ok: true, value: await prepare(task.for).catch(() => undefined) };
    if (task.kind === "ingest-dataset") {
      const { ingestUpload } = await ingesting();
      return { ok: true, value: await ingestUpload((await writer()).datasets, task.upload) };
    }
    if (task.kind === "transform-dataset") {
      const { transformDataset } = await load<typeof import("./transform-dataset.js")>("./transform-dataset");
      return { ok: true, value: await transformDataset(await reader(), await writer(), task) };
    }
    if (task.kind === "partial-fit") {
      const { partialFitStored } = await load<typeof import("./partial-fit-model.js")>("./partial-fit-model");
      return { ok: true, value: await partialFitStored(await reader(), await writer(), task) };
    }
    return { ok: true, value: await featureScores(task) };
  } catch (e) {
    return { ok: false, problem: problemOf(e) };
  }
}
