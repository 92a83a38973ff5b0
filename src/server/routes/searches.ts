/**
 * /v1/searches: grid or random hyper-parameter search. Every candidate is
 * validated against the algorithm's params schema before anything is queued;
 * each becomes an evaluation (cross-validated on the pool), and with refit the
 * best params train a model on all rows.
 */
import { randomInt } from "node:crypto";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { createRng } from "../../data/random.js";
import { gridCandidates, gridSize, paramDistributionsSchema, paramGridSchema, randomCandidates } from "../../evaluation/search-space.js";
import type { SearchRecord } from "../../store/searches.js";
import { SearchRunner } from "../../training/search-runner.js";
import { ApiError, checkJobCapacity, notFound } from "../errors.js";
import { errorResponses, idParams, jobStatus, listOf, paginationQuery, problemSchema } from "../schemas/common.js";
import { preprocessingStepSchema, validationRequestSchema } from "../schemas/models.js";
import { resolveEvaluationSpec } from "./evaluations.js";
import { cursorSeq, page } from "./pagination.js";

const MAX_CANDIDATES = 500;

const CLASSIFICATION_SCORES = ["accuracy", "error_rate", "precision", "recall", "f1", "auc", "average_precision", "log_loss", "macro_precision", "macro_recall", "macro_f1", "macro_f1_mean", "micro_f1"];
const REGRESSION_SCORES = ["r2", "mse", "rmse", "mae"];
const LOWER_IS_BETTER = new Set(["error_rate", "log_loss", "mse", "rmse", "mae"]);

const createSearchBody = z
  .object({
    dataset_id: z.string().min(1),
    algorithm: z.string().min(1),
    target: z.string().min(1),
    features: z.array(z.string().min(1)).min(1).optional(),
    preprocessing: z.array(preprocessingStepSchema).max(50).optional(),
    method: z.enum(["grid", "random"]).default("grid"),
    param_grid: paramGridSchema.optional().describe("method grid: parameter → values."),
    param_distributions: paramDistributionsSchema.optional().describe("method random: parameter → list or {distribution: uniform | loguniform | randint, low, high}."),
    n_iter: z.number().int().min(1).max(MAX_CANDIDATES).default(10).describe("method random: how many candidates."),
    validation: validationRequestSchema.optional().describe("How each candidate is scored. Default: kfold, k = 5."),
    scoring: z.string().optional().describe(`Metric to rank by. Default accuracy (classification) or r2 (regression). Lower is better for ${[...LOWER_IS_BETTER].join(", ")}.`),
    seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
    refit: z.boolean().default(true).describe("Train a model on all rows with the best params."),
    positive_class: z.string().optional(),
  })
  .strict();

const resultSchema = z.object({
  params: z.record(z.string(), z.unknown()),
  mean_score: z.number().nullable(),
  std_score: z.number().nullable(),
  rank: z.number().nullable(),
  evaluation_id: z.string(),
  status: z.string(),
});

const searchSchema = z
  .object({
    id: z.string(),
    status: jobStatus,
    progress: z.number(),
    dataset_id: z.string(),
    algorithm: z.string(),
    method: z.string(),
    scoring: z.string(),
    target: z.string(),
    validation: z.record(z.string(), z.unknown()),
    seed: z.number().int(),
    results: z.array(resultSchema),
    best_params: z.record(z.string(), z.unknown()).nullable(),
    best_score: z.number().nullable(),
    model_id: z.string().optional(),
    error: problemSchema.optional(),
    created_at: z.string(),
    started_at: z.string().optional(),
    finished_at: z.string().optional(),
  })
  .meta({ id: "Search" });

function searchToWire(s: SearchRecord) {
  return {
    id: s.id,
    status: s.status,
    progress: s.progress,
    dataset_id: s.dataset_id,
    algorithm: s.algorithm,
    method: s.method,
    scoring: s.scoring,
    target: s.spec.target as string,
    validation: s.spec.validation as Record<string, unknown>,
    seed: s.spec.seed as number,
    results: s.results ?? [],
    best_params: s.best?.params ?? null,
    best_score: s.best?.score ?? null,
    ...(s.model_id ? { model_id: s.model_id } : {}),
    ...(s.error ? { error: s.error } : {}),
    created_at: s.created_at,
    ...(s.started_at ? { started_at: s.started_at } : {}),
    ...(s.finished_at ? { finished_at: s.finished_at } : {}),
  };
}

