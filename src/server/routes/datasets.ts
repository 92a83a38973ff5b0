/**
 * /v1/datasets: upload (JSON rows or text/csv), list, read, page rows, delete.
 * Parsing and inference are data/ functions; this file only maps HTTP onto them.
 * A body over 256 KiB is read and stored on the compute pool (compute/ingest-dataset.ts).
 */
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { frameRows } from "../../data/codec.js";
import type { DatasetSummary } from "../../store/datasets.js";
import { protoKey, readCsvUpload, storeDataset } from "../compute/ingest-dataset.js";
import { readJsonUpload } from "../compute/ingest-json.js";
import { ApiError, notFound } from "../errors.js";
import { UnparsedCsvBody } from "../plugins/csv-body.js";
import { registerPredictBodyReader, UnparsedPredictBody } from "../predict-body.js";
import { errorResponses, idParams, listOf, paginationQuery, problemSchema } from "../schemas/common.js";
import { columnsPage, columnsQuery, createDatasetCsvQuery, createDatasetJson, datasetSchema, levelsPage, levelsQuery, rowsPage, rowsQuery } from "../schemas/datasets.js";
import { cursorSeq, page } from "./pagination.js";
import { csvOfFrame, EXPORT_CHUNK_ROWS, exportChunks } from "../interop/csv-export.js";
import { wantsCsv } from "../interop/csv.js";
import { Readable } from "node:stream";

export function datasetToWire(d: DatasetSummary) {
  return { id: d.id, name: d.name, row_count: d.row_count, column_count: d.column_count, columns: d.columns_head, ...(d.source ? { source: d.source } : {}), created_at: d.created_at };
}

/**
 * column_types as a query parameter: a JSON object, or "name:type,name:type".
 * Built without zod's record, which drops a `__proto__` key: every name given must
 * reach the reader, so that one naming no column is refused like any other.
 */
function parseColumnTypesQuery(raw: string | undefined): Record<string, "numeric" | "categorical"> | undefined {
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = raw.trim().startsWith("{") ? JSON.parse(raw) : Object.fromEntries(raw.split(",").map((pair) => pair.split(":").map((s) => s.trim())));
  } catch {
    throw new ApiError("validation_failed", "column_types is neither a JSON object nor name:type pairs", [{ path: "query.column_types", message: "unreadable" }]);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ApiError("validation_failed", "column_types must be a JSON object or name:type pairs", [{ path: "query.column_types", message: "not an object" }]);
  }
  for (const [name, type] of Object.entries(value)) {
    if (name === "__proto__") throw protoKey(`query.column_types.${name}`);
    if (type !== "numeric" && type !== "categorical") {
      throw new ApiError("validation_failed", 'column_types values must be "numeric" or "categorical"', [{ path: `query.column_types.${name}`, message: `not a column type: ${JSON.stringify(type)}` }]);
    }
  }
  return value as Record<string, "numeric" | "categorical">;
}

