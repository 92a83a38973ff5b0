/**
 * /v1/searches: grid, random or bayesian hyper-parameter search. Every candidate is
 * validated against the algorithm's params schema before anything is queued;
 * each becomes an evaluation (cross-validated on the pool), and with refit the
 * best params train a model on all rows. A bayesian search queues its random
 * start here; the runner appends each proposal (src/evaluation/bayesian), so the
 * space's bounds and list values are validated up front instead.
 */
import { randomInt } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { conditionalGetSchema, unlessNotModified } from "../conditional-get.js";
import { createRng } from "../../data/random.js";
import { SpaceEncoding } from "../../evaluation/bayesian/space-encoding.js";
import { gridCandidates, gridSize, randomCandidates, searchSpaceIssues, type ParamDistributions } from "../../evaluation/search-space.js";
import { encodeCursor } from "../../store/ids.js";
import type { SearchRecord } from "../../store/searches.js";
import { jobProblem } from "../../training/job-failure.js";
import { ApiError, checkJobCapacity, notFound } from "../errors.js";
import { errorResponses, idParams, listOf, paginationQuery, problemSchema } from "../schemas/common.js";
import { createSearchBody, DEFAULT_N_INITIAL, LOWER_IS_BETTER, MAX_BAYESIAN_ITER, searchSchema, type CreateSearchBody } from "../schemas/searches.js";
import { trainingModules } from "../training-modules.js";
import { checkReference, resolveEvaluationSpec } from "./evaluations.js";
import { cursorSeq } from "./pagination.js";

const CLASSIFICATION_SCORES = ["accuracy", "error_rate", "precision", "recall", "f1", "auc", "average_precision", "log_loss", "macro_precision", "macro_recall", "macro_f1", "macro_f1_mean", "micro_f1"];
const REGRESSION_SCORES = ["r2", "mse", "rmse", "mae"];
/** What a clustering candidate's evaluation reports (src/training/clustering.ts): internal indices, and external ones with a reference. */
const INTERNAL_CLUSTERING_SCORES = ["silhouette", "davies_bouldin", "calinski_harabasz", "dunn", "sse"];
const EXTERNAL_CLUSTERING_SCORES = ["adjusted_rand_index", "rand_index", "jaccard", "fowlkes_mallows", "normalized_mutual_info"];

function scoresFor(task: string, reference: string | undefined): { allowed: string[]; fallback: string } {
  if (task === "regression") return { allowed: REGRESSION_SCORES, fallback: "r2" };
  if (task === "clustering") return { allowed: reference === undefined ? INTERNAL_CLUSTERING_SCORES : [...INTERNAL_CLUSTERING_SCORES, ...EXTERNAL_CLUSTERING_SCORES], fallback: "silhouette" };
  return { allowed: CLASSIFICATION_SCORES, fallback: "accuracy" };
}
/** A rejected candidate is quoted in the error up to this many characters. */
const QUOTE_CHARS = 200;
/** A list page holds this many maximal searches' results: every search carries all of its candidates, and 500 of them would be a 200 MB answer. */
const LISTED_RESULTS_PER_MAX_SEARCH = 5;
/** Candidates resolved per event-loop turn: a 1000-candidate request must not hold the loop for its whole validation. */
const RESOLVE_CHUNK = 100;

/**
 * The candidates a request asks for, counted before any is built: a grid past
 * `max` or n_iter past `max` is a 422 with the count, whatever the space's size.
 */
function candidatesFor(body: CreateSearchBody, seed: number, max: number): Record<string, unknown>[] {
  const field = body.method === "grid" ? "param_grid" : "param_distributions";
  const space = body.method === "grid" ? body.param_grid : body.param_distributions;
  if (!space) throw new ApiError("validation_failed", `a ${body.method} search needs ${field}`, [{ path: field, message: "required" }]);
  if (body.n_initial !== undefined && body.method !== "bayesian") {
    throw new ApiError("unusable_request", `n_initial applies to a bayesian search, not a ${body.method} one`, [{ path: "n_initial", message: "bayesian only" }]);
  }
  if (body.method === "random" && body.n_iter > max) {
    throw new ApiError("unusable_request", `n_iter is ${body.n_iter}; a search evaluates at most ${max} candidates (XIGUA_MAX_SEARCH_CANDIDATES)`, [{ path: "n_iter", message: `at most ${max}` }]);
  }
  if (body.method === "bayesian") {
    const limit = Math.min(max, MAX_BAYESIAN_ITER);
    if (body.n_iter > limit) {
      throw new ApiError("unusable_request", `n_iter is ${body.n_iter}; a bayesian search evaluates at most ${limit} candidates`, [{ path: "n_iter", message: `at most ${limit}` }]);
    }
    if (initialCount(body) > body.n_iter) {
      throw new ApiError("unusable_request", `n_initial (${body.n_initial}) is more than n_iter (${body.n_iter})`, [{ path: "n_initial", message: `at most n_iter (${body.n_iter})` }]);
    }
  }
  const issues = searchSpaceIssues(space).map((i) => ({ path: i.path ? `${field}.${i.path}` : field, message: i.message }));
  if (issues.length > 0) throw new ApiError("invalid_params", `${issues[0].path}: ${issues[0].message}`, issues);
  if (body.method === "random") return randomCandidates(body.param_distributions!, body.n_iter, createRng(seed));
  if (body.method === "bayesian") return randomCandidates(body.param_distributions!, initialCount(body), createRng(seed));
  const size = gridSize(body.param_grid!);
  if (size > BigInt(max)) {
    throw new ApiError("unusable_request", `the grid spans ${size} candidates; a search evaluates at most ${max} (XIGUA_MAX_SEARCH_CANDIDATES)`, [{ path: "param_grid", message: `${size} candidates; at most ${max}` }]);
  }
  return gridCandidates(body.param_grid!, max);
}

