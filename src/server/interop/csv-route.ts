/**
 * The text/csv branch of POST /v1/models/{id}/predict (routes/predict.ts): the query's
 * options, the same serving checks and row limit as JSON, the request thread for a
 * small file and the compute pool for a large one, and the answer as JSON or CSV
 * (Accept: text/csv).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";
import type { UnparsedCsvBody } from "../plugins/csv-body.js";
import { runsInline } from "../predict.js";
import { predictCsvQuery } from "../schemas/models.js";
import { servableModel } from "../serve-predict.js";
import type { Services } from "../services.js";
import { predictTable, type CsvPredictOptions } from "./csv-predict.js";
import { readCsvTable, wantsCsv } from "./csv.js";

function options(request: FastifyRequest, maxRows: number): CsvPredictOptions {
  const query = predictCsvQuery.safeParse(request.query);
  if (!query.success) {
    const errors = query.error.issues.map((i) => ({ path: `query${i.path.length ? "." + i.path.join(".") : ""}`, message: i.message }));
    throw new ApiError("validation_failed", `${errors.length} field(s) failed validation`, errors);
  }
  return {
    maxRows,
    probabilities: query.data.probabilities === "true",
    ...(query.data.decision_threshold !== undefined ? { decisionThreshold: query.data.decision_threshold } : {}),
    format: wantsCsv(request.headers.accept) ? "csv" : "json",
  };
}

export async function predictCsvRoute(services: Services, request: FastifyRequest, reply: FastifyReply, id: string, body: Buffer | UnparsedCsvBody): Promise<FastifyReply> {
  const { models, compute, config } = services;
  const opts = options(request, config.predictMaxRows);
  const model = await servableModel(models, id);
  reply.type(opts.format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8");
  if (opts.format === "csv") reply.header("content-disposition", `attachment; filename="${id}-predictions.csv"`);
  // Already text: sent as is, past the schema serializer (as the JSON path does).
  if (!Buffer.isBuffer(body)) return reply.send((await compute.predictCsv(id, model.sha256, body.blocks, body.length, opts)) as never);
  const table = readCsvTable(body, opts.maxRows);
  if (runsInline(table.cells.length, model.bytes)) return reply.send(predictTable(id, model, table, opts) as never);
  // A copy that owns its ArrayBuffer (a small Buffer may share Node's pool), moved to the thread, which reads it again.
  return reply.send((await compute.predictCsv(id, model.sha256, [new Uint8Array(body)], body.length, opts)) as never);
}
