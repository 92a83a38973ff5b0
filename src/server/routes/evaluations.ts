/**
 * /v1/evaluations: every validated training run writes one; POST scores an
 * existing model on another dataset. The list sends an ETag built from one
 * indexed query, so a dashboard polling with If-None-Match mostly gets a 304.
 */
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { EvaluationRecord } from "../../store/evaluations.js";
import { ApiError, notFound } from "../errors.js";
import { errorResponses, idParams, listOf, paginationQuery, problemSchema } from "../schemas/common.js";
import { createEvaluationBody, evaluationSchema, listEvaluationsQuery } from "../schemas/evaluations.js";
import { cursorSeq, page } from "./pagination.js";
import { z } from "zod";

export function evaluationToWire(e: EvaluationRecord) {
  const result = (e.result ?? {}) as Record<string, unknown>;
  return {
    ...result,
    id: e.id,
    status: e.status,
    ...(e.model_id ? { model_id: e.model_id } : {}),
    dataset_id: e.dataset_id,
    algorithm: e.algorithm,
    params: (e.spec.params as Record<string, unknown>) ?? {},
    task: e.task,
    method: e.method,
    metrics: (result.metrics as Record<string, number | null>) ?? {},
    ...(e.error ? { error: e.error } : {}),
    created_at: e.created_at,
    ...(e.finished_at ? { finished_at: e.finished_at } : {}),
    updated_at: e.updated_at,
  };
}

export const evaluationRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store, jobs } = app.services;

  app.get(
    "/evaluations",
    {
      schema: {
        tags: ["evaluations"],
        summary: "List evaluations, newest first. Sends an ETag; If-None-Match answers 304 when nothing changed.",
        querystring: paginationQuery.extend(listEvaluationsQuery.shape),
        headers: z.object({ "if-none-match": z.string().optional() }),
        response: { 200: listOf(evaluationSchema), 304: z.null().describe("Not modified"), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { limit, cursor, ...filters } = request.query;
      const etag = `W/"ev-${store.evaluations.fingerprint(filters)}-${limit}-${cursor ?? ""}"`;
      reply.header("etag", etag).header("cache-control", "no-cache");
      if (request.headers["if-none-match"] === etag) return reply.code(304).send(null);
      return page(store.evaluations.list(filters, limit + 1, cursorSeq(cursor)), limit, evaluationToWire);
    },
  );

  app.get(
    "/evaluations/:id",
    { schema: { tags: ["evaluations"], params: idParams, response: { 200: evaluationSchema, 404: problemSchema } } },
    async (request) => {
      const e = store.evaluations.get(request.params.id);
      if (!e) throw notFound("evaluation", request.params.id);
      return evaluationToWire(e);
    },
  );

  app.post(
    "/evaluations",
    {
      schema: {
        tags: ["evaluations"],
        summary: "Score an existing model on another dataset (asynchronous: 202, then poll the Location)",
        body: createEvaluationBody,
        response: { 202: evaluationSchema, 404: problemSchema, 409: problemSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { model_id, dataset_id, positive_class } = request.body;
      const model = store.models.get(model_id);
      if (!model) throw new ApiError("not_found", `model ${model_id} does not exist`, [{ path: "model_id", message: "unknown model" }]);
      if (model.status !== "succeeded") throw new ApiError("wrong_state", `model ${model_id} is ${model.status}; only a succeeded model can be scored`);
      const dataset = store.datasets.get(dataset_id);
      if (!dataset) throw new ApiError("not_found", `dataset ${dataset_id} does not exist`, [{ path: "dataset_id", message: "unknown dataset" }]);
      if (!model.spec.target) throw new ApiError("unusable_request", "the model has no target: only supervised models can be scored");
      const columns = new Map(dataset.columns.map((c) => [c.name, c]));
      const needed = [...model.spec.features, model.spec.target];
      const missing = needed.filter((n) => !columns.has(n));
      if (missing.length) throw new ApiError("unknown_column", `the dataset lacks column(s) ${missing.join(", ")}`, missing.map((n) => ({ path: "dataset_id", message: `no column ${n}` })));
      const target = columns.get(model.spec.target)!;
      if ((target.type === "categorical") !== (model.spec.task === "classification")) {
        throw new ApiError("unusable_request", `target "${target.name}" is ${target.type} here but the model does ${model.spec.task}`);
      }
      if (model.classes && target.levels) {
        const unknown = target.levels.filter((l) => !model.classes!.includes(l));
        if (unknown.length) throw new ApiError("unusable_request", `the dataset has classes the model never saw: ${unknown.join(", ")}`, [{ path: "dataset_id", message: "unknown classes" }]);
      }
      if (positive_class !== undefined && !model.classes?.includes(positive_class)) {
        throw new ApiError("unusable_request", `positive_class "${positive_class}" is not a class of the model`, [{ path: "positive_class", message: "unknown class" }]);
      }
      const record = store.evaluations.insert({
        model_id,
        dataset_id,
        algorithm: model.spec.algorithm,
        task: model.spec.task,
        method: "dataset",
        status: "queued",
        spec: { model_id, dataset_id, params: model.spec.params, ...(positive_class ? { positive_class } : {}) },
      });
      jobs.submitScoring(record.id);
      reply.header("location", `/v1/evaluations/${record.id}`);
      return reply.code(202).send(evaluationToWire(record));
    },
  );
};
