/**
 * Predictions for the routes that speak other formats (MLflow invocations, Open
 * Inference Protocol v2, CSV): their payloads are converted to predict rows, and
 * the rows go the way POST /v1/models/{id}/predict sends them — on the request
 * thread when small, on the compute pool otherwise — through the same
 * predictWire, so every format gives the same numbers.
 */
import { ApiError, notFound } from "./errors.js";
import type { CachedModel, ModelCache } from "./model-cache.js";
import { predictWire, runsInline, servingModel, type PredictWire, type Probabilities } from "./predict.js";
import type { PredictBody } from "./schemas/models.js";
import type { Services } from "./services.js";

/** The loaded model behind an id: 404 when there is none, 409 unless it succeeded (or its artifact no longer loads). */
export async function servableModel(models: ModelCache, id: string): Promise<CachedModel> {
  const serving = models.peekServingState(id) ?? (await models.servingState(id));
  if (!serving) throw notFound("model", id);
  if (serving.status !== "succeeded" || !serving.sha256) throw new ApiError("wrong_state", `model ${id} is ${serving.status}; only a succeeded model can do this`);
  return models.peek(id, serving.sha256) ?? (await servingModel(models, id, serving.sha256));
}

/** Converted rows → the predict response object. */
export async function predictConverted(
  services: Pick<Services, "compute" | "config" | "metrics">,
  id: string,
  model: CachedModel,
  body: PredictBody,
  probabilities: Probabilities,
): Promise<PredictWire> {
  // Counted like /predict's rows (GET /metrics), whichever format asked.
  services.metrics.recordPrediction(id, body.rows.length);
  if (runsInline(body.rows.length, model.bytes)) return predictWire(id, model, body, probabilities);
  const { json } = await services.compute.predict(id, model.sha256, services.config.predictMaxRows, { body }, probabilities);
  return JSON.parse(json.toString("utf8")) as PredictWire;
}
