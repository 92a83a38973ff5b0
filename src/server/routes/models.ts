/**
 * /v1/models: a model is also its training job. Train (202 + Location), read,
 * list, cancel, delete; predict (./predict.ts); explain; export and import artifacts.
 */
import { randomInt } from "node:crypto";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { conditionalGetSchema, unlessNotModified } from "../conditional-get.js";
import { z } from "zod";
import type { ModelRecord, TrainSpec } from "../../store/models.js";
import { ArtifactError } from "../../training/artifact-error.js";
import { describePipeline } from "../../training/pipeline.js";
import { trainingModules } from "../training-modules.js";
import { ApiError, checkJobCapacity, notFound } from "../errors.js";
import { errorResponses, listOf, paginationQuery, problemSchema } from "../schemas/common.js";
import { modelName } from "../schemas/model-name.js";
import { modelRefParams } from "../schemas/registry.js";
import { resolveModelRef } from "../model-ref.js";
import { createModelBody, explainQuery, labelsQuery, labelsResponse, listModelsQuery, modelSchema } from "../schemas/models.js";
import { servingModel } from "../predict.js";
import { cursorSeq, page } from "./pagination.js";
import { predictRoute } from "./predict.js";
import { ExplanationCache } from "../explain-cache.js";

/** Serialised explanations kept per app (by artifact sha256 and options). */
const EXPLANATION_CACHE_BYTES = 32 * 1024 * 1024;

/** Facts a fit records about its training rows that the model shows as its own fields (API.md). */
const MODEL_FACTS = ["n_clusters", "noise_count", "labelled_rows", "unlabelled_rows", "outlier_count"] as const;

function modelFacts(facts: Record<string, number> | null): Partial<Record<(typeof MODEL_FACTS)[number], number>> {
  const out: Partial<Record<(typeof MODEL_FACTS)[number], number>> = {};
  if (facts) for (const name of MODEL_FACTS) if (typeof facts[name] === "number") out[name] = facts[name];
  return out;
}

export function modelToWire(m: ModelRecord) {
  const s = m.spec;
  const autoScale = (s as { auto_scale?: unknown }).auto_scale;
  const lineage = s as { parent_model_id?: unknown; partial_fit_rows?: unknown; partial_fit_dataset_id?: unknown };
  return {
    id: m.id,
    name: m.name,
    version: m.version,
    status: m.status,
    progress: m.progress,
    algorithm: s.algorithm,
    params: s.params,
    task: s.task,
    dataset_id: s.dataset_id === "" ? null : s.dataset_id,
    target: s.target,
    features: s.features,
    preprocessing: s.preprocessing,
    ...(typeof autoScale === "boolean" ? { auto_scale: autoScale } : {}),
    validation: s.validation,
    positive_class: s.positive_class,
    seed: s.seed,
    ...(typeof lineage.parent_model_id === "string" ? { parent_model_id: lineage.parent_model_id } : {}),
    ...(typeof lineage.partial_fit_rows === "number" ? { partial_fit_rows: lineage.partial_fit_rows } : {}),
    ...(typeof lineage.partial_fit_dataset_id === "string" ? { partial_fit_dataset_id: lineage.partial_fit_dataset_id } : {}),
    ...(m.classes ? { classes: m.classes } : {}),
    ...(m.evaluation_id ? { evaluation_id: m.evaluation_id } : {}),
    ...(m.metrics ? { metrics: m.metrics } : {}),
    ...modelFacts(m.facts),
    ...(m.warnings ? { warnings: m.warnings } : {}),
    ...(m.pipeline ? { pipeline: m.pipeline } : {}),
    ...(m.fit_seconds !== null ? { fit_seconds: m.fit_seconds } : {}),
    ...(m.error ? { error: m.error } : {}),
    created_at: m.created_at,
    ...(m.started_at ? { started_at: m.started_at } : {}),
    ...(m.finished_at ? { finished_at: m.finished_at } : {}),
  };
}

