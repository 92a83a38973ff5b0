/**
 * The predict computation shared by the request thread (small batches) and the
 * compute pool (large ones): raw rows in, the response's JSON text out.
 *
 * The response is serialised here with JSON.stringify and sent as text: checking
 * it against its zod schema cell by cell cost 18–110 ms for 10k rows against
 * 4–14 ms to serialise. Its shape is kept by construction (and by a test that
 * parses responses with `predictResponse`); the schema still documents it.
 */
import type { Frame } from "../data/frame.js";
import { encodeRows } from "../data/rows.js";
import type { Prediction } from "../models/contract.js";
import { refuseDeepBody } from "./plugins/body-depth.js";
import type { FittedModel } from "../training/artifact.js";
import { predictPipeline } from "../training/pipeline.js";
import { applyThreshold, ThresholdError } from "../training/scoring.js";
import { ApiError } from "./errors.js";
import { parseJsonBlocks } from "./json-blocks.js";

export { parseJsonBlocks };
import { isWellFormedPredictBody } from "./fast-validation.js";
import type { CachedModel, ModelCache } from "./model-cache.js";
import { jsonPointerToPath } from "./plugins/errors.js";
import { predictBody, type PredictBody } from "./schemas/models.js";

/** Rows above this go to the compute pool (a 1,000-row CART batch costs ≈ 2 ms on the request thread). */
export const INLINE_MAX_ROWS = 1000;
/**
 * Bodies above this are not even parsed on the request thread: JSON.parse of a
 * 100k-row, 30-feature body (75 MB) takes ≈ 0.5 s. 256 KiB parses in well under 1 ms.
 */
export const INLINE_MAX_BODY_BYTES = 256 * 1024;
/**
 * Predict cost grows with the model as well as the rows (kNN keeps its training
 * rows, SVMs their support vectors, MLPs their weights): each row counts one unit
 * per started 64 KiB of the model's estimated size, and past INLINE_MAX_ROWS units
 * the batch goes to the pool.
 */
const MODEL_BYTES_PER_UNIT = 64 * 1024;

/** A compute thread's predict answer ends with the number of rows predicted, a big-endian uint32 (for the metrics). */
export const PREDICT_ROWS_TRAILER_BYTES = 4;

/** A batch's predict cost in the units above: rows × started 64 KiB of the model. */
const costUnits = (rows: number, modelBytes: number) => rows * Math.max(1, Math.ceil(modelBytes / MODEL_BYTES_PER_UNIT));

export function runsInline(rows: number, modelBytes: number): boolean {
  return costUnits(rows, modelBytes) <= INLINE_MAX_ROWS;
}

/** No range smaller than this: below it a thread's hop costs more than its share of the work. */
export const SPLIT_MIN_ROWS = 256;

/** How many row ranges a batch is cut into on a pool of `threads` threads: 1 when it costs less than `minUnits` (XIGUA_PREDICT_SPLIT_UNITS). */
export function splitParts(rows: number, modelBytes: number, threads: number, minUnits: number): number {
  if (threads < 2 || costUnits(rows, modelBytes) < minUnits) return 1;
  return Math.max(1, Math.min(threads, Math.floor(rows / SPLIT_MIN_ROWS)));
}

/** The model to serve, from a cache; a stored artifact that no longer loads (schema change, corruption) is a 409, not a 500. */
/** The loaded model; the cache hit path is `cache.peek(id, sha256) ?? (await servingModel(...))`. */
export async function servingModel(cache: ModelCache, id: string, sha256: string): Promise<CachedModel> {
  // A stored artifact that no longer loads rejects with ArtifactError: a 409 through clientProblem (compute/problem.ts), on either thread.
  const model = await cache.get(id, sha256);
  if (!model || model.sha256 !== sha256) throw new ApiError("wrong_state", `model ${id} has no artifact, or it changed while the request waited`, undefined, 409);
  return model;
}

export function checkRowCount(rows: number, max: number): void {
  if (rows > max) {
    throw new ApiError("payload_too_large", `${rows} rows in one request; the limit is ${max} (XIGUA_PREDICT_MAX_ROWS): send them in batches`, [
      { path: "rows", message: `at most ${max} rows` },
    ]);
  }
}