export const searchRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store, jobs } = app.services;
  const runner = new SearchRunner(store, jobs, app.log);
  store.searches.recover({ type: "urn:xigua:problem:interrupted", title: "Interrupted", status: 500, code: "interrupted", detail: "the service stopped while this search was running" });

  app.post(
    "/searches",
    {
      schema: {
        tags: ["searches"],
        summary: "Grid or random hyper-parameter search (asynchronous: 202, then poll the Location)",
        body: createSearchBody,
        response: { 202: searchSchema, 404: problemSchema, 503: problemSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const dataset = store.datasets.get(body.dataset_id);
      if (!dataset) throw new ApiError("not_found", `dataset ${body.dataset_id} does not exist`, [{ path: "dataset_id", message: "unknown dataset" }]);
      const seed = body.seed ?? randomInt(0, 2 ** 31);
      let candidates: Record<string, unknown>[];
      if (body.method === "grid") {
        if (!body.param_grid) throw new ApiError("validation_failed", "a grid search needs param_grid", [{ path: "param_grid", message: "required" }]);
        if (gridSize(body.param_grid) > MAX_CANDIDATES) throw new ApiError("unusable_request", `the grid has ${gridSize(body.param_grid)} candidates; at most ${MAX_CANDIDATES}`, [{ path: "param_grid", message: "too many candidates" }]);
        candidates = gridCandidates(body.param_grid);
      } else {
        if (!body.param_distributions) throw new ApiError("validation_failed", "a random search needs param_distributions", [{ path: "param_distributions", message: "required" }]);
        candidates = randomCandidates(body.param_distributions, body.n_iter, createRng(seed));
      }
      const specs = candidates.map((params, i) => {
        try {
          return resolveEvaluationSpec({ ...body, params }, dataset, seed, { jobMemoryMb: app.services.config.jobMemoryMb });
        } catch (e) {
          if (e instanceof ApiError && e.errors?.[0]?.path.startsWith("params")) {
            const field = body.method === "grid" ? "param_grid" : "param_distributions";
            throw new ApiError(e.code, `candidate ${i} (${JSON.stringify(params)}): ${e.detail}`, [{ path: e.errors[0].path.replace(/^params/, field), message: e.detail }], 422);
          }
          throw e;
        }
      });
      checkJobCapacity(jobs.activeCount, app.services.config.maxJobs, specs.length);
      const first = specs[0];
      const allowed = first.task === "regression" ? REGRESSION_SCORES : CLASSIFICATION_SCORES;
      const scoring = body.scoring ?? (first.task === "regression" ? "r2" : "accuracy");
      if (!allowed.includes(scoring)) throw new ApiError("unusable_request", `scoring "${scoring}" is not one of ${allowed.join(", ")}`, [{ path: "scoring", message: "unknown metric" }]);
      if (first.validation.method === "bias_variance") throw new ApiError("unusable_request", "a search scores candidates by cross-validation, holdout or bootstrap", [{ path: "validation.method", message: "not for searches" }]);

      const common = {
        dataset_id: dataset.id,
        algorithm: first.algorithm.name,
        target: first.target,
        features: first.features,
        preprocessing: first.steps.map((s) => ({ step: s.step, ...(s.spec as object) })),
        validation: first.validation,
        seed,
        positive_class: first.positiveClass,
      };
      const { search, evaluationIds } = store.db
        .transaction(() => {
          const ids = specs.map(
            (spec) =>
              store.evaluations.insert({
                dataset_id: dataset.id,
                algorithm: spec.algorithm.name,
                task: spec.task,
                method: spec.validation.method,
                status: "queued",
                spec: { ...common, params: spec.params },
              }).id,
          );
          const search = store.searches.insert({
            dataset_id: dataset.id,
            algorithm: first.algorithm.name,
            method: body.method,
            scoring,
            spec: { ...common, candidates: candidates.length, refit: body.refit },
            results: specs.map((spec, i) => ({ params: spec.params, mean_score: null, std_score: null, rank: null, evaluation_id: ids[i], status: "queued" })),
          });
          store.db.prepare("UPDATE evaluations SET search_id = ? WHERE id IN (SELECT value FROM json_each(?))").run(search.id, JSON.stringify(ids));
          return { search, evaluationIds: ids };
        })
        .immediate();
      runner.start({
        searchId: search.id,
        evaluationIds,
        scoring,
        higherIsBetter: !LOWER_IS_BETTER.has(scoring),
        refit: body.refit ? { ...common, task: first.task, validation: { method: "none" }, name: `search ${search.id} best` } : null,
      });
      reply.header("location", `/v1/searches/${search.id}`);
      return reply.code(202).send(searchToWire(store.searches.get(search.id)!));
    },
  );

  app.get(
    "/searches",
    { schema: { tags: ["searches"], summary: "List searches, newest first", querystring: paginationQuery, response: { 200: listOf(searchSchema), ...errorResponses } } },
    async (request) => page(store.searches.list(request.query.limit + 1, cursorSeq(request.query.cursor)), request.query.limit, searchToWire),
  );

  app.get("/searches/:id", { schema: { tags: ["searches"], params: idParams, response: { 200: searchSchema, 404: problemSchema } } }, async (request) => {
    const s = store.searches.get(request.params.id);
    if (!s) throw notFound("search", request.params.id);
    return searchToWire(s);
  });

  app.post(
    "/searches/:id/cancel",
    { schema: { tags: ["searches"], summary: "Cancel a search and its pending candidates", params: idParams, response: { 202: searchSchema, 404: problemSchema, 409: problemSchema } } },
    async (request, reply) => {
      const s = store.searches.get(request.params.id);
      if (!s) throw notFound("search", request.params.id);
      if (!store.searches.finishUnsuccessfully(s.id, "cancelled", { type: "urn:xigua:problem:cancelled", title: "Cancelled", status: 409, code: "cancelled", detail: "cancelled by a client request" })) {
        throw new ApiError("wrong_state", `search ${s.id} is ${s.status}; only a queued or running search can be cancelled`);
      }
      for (const r of s.results ?? []) jobs.cancel(r.evaluation_id);
      return reply.code(202).send(searchToWire(store.searches.get(s.id)!));
    },
  );
};
