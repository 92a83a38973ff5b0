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
import type { DatasetSummary } from "../../store/datasets.js";
import { ApiError, notFound } from "../errors.js";
import { errorResponses, idParams, listOf, paginationQuery, problemSchema } from "../schemas/common.js";
import { columnsPage, columnsQuery, createDatasetCsvQuery, createDatasetJson, datasetSchema, levelsPage, levelsQuery, rowsPage, rowsQuery } from "../schemas/datasets.js";
import { cursorSeq, page } from "./pagination.js";

export function datasetToWire(d: DatasetSummary) {
  return { id: d.id, name: d.name, row_count: d.row_count, column_count: d.column_count, columns: d.columns_head, created_at: d.created_at };
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

/** The JSON body parser refuses any `__proto__` key (400 malformed_request); a CSV upload naming one gets the same answer. */
const protoKey = (path: string) =>
  new ApiError("malformed_request", '"__proto__" cannot be a column name or key (the JSON parser refuses it too)', [{ path, message: "forbidden key" }]);

/**
 * A CSV that cannot be read as a table (unclosed quote, ragged row, empty or
 * repeated header name, no rows) is malformed: 400. A readable table that cannot be
 * used as given (column_types naming no column, a forced type that does not fit, a
 * reserved column name) is a 422 invalid_data, as the same mistake is in JSON.
 */
function asReadFailure(e: unknown): never {
  if (e instanceof DataError && e.name === "DataError") {
    const path = e.path ?? "body";
    if (path === "header.__proto__") throw protoKey(path);
    if (path === "body" || path === "header" || path.startsWith("line ")) {
      throw new ApiError("malformed_request", e.message, [{ path, message: e.message }]);
    }
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
          asReadFailure(e);
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
      const record = store.datasets.summary(request.params.id);
      if (!record) throw notFound("dataset", request.params.id);
      return datasetToWire(record);
    },
  );

  app.get(
    "/datasets/:id/columns",
    {
      schema: {
        tags: ["datasets"],
        summary: "Page through a dataset's column descriptions (a dataset object carries only the first 100)",
        params: idParams,
        querystring: columnsQuery,
        response: { 200: columnsPage, 404: problemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const page = store.datasets.columns(request.params.id, request.query.offset, request.query.limit);
      if (!page) throw notFound("dataset", request.params.id);
      return page;
    },
  );

  app.get(
    "/datasets/:id/levels",
    {
      schema: {
        tags: ["datasets"],
        summary: "Page through the levels of a categorical column (a column summary carries only the first 100)",
        params: idParams,
        querystring: levelsQuery,
        response: { 200: levelsPage, 404: problemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { column, offset, limit } = request.query;
      const page = store.datasets.levels(request.params.id, column, offset, limit);
      if (page) return page;
      if (!store.datasets.summary(request.params.id)) throw notFound("dataset", request.params.id);
      throw new ApiError("unknown_column", `dataset ${request.params.id} has no column "${column}"`, [{ path: "query.column", message: "no such column" }]);
    },
  );

  app.get(
    "/datasets/:id/rows",
    { schema: { tags: ["datasets"], summary: "Page through a dataset's rows", params: idParams, querystring: rowsQuery, response: { 200: rowsPage, 404: problemSchema, ...errorResponses } } },
    async (request) => {
      const page = store.datasets.loadRows(request.params.id, request.query.offset, request.query.limit);
      if (!page) throw notFound("dataset", request.params.id);
      return { items: frameRows(page.frame, 0, page.frame.rowCount), total: page.total };
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