/**
 * The request thread's parse and validation, done off it: JSON, then the row cap
 * (before any per-row work), then the same checks and errors as the route's validator.
 */
export function parsePredictBody(blocks: readonly Uint8Array[], maxRows: number): PredictBody {
  const body = parseJsonBlocks(blocks);
  // The request thread's depth guard saw only these bytes, so the same guard runs here, after parsing.
  refuseDeepBody(body);
  const rows = (body as { rows?: unknown } | null)?.rows;
  if (Array.isArray(rows)) checkRowCount(rows.length, maxRows);
  if (isWellFormedPredictBody(body)) return body as PredictBody;
  const parsed = predictBody.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => ({ path: jsonPointerToPath(`/${issue.path.join("/")}`) || "body", message: issue.message }));
  throw new ApiError("validation_failed", `${errors.length} field(s) failed validation`, errors, 400);
}

function moveThreshold(model: FittedModel, prediction: Prediction, threshold: number | "rescale"): Prediction {
  try {
    return applyThreshold(prediction, { classes: model.classes, positiveClass: model.positiveClass, decisionThreshold: threshold, trainingCounts: model.classCounts ?? undefined });
  } catch (e) {
    if (e instanceof ThresholdError || e instanceof RangeError) throw new ApiError("unusable_request", e.message, [{ path: "decision_threshold", message: e.message }]);
    throw e;
  }
}

const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** Rows whose output is not a finite number (extreme inputs overflow: 1e308 × a weight is Infinity). */
function rowsWithNonFinite(values: Float64Array, width: number): number[] {
  const rows: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) {
      const row = Math.floor(i / width);
      if (rows[rows.length - 1] !== row) rows.push(row);
    }
  }
  return rows;
}

function nonFiniteWarning(rows: number[]): string {
  const shown = rows.slice(0, 10).join(", ") + (rows.length > 10 ? `, … (${rows.length} in all)` : "");
  return `the output of ${rows.length} row(s) is not a finite number (an input too extreme for the model overflowed) and is sent as null: rows ${shown}`;
}

/**
 * `withProbabilities`: true adds them (a 422 when the model has none), "available" adds
 * them when the model gives them (the interop formats, whose outputs are optional).
 */
export function predictionToWire(model: FittedModel, p: Prediction, withProbabilities: Probabilities): Omit<PredictWire, "model_id"> {
  switch (p.task) {
    case "classification": {
      const classes = model.classes!;
      const k = classes.length;
      const bad = p.proba ? rowsWithNonFinite(p.proba, k) : [];
      const predictions: (string | null)[] = Array.from(p.labels, (c) => classes[c]);
      for (const i of bad) predictions[i] = null;
      const warnings = bad.length ? { warnings: [nonFiniteWarning(bad)] } : {};
      if (!withProbabilities || (withProbabilities === "available" && !p.proba)) return { predictions, ...warnings };
      if (!p.proba) throw new ApiError("unusable_request", `${model.algorithm.name} gives no probabilities with these params`, [{ path: "probabilities", message: "not available" }]);
      const proba = p.proba;
      const probabilities = predictions.map((_, i) => {
        const row: Record<string, number | null> = {};
        for (let j = 0; j < k; j++) row[classes[j]] = finiteOrNull(proba[i * k + j]);
        return row;
      });
      return { predictions, probabilities, ...warnings };
    }
    case "regression": {
      const bad = rowsWithNonFinite(p.values, 1);
      return { predictions: Array.from(p.values, finiteOrNull), ...(bad.length ? { warnings: [nonFiniteWarning(bad)] } : {}) };
    }
    case "clustering": {
      const predictions = Array.from(p.labels);
      if (!withProbabilities || (withProbabilities === "available" && !p.proba)) return { predictions };
      if (!p.proba) throw new ApiError("unusable_request", `${model.algorithm.name} gives no membership probabilities`, [{ path: "probabilities", message: "not available" }]);
      const proba = p.proba;
      const k = proba.length / Math.max(predictions.length, 1);
      const probabilities = predictions.map((_, i) => {
        const row: Record<string, number | null> = {};
        for (let j = 0; j < k; j++) row[String(j)] = finiteOrNull(proba[i * k + j]);
        return row;
      });
      return { predictions, probabilities };
    }
    case "projection": {
      const bad = rowsWithNonFinite(p.values, p.dims);
      const rows: (number | null)[][] = [];
      for (let i = 0; i < p.values.length; i += p.dims) rows.push(Array.from(p.values.subarray(i, i + p.dims), finiteOrNull));
      return { projections: rows, ...(bad.length ? { warnings: [nonFiniteWarning(bad)] } : {}) };
    }
    case "anomaly": {
      if (withProbabilities === true) throw new ApiError("unusable_request", `${model.algorithm.name} gives no probabilities; every response carries the anomaly scores`, [{ path: "probabilities", message: "not available" }]);
      return { predictions: Array.from(p.labels, (l) => (l === 1 ? "outlier" : "inlier")), scores: Array.from(p.scores, finiteOrNull) };
    }
  }
}