export const modelRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store, jobs, models, compute } = app.services;

  /** The model a path's reference (id, name@alias, name:version, name) names; 404 when none. */
  const getModel = async (ref: string): Promise<ModelRecord> => {
    const id = await resolveModelRef(store, ref);
    const m = id === undefined ? undefined : await store.models.get(id);
    if (!m) throw notFound("model", ref);
    return m;
  };
  const requireSucceeded = (m: ModelRecord) => {
    if (m.status !== "succeeded") throw new ApiError("wrong_state", `model ${m.id} is ${m.status}; only a succeeded model can do this`);
  };
  const explanations = new ExplanationCache(EXPLANATION_CACHE_BYTES);

  app.post(
    "/models",
    {
      // A retry with the same Idempotency-Key gets the first response (plugins/idempotency.ts).
      config: { idempotent: true },
      schema: {
        operationId: "createModel", tags: ["models"],
        summary: "Train a model (asynchronous: 202, then poll the Location)",
        body: createModelBody,
        response: { 202: modelSchema, 404: problemSchema, 503: problemSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      checkJobCapacity(await jobs.activeCount(), app.services.config.maxJobs);
      const body = request.body;
      const dataset = await store.datasets.get(body.dataset_id);
      if (!dataset) throw new ApiError("not_found", `dataset ${body.dataset_id} does not exist`, [{ path: "dataset_id", message: "unknown dataset" }]);
      const seed = body.seed ?? randomInt(0, 2 ** 31);
      const { resolveSpec, SpecError, storedSpecExtras } = trainingModules().spec;
      let resolved;
      try {
        resolved = resolveSpec({ ...body, seed }, dataset, "train", { jobMemoryMb: app.services.config.jobMemoryMb });
      } catch (e) {
        if (e instanceof SpecError) throw new ApiError(e.code, e.message, [{ path: e.path, message: e.message }], 422);
        throw e;
      }
      const spec: TrainSpec = {
        algorithm: resolved.algorithm.name,
        params: resolved.params,
        task: resolved.task,
        dataset_id: dataset.id,
        target: resolved.target,
        features: resolved.features,
        preprocessing: resolved.steps.map((s) => ({ step: s.step, ...(s.spec as object) })),
        validation: resolved.validation,
        seed,
        positive_class: resolved.positiveClass,
        name: body.name ?? null,
        ...storedSpecExtras(resolved),
      };
      const record = await store.models.insert(spec);
      await jobs.submitTraining(record.id);
      reply.header("location", `/v1/models/${record.id}`);
      return reply.code(202).send(modelToWire(record));
    },
  );

  app.get(
    "/models",
    {
      schema: {
        operationId: "listModels", tags: ["models"],
        summary: "List models, newest first",
        querystring: paginationQuery.extend(listModelsQuery.shape),
        response: { 200: listOf(modelSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { limit, cursor, ...filters } = request.query;
      return page(await store.models.list(filters, limit + 1, cursorSeq(cursor)), limit, modelToWire);
    },
  );

  app.get(
    "/models/:id",
    {
      schema: {
        operationId: "getModel",
        summary: "A model: its training job's status and progress, parameters, metrics and warnings. Sends an ETag; If-None-Match answers 304 while nothing changed.",
        tags: ["models"],
        params: modelRefParams,
        headers: conditionalGetSchema.headers,
        response: { 200: modelSchema, 304: conditionalGetSchema.notModified, 404: problemSchema },
      },
    },
    async (request, reply) => unlessNotModified(request, reply, modelToWire(await getModel(request.params.id))),
  );

  app.delete(
    "/models/:id",
    { schema: { operationId: "deleteModel", tags: ["models"], summary: "Delete a model (a running job is cancelled first)", params: modelRefParams, response: { 204: z.null(), 404: problemSchema } } },
    async (request, reply) => {
      const m = (await getModel(request.params.id));
      if (m.status === "queued" || m.status === "running") await jobs.cancel(m.id);
      await store.models.delete(m.id);
      models.evict(m.id);
      await app.services.events.modelDeleted(m.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/models/:id/cancel",
    { config: { scope: "train" }, schema: { operationId: "cancelModel", tags: ["models"], summary: "Cancel a queued or running training job", params: modelRefParams, response: { 202: modelSchema, 404: problemSchema, 409: problemSchema } } },
    async (request, reply) => {
      const m = (await getModel(request.params.id));
      if (!(await jobs.cancel(m.id))) throw new ApiError("wrong_state", `model ${m.id} is ${m.status}; only a queued or running job can be cancelled`);
      return reply.code(202).send(modelToWire((await store.models.get(m.id)) ?? m));
    },
  );

  await app.register(predictRoute);

  app.get(
    "/models/:id/explain",
    {
      schema: {
        operationId: "explainModel", tags: ["models"],
        summary:
          "Family-specific explanation (trees: the tree; linear models: coefficients; SVM/SVR: support-vector counts, intercepts, coefficients; MLP: layer shapes and weights). " +
          "Bounded, the whole state staying in the artifact: format=text|dot for trees; a tree shows at most max_nodes nodes (default 1000, breadth-first), the rest marked truncated, and per node the best 20 split candidates (more_candidates counts the rest). " +
          "SVM and SVR list at most max_values numbers (default 1000) of primal weights (linear kernel) and dual coefficients in all problems together, flagged coefficients_truncated / dual_coef_truncated, and list problems while that lasts (problem_count, problems_truncated); " +
          "an MLP lists per layer its shape and at most max_values weights (whole rows from the first input) and biases, with truncated set when some were left out. 409 wrong_state when the stored artifact no longer loads.",
        params: modelRefParams,
        querystring: explainQuery,
        response: { 200: z.union([z.record(z.string(), z.unknown()), z.string()]), 404: problemSchema, 409: problemSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const m = (await getModel(request.params.id));
      requireSucceeded(m);
      const { format, max_nodes, max_depth, max_values } = request.query;
      const key = `${m.artifact_sha256}:${format}:${max_nodes}:${max_depth ?? ""}:${max_values}`;
      let explained = explanations.get(key);
      if (!explained) {
        const options = { format, maxNodes: max_nodes, maxDepth: max_depth, maxValues: max_values };
        const out = (await compute.explain(m.id, m.artifact_sha256!, options))!;
        explained = { body: Buffer.from(out.body), contentType: out.contentType };
        explanations.set(key, explained);
      }
      return reply.type(explained.contentType).send(explained.body as never);
    },
  );

  app.get(
    "/models/:id/labels",
    {
      schema: {
        operationId: "listModelLabels", tags: ["models"],
        summary:
          "Clustering models: the cluster of every training row, in the training dataset's row order (−1 for noise), a page at a time. " +
          "Transductive methods (agnes, diana, optics) answer only here: they define no cluster for a new row. 422 for a model that does not cluster.",
        params: modelRefParams,
        querystring: labelsQuery,
        response: { 200: labelsResponse, 404: problemSchema, 409: problemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const m = await getModel(request.params.id);
      requireSucceeded(m);
      const model = await servingModel(models, m.id, m.artifact_sha256!);
      if (model.task !== "clustering" || !model.algorithm.trainingLabels) {
        throw new ApiError("unusable_request", `model ${m.id} does ${model.task}: only clustering models label their training rows`);
      }
      // Cheap: the labels are an Int32Array in the cached state; only the page is copied.
      const labels = model.algorithm.trainingLabels(model.pipeline.state);
      const { offset, limit } = request.query;
      const end = Math.min(labels.length, offset + limit);
      const items = [];
      for (let row = offset; row < end; row++) items.push({ row, label: labels[row] });
      return { items, total: labels.length };
    },
  );

  app.get(
    "/models/:id/artifact",
    {
      schema: {
        operationId: "getModelArtifact", tags: ["models"],
        summary: "The model artifact (JSON); POST it to /v1/models/import elsewhere. 409 wrong_state when the stored artifact no longer loads.",
        params: modelRefParams,
        response: { 200: z.record(z.string(), z.unknown()), 404: problemSchema, 409: problemSchema },
      },
    },
    async (request, reply) => {
      const m = (await getModel(request.params.id));
      requireSucceeded(m);
      // An artifact that no longer loads is not handed out as if it were usable: the compute pool loads it
      // (O(artifact), off the request thread) and answers 409 wrong_state when it fails.
      await compute.explain(m.id, m.artifact_sha256!, null);
      const stored = await store.models.getArtifact(m.id);
      if (!stored) throw new ApiError("wrong_state", `model ${m.id} has no artifact`);
      // Sent as stored, byte for byte, so its sha256 still matches.
      return reply.type("application/json").send(stored.artifact as never);
    },
  );

  app.post(
    "/models/import",
    {
      // A retry with the same Idempotency-Key gets the first response (plugins/idempotency.ts).
      config: { idempotent: true },
      schema: {
        operationId: "importModel", tags: ["models"],
        summary: "Import an artifact exported by GET /v1/models/{id}/artifact (validated, never executed); with ?name= it becomes the next version of that name",
        querystring: z.object({ name: modelName.optional() }),
        body: z.record(z.string(), z.unknown()),
        response: { 201: modelSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      let model;
      try {
        model = trainingModules().artifact.loadArtifact(request.body);
      } catch (e) {
        if (e instanceof ArtifactError) throw new ApiError("invalid_artifact", e.message, [{ path: e.path || "body", message: e.message }]);
        throw e;
      }
      const bytes = Buffer.from(JSON.stringify(request.body));
      const spec: TrainSpec = {
        algorithm: model.algorithm.name,
        params: model.params,
        task: model.task,
        dataset_id: "",
        target: model.target,
        features: model.features.map((f) => f.name),
        preprocessing: model.pipeline.steps.filter((s) => !s.automatic).map((s) => ({ step: s.step, ...(s.spec as object) })),
        validation: { method: "none" },
        seed: 0,
        positive_class: model.positiveClass,
        name: request.query.name ?? null,
      };
      const record = await store.models.insertImported(spec, bytes, model.sha256, model.classes, describePipeline(model.pipeline));
      reply.header("location", `/v1/models/${record.id}`);
      return reply.code(201).send(modelToWire(record));
    },
  );
};