function initialCount(body: CreateSearchBody): number {
  return body.n_initial ?? Math.min(DEFAULT_N_INITIAL, body.n_iter);
}

/**
 * What a bayesian search may propose but its random start may not have drawn:
 * every numeric parameter at its low and its high end (randint: high − 1), and
 * every value of every list. Validated with the start, so no proposal fails the
 * algorithm's schema mid-search.
 */
function boundCandidates(space: ParamDistributions): Record<string, unknown>[] {
  const encoding = new SpaceEncoding(space);
  const count = Math.max(2, ...encoding.dims.map((d) => d.width));
  return Array.from({ length: count }, (_, i) => {
    const u = new Float64Array(encoding.size);
    for (const { d, offset, width } of encoding.dims) {
      if (Array.isArray(d)) {
        if (width > 0) u[offset + (i % width)] = 1;
      } else u[offset] = i % 2;
    }
    return encoding.decode(u);
  });
}

function withoutReference<T extends { reference?: string }>(spec: T): Omit<T, "reference"> {
  const { reference: _reference, ...rest } = spec;
  return rest;
}

function quote(params: Record<string, unknown>): string {
  const text = JSON.stringify(params);
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}

function searchToWire(s: SearchRecord) {
  return {
    id: s.id,
    status: s.status,
    progress: s.progress,
    dataset_id: s.dataset_id,
    algorithm: s.algorithm,
    method: s.method,
    scoring: s.scoring,
    target: (s.spec.target as string | null) ?? null,
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

  app.post(
    "/searches",
    {
      // A retry with the same Idempotency-Key gets the first response (plugins/idempotency.ts).
      config: { idempotent: true },
      schema: {
        operationId: "createSearch", tags: ["searches"],
        summary: "Grid, random or bayesian hyper-parameter search (asynchronous: 202, then poll the Location)",
        body: createSearchBody,
        response: { 202: searchSchema, 404: problemSchema, 503: problemSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const dataset = await store.datasets.get(body.dataset_id);
      if (!dataset) throw new ApiError("not_found", `dataset ${body.dataset_id} does not exist`, [{ path: "dataset_id", message: "unknown dataset" }]);
      const seed = body.seed ?? randomInt(0, 2 ** 31);
      const candidates = candidatesFor(body, seed, app.services.config.maxSearchCandidates);
      checkJobCapacity(await jobs.activeCount(), app.services.config.maxJobs, candidates.length);
      const resolve = (params: Record<string, unknown>, label: string) => {
        try {
          return resolveEvaluationSpec({ ...body, params }, dataset, seed, { jobMemoryMb: app.services.config.jobMemoryMb });
        } catch (e) {
          if (e instanceof ApiError && e.errors?.[0]?.path.startsWith("params")) {
            const field = body.method === "grid" ? "param_grid" : "param_distributions";
            throw new ApiError(e.code, `${label} (${quote(params)}): ${e.detail}`, [{ path: e.errors[0].path.replace(/^params/, field), message: e.detail }], 422);
          }
          throw e;
        }
      };
      const specs: ReturnType<typeof resolve>[] = [];
      for (let i = 0; i < candidates.length; i++) {
        if (i > 0 && i % RESOLVE_CHUNK === 0) await nextTurn();
        specs.push(resolve(candidates[i], `candidate ${i}`));
      }
      if (body.method === "bayesian") {
        const bounds = boundCandidates(body.param_distributions!);
        for (let i = 0; i < bounds.length; i++) {
          if (i > 0 && i % RESOLVE_CHUNK === 0) await nextTurn();
          resolve(bounds[i], "a candidate at the space's bounds");
        }
      }
      const first = specs[0];
      const reference = checkReference(body.reference, first, dataset);
      const { allowed, fallback } = scoresFor(first.task, reference);
      const scoring = body.scoring ?? fallback;
      if (!allowed.includes(scoring)) throw new ApiError("unusable_request", `scoring "${scoring}" is not one of ${allowed.join(", ")}`, [{ path: "scoring", message: "unknown metric" }]);
      if (["bias_variance", "learning_curve", "validation_curve"].includes(first.validation.method)) {
        throw new ApiError("unusable_request", "a search scores candidates by cross-validation, holdout or bootstrap", [{ path: "validation.method", message: "not for searches" }]);
      }

      const common = {
        dataset_id: dataset.id,
        algorithm: first.algorithm.name,
        target: first.target,
        features: first.features,
        preprocessing: first.steps.map((s) => ({ step: s.step, ...(s.spec as object) })),
        validation: first.validation,
        seed,
        positive_class: first.positiveClass,
        ...trainingModules().spec.storedSpecExtras(first),
        ...(reference !== undefined ? { reference } : {}),
      };
      checkJobCapacity(await jobs.activeCount(), app.services.config.maxJobs, candidates.length); // again: other requests ran while this one yielded
      const search = await store.searches.insertWithCandidates(
        {
          dataset_id: dataset.id,
          algorithm: first.algorithm.name,
          method: body.method,
          scoring,
          spec: { ...common, candidates: body.method === "bayesian" ? body.n_iter : candidates.length, ...(body.method === "bayesian" ? { n_initial: candidates.length } : {}), refit: body.refit },
        },
        specs.map((spec) => ({ dataset_id: dataset.id, algorithm: spec.algorithm.name, task: spec.task, method: spec.validation.method, spec: { ...common, params: spec.params } })),
      );
      await jobs.submitSearch({
        searchId: search.id,
        candidates: search.results ?? [],
        scoring,
        higherIsBetter: !LOWER_IS_BETTER.has(scoring),
        // The reference labelling scores candidates; the refitted model has no use for it.
        refit: body.refit ? { ...withoutReference(common), task: first.task, validation: { method: "none" }, name: `search ${search.id} best` } : null,
        ...(body.method === "bayesian"
          ? {
              bayesian: {
                space: body.param_distributions!,
                nIter: body.n_iter,
                seed,
                // Every proposal is this evaluation with its own params.
                template: { dataset_id: dataset.id, algorithm: first.algorithm.name, task: first.task, method: first.validation.method, spec: { ...common } },
              },
            }
          : {}),
      });
      await nextTurn(); // the insert and the first submissions were one block; the 202 body (every candidate) is another
      reply.header("location", `/v1/searches/${search.id}`);
      return reply.code(202).send(searchToWire((await store.searches.get(search.id))!));
    },
  );

  app.get(
    "/searches",
    {
      schema: {
        operationId: "listSearches", tags: ["searches"],
        summary: `List searches, newest first. A page carries at most ${LISTED_RESULTS_PER_MAX_SEARCH} × XIGUA_MAX_SEARCH_CANDIDATES candidate results in all, so it may hold fewer than limit searches; follow next_cursor.`,
        querystring: paginationQuery,
        response: { 200: listOf(searchSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { rows, more } = await store.searches.list(request.query.limit, cursorSeq(request.query.cursor), LISTED_RESULTS_PER_MAX_SEARCH * app.services.config.maxSearchCandidates);
      return { items: rows.map(searchToWire), next_cursor: more ? encodeCursor(rows[rows.length - 1].seq) : null };
    },
  );

  app.get(
    "/searches/:id",
    {
      schema: {
        operationId: "getSearch",
        summary: "A search: its status, candidates with their scores and ranks, the best candidate and refitted model. Sends an ETag; If-None-Match answers 304 while nothing changed.",
        tags: ["searches"],
        params: idParams,
        headers: conditionalGetSchema.headers,
        response: { 200: searchSchema, 304: conditionalGetSchema.notModified, 404: problemSchema },
      },
    },
    async (request, reply) => {
      const s = await store.searches.get(request.params.id);
      if (!s) throw notFound("search", request.params.id);
      return unlessNotModified(request, reply, searchToWire(s));
    },
  );

  app.post(
    "/searches/:id/cancel",
    { schema: { operationId: "cancelSearch", tags: ["searches"], summary: "Cancel a search and its pending candidates", params: idParams, response: { 202: searchSchema, 404: problemSchema, 409: problemSchema } } },
    async (request, reply) => {
      const s = await store.searches.get(request.params.id);
      if (!s) throw notFound("search", request.params.id);
      if (!(await store.searches.cancel(s.id, jobProblem("cancelled", "cancelled by a client request")))) {
        throw new ApiError("wrong_state", `search ${s.id} is ${s.status}; only a queued or running search can be cancelled`);
      }
      // The rows are ended already; this stops the candidates' pool tasks.
      // Each finds its row ended (resolves false) and only stops the job.
      // The candidates are read after the cancel: a bayesian proposal appended since the
      // first read is among them, and none can be appended now (appends need `running`).
      const ended = (await store.searches.get(s.id))!;
      await Promise.all((ended.results ?? []).map((r) => jobs.cancel(r.evaluation_id)));
      return reply.code(202).send(searchToWire(ended));
    },
  );
};