/** A named model's registry identity, which its predict responses carry beside model_id. */
export interface RegistryIdentity {
  name: string | null;
  version: number | null;
}

/** Validated rows → the 200 response body as JSON text. Throws ApiError / DataError (the caller maps them). */
export function predictJson(modelId: string, model: FittedModel, body: PredictBody, identity?: RegistryIdentity): string {
  return JSON.stringify(predictWire(modelId, model, body, body.probabilities ?? false, identity));
}

/** Validated rows → the 200 response body (POST /v1/models/{id}/predict's shape); other formats convert this object. */
export function predictWire(modelId: string, model: FittedModel, body: PredictBody, probabilities: Probabilities = body.probabilities ?? false, identity?: RegistryIdentity): PredictWire {
  return wireOf(modelId, model, predictRows(modelId, model, body), probabilities, identity);
}

/** The model's output for some rows → the response body: the same object predictWire builds from the rows themselves. */
export function wireOf(modelId: string, model: FittedModel, prediction: Prediction, probabilities: Probabilities, identity?: RegistryIdentity): PredictWire {
  const named = identity?.name != null ? { name: identity.name, version: identity.version } : null;
  return { model_id: modelId, ...named, ...predictionToWire(model, prediction, probabilities) };
}

export type Probabilities = boolean | "available";

/** The wire fields of a predict response (predictResponse in schemas/models.ts documents them). */
export interface PredictWire {
  model_id: string;
  /** A named model's registry identity. */
  name?: string;
  version?: number | null;
  predictions?: (string | number | null)[];
  probabilities?: Record<string, number | null>[];
  projections?: (number | null)[][];
  /** Anomaly models: each row's score s(x, ψ) in (0, 1], higher is more anomalous. */
  scores?: (number | null)[];
  warnings?: string[];
}

/** The model's output for validated rows (threshold moved when asked). */
export function predictRows(modelId: string, model: FittedModel, body: Pick<PredictBody, "rows" | "decision_threshold">): Prediction {
  return withThreshold(model, predictPipeline(model.algorithm, model.pipeline, encodedRows(modelId, model, body.rows)), body.decision_threshold);
}

/** Rows read onto the model's features; a transductive model refuses them first (it predicts no new row). */
export function encodedRows(modelId: string, model: FittedModel, rows: PredictBody["rows"]): Frame {
  if (model.algorithm.transductive) {
    throw new ApiError("transductive_model", `${model.algorithm.name} labels only the rows it was trained on and defines no cluster for a new row; GET /v1/models/${modelId}/labels lists them`, [
      { path: "rows", message: "transductive model" },
    ]);
  }
  return encodeRows(rows, model.features);
}

/** The request's decision_threshold applied to the model's output (a whole batch's, or the joined ranges of a split one). */
export function withThreshold(model: FittedModel, prediction: Prediction, threshold: PredictBody["decision_threshold"]): Prediction {
  return threshold === undefined ? prediction : moveThreshold(model, prediction, threshold);
}