export const datasetRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store, config, compute } = app.services;
  // The predict route's JSON reader: a body over 256 KiB is kept in blocks, for the compute pool to parse.
  registerPredictBodyReader(app, config.bodyLimitBytes);

  app.post(
    "/datasets",
    {
      // A retry with the same Idempotency-Key gets the first response (plugins/idempotency.ts).
      config: { idempotent: true },
      schema: {
        operationId: "createDataset", tags: ["datasets"],
        summary: "Upload a table as JSON rows (application/json) or CSV with a header row (text/csv, name in ?name=)",
        description:
          "Content-Encoding gzip, deflate or br is decoded; the decoded body counts against XIGUA_BODY_LIMIT_MB (413 past it), another coding is a 415. " +
          "CSV bodies being received may together declare at most 4 × XIGUA_BODY_LIMIT_MB: past it 503 with Retry-After. A CSV body that sends nothing for 30 s is a 408.",
        querystring: createDatasetCsvQuery.partial(),
        body: createDatasetJson,
        response: { 201: datasetSchema, ...errorResponses, 408: problemSchema, 413: problemSchema, 415: problemSchema, 503: problemSchema },
      },
      // The body is validated below per content type; Fastify's own check would reject CSV.
      validatorCompiler: ({ httpPart }) => (httpPart === "body" ? (data) => ({ value: data }) : undefined!),
    },
    async (request, reply) => {
      const body = request.body as unknown;
      let record: DatasetSummary;
      if (Buffer.isBuffer(body) || body instanceof UnparsedCsvBody) {
        const query = createDatasetCsvQuery.safeParse(request.query);
        if (!query.success) {
          throw new ApiError("validation_failed", "a CSV upload needs ?name=", query.error.issues.map((i) => ({ path: `query.${i.path.join(".")}`, message: i.message })));
        }
        const { name } = query.data;
        const options = { missingValues: query.data.missing_values?.split(","), columnTypes: parseColumnTypesQuery(query.data.column_types), maxCells: config.maxCells };
        record = Buffer.isBuffer(body)
          ? await storeDataset(store.datasets, name, readCsvUpload(body, options))
          : await compute.ingestDataset({ format: "csv", blocks: body.blocks, length: body.length, name, options });
      } else if (body instanceof UnparsedPredictBody) {
        record = await compute.ingestDataset({ format: "json", blocks: body.blocks, maxCells: config.maxCells });
      } else {
        const { name, frame } = readJsonUpload(body, config.maxCells);
        record = await storeDataset(store.datasets, name, frame);
      }
      reply.header("location", `/v1/datasets/${record.id}`);
      return reply.code(201).send(datasetToWire(record));
    },
  );

  app.get(
    "/datasets",
    { schema: { operationId: "listDatasets", tags: ["datasets"], summary: "List datasets, newest first", querystring: paginationQuery, response: { 200: listOf(datasetSchema), ...errorResponses } } },
    async (request) => {
      const { limit, cursor } = request.query;
      return page(await store.datasets.list(limit + 1, cursorSeq(cursor)), limit, datasetToWire);
    },
  );

  app.get(
    "/datasets/:id",
    { schema: { operationId: "getDataset", summary: "A dataset: its columns (types, levels, summaries) and row count", tags: ["datasets"], params: idParams, response: { 200: datasetSchema, 404: problemSchema } } },
    async (request) => {
      const record = await store.datasets.summary(request.params.id);
      if (!record) throw notFound("dataset", request.params.id);
      return datasetToWire(record);
    },
  );

  app.get(
    "/datasets/:id/columns",
    {
      schema: {
        operationId: "listDatasetColumns", tags: ["datasets"],
        summary: "Page through a dataset's column descriptions (a dataset object carries only the first 100)",
        params: idParams,
        querystring: columnsQuery,
        response: { 200: columnsPage, 404: problemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const page = await store.datasets.columns(request.params.id, request.query.offset, request.query.limit);
      if (!page) throw notFound("dataset", request.params.id);
      return page;
    },
  );

  app.get(
    "/datasets/:id/levels",
    {
      schema: {
        operationId: "listDatasetLevels", tags: ["datasets"],
        summary: "Page through the levels of a categorical column (a column summary carries only the first 100)",
        params: idParams,
        querystring: levelsQuery,
        response: { 200: levelsPage, 404: problemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { column, offset, limit } = request.query;
      const page = await store.datasets.levels(request.params.id, column, offset, limit);
      if (page) return page;
      if (!(await store.datasets.summary(request.params.id))) throw notFound("dataset", request.params.id);
      throw new ApiError("unknown_column", `dataset ${request.params.id} has no column "${column}"`, [{ path: "query.column", message: "no such column" }]);
    },
  );

  app.get(
    "/datasets/:id/rows",
    {
      schema: {
        operationId: "listDatasetRows", tags: ["datasets"],
        summary: "Page through a dataset's rows (Accept: text/csv exports the table as CSV)",
        description:
          "With Accept: text/csv the answer is CSV (header row, missing cells empty, RFC 4180 quoting): the whole table, streamed in chunks of " +
          `${EXPORT_CHUNK_ROWS} rows, when neither offset nor limit is given; otherwise that page.`,
        params: idParams,
        querystring: rowsQuery,
        response: { 200: rowsPage, 404: problemSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const csv = wantsCsv(request.headers.accept);
      const query = new URLSearchParams(request.url.split("?")[1] ?? "");
      const whole = csv && !query.has("offset") && !query.has("limit");
      const page = await store.datasets.loadRows(id, request.query.offset, whole ? EXPORT_CHUNK_ROWS : request.query.limit);
      if (!page) throw notFound("dataset", id);
      if (!csv) return { items: frameRows(page.frame, 0, page.frame.rowCount), total: page.total };
      reply.type("text/csv; charset=utf-8").header("content-disposition", `attachment; filename="${id}.csv"`);
      if (!whole) return reply.send(csvOfFrame(page.frame, true) as never);
      return reply.send(Readable.from(exportChunks(store.datasets, id, page), { objectMode: false }) as never);
    },
  );

  app.delete(
    "/datasets/:id",
    { schema: { operationId: "deleteDataset", summary: "Delete a dataset", tags: ["datasets"], params: idParams, response: { 204: z.null().describe("Deleted"), 404: problemSchema } } },
    async (request, reply) => {
      if (!(await store.datasets.delete(request.params.id))) throw notFound("dataset", request.params.id);
      return reply.code(204).send(null);
    },
  );
};
