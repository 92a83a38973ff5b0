/**
 * An MLflow or OIP request's answer, routed as /predict routes its bodies: a body
 * left unparsed (over 256 KiB) is parsed, converted and predicted on the compute
 * pool; a parsed one is converted here and predicted here or, for a large batch,
 * on the pool from its original bytes (no structured clone of parsed rows).
 */
import type { FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";
import type { CachedModel } from "../model-cache.js";
import { UnparsedCsvBody } from "../plugins/csv-body.js";
import { runsInline } from "../predict.js";
import { bodyBlocks, UnparsedPredictBody } from "../predict-body.js";
import { predictConverted } from "../serve-predict.js";
import type { Services } from "../services.js";
import { prepare, type InteropFormat, type OipNames } from "./answers.js";

export async function answer(
  services: Pick<Services, "compute" | "config" | "metrics">,
  format: InteropFormat,
  request: FastifyRequest,
  id: string,
  model: CachedModel,
  names?: OipNames,
): Promise<string | Buffer> {
  const { compute, config } = services;
  const maxRows = config.predictMaxRows;
  // The root's text/csv reader hands these routes bytes; they speak JSON (CSV scoring is POST /v1/models/{id}/predict).
  if (Buffer.isBuffer(request.body) || request.body instanceof UnparsedCsvBody) {
    throw new ApiError("unsupported_media_type", `this route takes application/json; a CSV file is scored by POST /v1/models/${id}/predict with Content-Type: text/csv`);
  }
  if (request.body instanceof UnparsedPredictBody) return compute.predictInterop(format, id, model.sha256, maxRows, request.body.blocks, names);
  const prepared = prepare(format, model, request.body, maxRows, names);
  if (!runsInline(prepared.body.rows.length, model.bytes)) {
    const blocks = bodyBlocks(request);
    if (blocks) return compute.predictInterop(format, id, model.sha256, maxRows, blocks, names);
  }
  return prepared.finish(await predictConverted(services, id, model, prepared.body, prepared.probabilities));
}
