/**
 * /v1/datasets: upload (JSON rows or text/csv), list, read, page rows, delete.
 * Parsing and inference are data/ functions; this file only maps HTTP onto them.
 */
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { frameRows } from "../../data/codec.js";
import { DataError } from "../../data/errors.js";
import type { Frame } from "../../data/frame.js";
import { readCsv } from "../../data/read-csv.js";
import { readJsonRows } from "../../data/read-json.js";
import { summarizeColumn } from "../../data/summary.js";
import type { DatasetRecord } from "../../store/datasets.js";
import { ApiError, notFound } from "../errors.js";
import { errorResponses, idParams, listOf, paginationQuery, problemSchema } from "../schemas/common.js";
import { createDatasetCsvQuery, createDatasetJson, datasetSchema, rowsPage, rowsQuery } from "../schemas/datasets.js";
import { cursorSeq, page } from "./pagination.js";

export function datasetToWire(d: DatasetRecord) {
  return { id: d.id, name: d.name, row_count: d.row_count, columns: d.columns, created_at: d.created_at };
}

/** column_types as a query parameter: a JSON object, or "name:type,name:type". */
function parseColumnTypesQuery(raw: string | undefined): Record<string, "numeric" | "categorical"> | undefined {
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = raw.trim().startsWith("{") ? JSON.parse(raw) : Object.fromEntries(raw.split(",").map((pair) => pair.split(":").map((s) => s.trim())));
  } catch {
    throw new ApiError("validation_failed", "column_types is neither a JSON object nor name:type pairs", [{ path: "query.column_types", message: "unreadable" }]);
  }
  const parsed = z.record(z.string(), z.enum(["numeric", "categorical"])).safeParse(value);
  if (!parsed.success) throw new ApiError("validation_failed", 'column_types values must be "numeric" or "categorical"', [{ path: "query.column_types", message: parsed.error.issues[0].message }]);
  return parsed.data;
}

/** Reading failures of the table itself (ragged rows, duplicate headers…) are malformed input: 400. */
function asMalformed(e: unknown): never {
  if (e instanceof DataError && e.name === "DataError") {
    throw new ApiError("malformed_request", e.message, e.path ? [{ path: e.path, message: e.message }] : undefined);
  }
  throw e;
}

export const datasetRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store, config } = app.services;

  app.post(
    "/datasets",
    {
      schema: {
        tags: ["datasets"],
        summary: "Upload a table as JSON rows (application/json) or CSV with a header row (text/csv, name in ?name=)",
        querystring: createDatasetCsvQuery.partial(),
        body: createDatasetJson,
        response: { 201: datasetSchema, ...errorResponses, 413: problemSchema, 415: problemSchema },
      },
      // The body is validated below per content type; Fastify's own check would reject CSV.
      validatorCompiler: ({ httpPart }) => (httpPart === "body" ? (data) => ({ value: data }) : undefined!),
    },
    async (request, reply) => {
      const isCsv = Buffer.isBuffer(request.body);
      let name: string;
      let frame: Frame;
      if (isCsv) {
        const query = createDatasetCsvQuery.safeParse(request.query);
        if (!query.success) {
          throw new ApiError("validation_failed", "a CSV upload needs ?name=", query.error.issues.map((i) => ({ path: `query.${i.path.join(".")}`, message: i.message })));
        }
        name = query.data.name;
        const missingValues = query.data.missing_values?.split(",");
        try {
          frame = readCsv(request.body as unknown as Buffer, { missingValues, columnTypes: parseColumnTypesQuery(query.data.column_types), maxCells: config.maxCells });
        } catch (e) {
          asMalformed(e);
        }
      } else {
        const body = createDatasetJson.safeParse(request.body);
        if (!body.success) {
          throw new ApiError(
            "validation_failed",
            `${body.error.issues.length} field(s) failed validation`,
            body.error.issues.slice(0, 20).map((i) => ({ path: i.path.map((p, k) => (typeof p === "number" ? `[${p}]` : k === 0 ? String(p) : `.${String(p)}`)).join(""), message: i.message })),
          );
        }
        name = body.data.name;
        frame = readJsonRows(body.data.rows, { missingValues: body.data.missing_values, columnTypes: body.data.column_types, maxCells: config.maxCells });
      }
      const columns = frame.columns.map(summarizeColumn);
      const record = store.datasets.insert(name, frame, columns);
      reply.header("location", `/v1/datasets/${record.id}`);
      return reply.code(201).send(datasetToWire(record));
    },
  );

  app.get(
    "/datasets",
    { schema: { tags: ["datasets"], summary: "List datasets, newest first", querystring: paginationQuery, response: { 200: listOf(datasetSchema), ...errorResponses } } },
    async (request) => {
      const { limit, cursor } = request.query;
      return page(store.datasets.list(limit + 1, cursorSeq(cursor)), limit, datasetToWire);
    },
  );

  app.get(
    "/datasets/:id",
    { schema: { tags: ["datasets"], params: idParams, response: { 200: datasetSchema, 404: problemSchema } } },
    async (request) => {
      const record = store.datasets.get(request.params.id);
      if (!record) throw notFound("dataset", request.params.id);
      return datasetToWire(record);
    },
  );

  app.get(
    "/datasets/:id/rows",
    { schema: { tags: ["datasets"], summary: "Page through a dataset's rows", params: idParams, querystring: rowsQuery, response: { 200: rowsPage, 404: problemSchema, ...errorResponses } } },
    async (request) => {
      const frame = store.datasets.loadFrame(request.params.id);
      if (!frame) throw notFound("dataset", request.params.id);
      return { items: frameRows(frame, request.query.offset, request.query.limit), total: frame.rowCount };
    },
  );

  app.delete(
    "/datasets/:id",
    { schema: { tags: ["datasets"], params: idParams, response: { 204: z.null().describe("Deleted"), 404: problemSchema } } },
    async (request, reply) => {
      if (!store.datasets.delete(request.params.id)) throw notFound("dataset", request.params.id);
      return reply.code(204).send(null);
    },
  );
};
