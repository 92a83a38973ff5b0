/**
 * /v1/evaluations: every validated training run writes one; POST either scores a
 * stored model on a dataset or cross-validates an algorithm spec without keeping
 * a model. The list sends an ETag built from one indexed query, so a dashboard
 * polling with If-None-Match mostly gets a 304.
 */
import { randomInt } from "node:crypto";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { conditionalGetSchema, unlessNotModified } from "../conditional-get.js";
import { z } from "zod";
import { downsampleCurve } from "../../evaluation/curves/downsample.js";
import type { EvaluationRecord } from "../../store/evaluations.js";
import type { DatasetRecord } from "../../store/datasets.js";
import type { ModelRecord } from "../../store/models.js";
import { getAlgorithm } from "../../models/lazy-registry.js";
import type { QueueLimits } from "../../training/spec.js";
import { trainingModules } from "../training-modules.js";
import { ApiError, checkJobCapacity, notFound } from "../errors.js";
import { errorResponses, idParams, listOf, paginationQuery, problemSchema } from "../schemas/common.js";
import { createEvaluationBody, curvePointsQuery, evaluationSchema, listEvaluationsQuery } from "../schemas/evaluations.js";
import { cursorSeq, page } from "./pagination.js";
import { DEFAULT_OUTLIER_LEVEL } from "../../training/anomaly.js";

type Curves = { roc: { fpr: number[]; tpr: number[]; thresholds: number[] }; pr: { precision: number[]; recall: number[]; thresholds: number[] } };

function thinCurves(curves: Curves, points: number): Curves {
  return { roc: downsampleCurve(curves.roc, points) as Curves["roc"], pr: downsampleCurve(curves.pr, points) as Curves["pr"] };
}

export function evaluationToWire(e: EvaluationRecord, curvePoints?: number) {
  // row_outcomes stay internal: McNemar's test reads them, clients do not need them.
  const { row_outcomes: _rows, per_class_curves: _pcc, curves, ...result } = (e.result ?? {}) as Record<string, unknown> & { curves?: Curves };
  const spec = e.spec as Record<string, unknown>;
  return {
    ...result,
    ...(curves ? { curves: curvePoints ? thinCurves(curves as Curves, curvePoints) : curves } : {}),
    id: e.id,
    status: e.status,
    progress: e.progress,
    ...(e.model_id ? { model_id: e.model_id } : {}),
    ...(e.search_id ? { search_id: e.search_id } : {}),
    dataset_id: e.dataset_id,
    algorithm: e.algorithm,
    params: (spec.params as Record<string, unknown>) ?? {},
    task: e.task,
    method: e.method,
    ...(spec.target !== undefined ? { target: spec.target as string | null } : {}),
    ...(spec.validation ? { validation: spec.validation as Record<string, unknown> } : {}),
    ...(typeof spec.seed === "number" ? { seed: spec.seed } : {}),
    metrics: (result.metrics as Record<string, number | null>) ?? {},
    ...(e.error ? { error: e.error } : {}),
    created_at: e.created_at,
    ...(e.finished_at ? { finished_at: e.finished_at } : {}),
    updated_at: e.updated_at,
  };
}

/** Shared with searches: resolve an algorithm spec for an evaluation, as a 422 on failure. */
export function resolveEvaluationSpec(body: z.infer<typeof createEvaluationBody>, dataset: DatasetRecord, seed: number, limits?: QueueLimits) {
  const { resolveSpec, SpecError } = trainingModules().spec;
  try {
    const task = dataset.columns.find((c) => c.name === body.target)?.type === "numeric" ? "regression" : "classification";
    // Without a target the spec's own default applies (none for clustering, which is scored on its rows).
    const validation = body.validation ?? (body.target === undefined ? undefined : { method: "kfold", k: 5, stratify: task === "classification" });
    return resolveSpec({ ...body, algorithm: body.algorithm!, seed, validation }, dataset, "evaluate", limits);
  } catch (e) {
    if (e instanceof SpecError) throw new ApiError(e.code, e.message, [{ path: e.path, message: e.message }], 422);
    throw e;
  }
}

/**
 * A reference labelling for a clustering spec's external indices: a column of the dataset that
 * the clustering does not use (a feature would score the clustering against itself).
 */
export function checkReference(reference: string | undefined, spec: ReturnType<typeof resolveEvaluationSpec>, dataset: DatasetRecord): string | undefined {
  if (reference === undefined) return undefined;
  if (spec.task !== "clustering") throw new ApiError("invalid_request", `reference applies to clustering; ${spec.algorithm.name} is scored against its target`, [{ path: "reference", message: "not a clustering spec" }]);
  if (!dataset.columns.some((c) => c.name === reference)) throw new ApiError("unknown_column", `reference "${reference}" is not a column of the dataset`, [{ path: "reference", message: "unknown column" }]);
  if (spec.features.includes(reference)) throw new ApiError("invalid_request", `reference "${reference}" is one of the features; leave it out (features) to score the clustering against it`, [{ path: "reference", message: "a feature" }]);
  return reference;
}

export const evaluationRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store, jobs } = app.services;

  app.get(
    "/evaluations",
    {
      schema: {
        operationId: "listEvaluations", tags: ["evaluations"],
        summary: "List evaluations, newest first. Sends an ETag; If-None-Match answers 304 when nothing changed.",
        querystring: paginationQuery.extend(listEvaluationsQuery.shape).extend(curvePointsQuery.shape),
        headers: z.object({ "if-none-match": z.string().optional() }),
        response: { 200: listOf(evaluationSchema), 304: z.null().describe("Not modified"), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { limit, cursor, curve_points, ...filters } = request.query;
      const etag = `W/"ev-${await store.evaluations.fingerprint(filters)}-${limit}-${cursor ?? ""}-${curve_points}"`;
      reply.header("etag", etag).header("cache-control", "no-cache");
      if (request.headers["if-none-match"] === etag) return reply.code(304).send(null);
      return page(await store.evaluations.list(filters, limit + 1, cursorSeq(cursor)), limit, (e) => evaluationToWire(e, curve_points));
    },
  );

  app.get(
    "/evaluations/:id",
    {
      schema: {
        operationId: "getEvaluation",
        summary: "An evaluation: its status, metrics, per-class figures, confusion matrix, curves and folds. Sends an ETag; If-None-Match answers 304 while nothing changed.",
        tags: ["evaluations"],
        params: idParams,
        querystring: curvePointsQuery,
        headers: conditionalGetSchema.headers,
        response: { 200: evaluationSchema, 304: conditionalGetSchema.notModified, 404: problemSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const e = await store.evaluations.get(request.params.id);
      if (!e) throw notFound("evaluation", request.params.id);
      return unlessNotModified(request, reply, evaluationToWire(e, request.query.curve_points));
    },
  );

  app.post(
    "/evaluations",
    {
      // A retry with the same Idempotency-Key gets the first response (plugins/idempotency.ts).
      config: { idempotent: true },
      schema: {
        operationId: "createEvaluation", tags: ["evaluations"],
        summary: "Score a stored model on a dataset ({model_id, dataset_id}), or cross-validate an algorithm spec without keeping a model (asynchronous: 202, then poll the Location)",
        body: createEvaluationBody,
        response: { 202: evaluationSchema, 404: problemSchema, 409: problemSchema, 503: problemSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      checkJobCapacity(await jobs.activeCount(), app.services.config.maxJobs);
      const body = request.body;
      if (body.model_id !== undefined) {
        const extra = (["algorithm", "params", "preprocessing", "validation", "features", "target", "seed", "auto_scale"] as const).filter((k) => body[k] !== undefined);
        if (extra.length) throw new ApiError("validation_failed", "scoring a stored model takes only model_id, dataset_id, reference, positive_class and beta", extra.map((k) => ({ path: k, message: "not allowed with model_id" })));
        const record = await scoreModelRequest(body.model_id, body);
        reply.header("location", `/v1/evaluations/${record.id}`);
        return reply.code(202).send(evaluationToWire(record));
      }
      if (!body.algorithm) throw new ApiError("validation_failed", "give model_id (score a model) or algorithm (cross-validate a spec)", [{ path: "algorithm", message: "required without model_id" }]);
      const dataset = await requireDataset(body.dataset_id);
      const seed = body.seed ?? randomInt(0, 2 ** 31);
      const spec = resolveEvaluationSpec(body, dataset, seed, { jobMemoryMb: app.services.config.jobMemoryMb });
      const reference = checkReference(body.reference, spec, dataset);
      const record = await store.evaluations.insert({
        dataset_id: dataset.id,
        algorithm: spec.algorithm.name,
        task: spec.task,
        method: spec.validation.method,
        status: "queued",
        spec: {
          dataset_id: dataset.id,
          algorithm: spec.algorithm.name,
          params: spec.params,
          target: spec.target,
          features: spec.features,
          preprocessing: spec.steps.map((s) => ({ step: s.step, ...(s.spec as object) })),
          validation: spec.validation,
          seed,
          positive_class: spec.positiveClass,
          ...trainingModules().spec.storedSpecExtras(spec),
          ...(body.beta !== undefined ? { beta: body.beta } : {}),
          ...(body.decision_threshold !== undefined ? { decision_threshold: body.decision_threshold } : {}),
          ...(reference !== undefined ? { reference } : {}),
        },
      });
      await jobs.submitEvaluation(record.id);
      reply.header("location", `/v1/evaluations/${record.id}`);
      return reply.code(202).send(evaluationToWire(record));
    },
  );

  async function requireDataset(id: string | undefined): Promise<DatasetRecord> {
    if (id === undefined) throw new ApiError("validation_failed", "dataset_id is required", [{ path: "dataset_id", message: "required" }]);
    const dataset = await store.datasets.get(id);
    if (!dataset) throw new ApiError("not_found", `dataset ${id} does not exist`, [{ path: "dataset_id", message: "unknown dataset" }]);
    return dataset;
  }

  type ScoreRequest = Pick<z.infer<typeof createEvaluationBody>, "dataset_id" | "reference" | "positive_class" | "beta" | "decision_threshold">;

  async function scoreModelRequest(modelId: string, body: ScoreRequest): Promise<EvaluationRecord> {
    const model = await store.models.get(modelId);
    if (!model) throw new ApiError("not_found", `model ${modelId} does not exist`, [{ path: "model_id", message: "unknown model" }]);
    if (model.status !== "succeeded") throw new ApiError("wrong_state", `model ${modelId} is ${model.status}; only a succeeded model can be scored`);
    if (model.spec.task === "clustering") return scoreClusteringRequest(model, body);
    if (model.spec.task === "anomaly") return scoreAnomalyRequest(model, body);
    const dataset = await requireDataset(body.dataset_id);
    const { positive_class: positiveClass, beta, decision_threshold: decisionThreshold } = body;
    if (body.reference !== undefined) throw new ApiError("invalid_request", "reference applies to clustering models; this model is scored against its target", [{ path: "reference", message: "not a clustering model" }]);
    if (!model.spec.target) throw new ApiError("unusable_request", "the model has no target: only supervised models can be scored");
    const columns = new Map(dataset.columns.map((c) => [c.name, c]));
    const missing = [...model.spec.features, model.spec.target].filter((n) => !columns.has(n));
    if (missing.length) throw new ApiError("unknown_column", `the dataset lacks column(s) ${missing.join(", ")}`, missing.map((n) => ({ path: "dataset_id", message: `no column ${n}` })));
    const target = columns.get(model.spec.target)!;
    if ((target.type === "categorical") !== (model.spec.task === "classification")) {
      throw new ApiError("unusable_request", `target "${target.name}" is ${target.type} here but the model does ${model.spec.task}`);
    }
    if (model.classes && target.levels) {
      const unknown = target.levels.filter((l) => !model.classes!.includes(l));
      if (unknown.length) throw new ApiError("unusable_request", `the dataset has classes the model never saw: ${unknown.join(", ")}`, [{ path: "dataset_id", message: "unknown classes" }]);
    }
    if (decisionThreshold !== undefined && model.classes?.length !== 2) {
      throw new ApiError("unusable_request", "decision_threshold applies to binary classifiers only", [{ path: "decision_threshold", message: "not a binary model" }]);
    }
    if (positiveClass !== undefined && !model.classes?.includes(positiveClass)) {
      throw new ApiError("unusable_request", `positive_class "${positiveClass}" is not a class of the model`, [{ path: "positive_class", message: "unknown class" }]);
    }
    const record = await store.evaluations.insert({
      model_id: modelId,
      dataset_id: dataset.id,
      algorithm: model.spec.algorithm,
      task: model.spec.task,
      method: "dataset",
      status: "queued",
      spec: { model_id: modelId, dataset_id: dataset.id, params: model.spec.params, target: model.spec.target, ...(positiveClass ? { positive_class: positiveClass } : {}), ...(beta ? { beta } : {}), ...(decisionThreshold !== undefined ? { decision_threshold: decisionThreshold } : {}) },
    });
    await jobs.submitScoring(record.id);
    return record;
  }

  /**
   * An anomaly model against a reference column of known outliers (training/anomaly.ts): numeric
   * 1 / 0, or categorical with positive_class (default "outlier") naming the outliers. The dataset
   * defaults to the one the model was trained on.
   */
  async function scoreAnomalyRequest(model: ModelRecord, body: ScoreRequest): Promise<EvaluationRecord> {
    const misplaced = (["beta", "decision_threshold"] as const).filter((k) => body[k] !== undefined);
    if (misplaced.length) throw new ApiError("invalid_request", `${misplaced.join(", ")} apply to classifiers; model ${model.id} scores anomalies`, misplaced.map((k) => ({ path: k, message: "not for an anomaly model" })));
    if (body.reference === undefined) {
      throw new ApiError("invalid_request", `model ${model.id} detects anomalies: give reference, a column marking the known outliers (1 / 0, or a categorical level named by positive_class)`, [{ path: "reference", message: "required for an anomaly model" }]);
    }
    const trainedOn = model.spec.dataset_id === "" ? undefined : model.spec.dataset_id;
    const dataset = await requireDataset(body.dataset_id ?? trainedOn);
    const columns = new Map(dataset.columns.map((c) => [c.name, c]));
    const missing = model.spec.features.filter((n) => !columns.has(n));
    if (missing.length) throw new ApiError("unknown_column", `the dataset lacks column(s) ${missing.join(", ")}`, missing.map((n) => ({ path: "dataset_id", message: `no column ${n}` })));
    const reference = columns.get(body.reference);
    if (!reference) throw new ApiError("unknown_column", `reference "${body.reference}" is not a column of the dataset`, [{ path: "reference", message: "unknown column" }]);
    if (model.spec.features.includes(body.reference)) throw new ApiError("invalid_request", `reference "${body.reference}" is one of the model's features`, [{ path: "reference", message: "a feature" }]);
    if (reference.type === "categorical") {
      const level = body.positive_class ?? DEFAULT_OUTLIER_LEVEL;
      if (!reference.levels?.includes(level)) {
        throw new ApiError("unusable_request", `reference "${reference.name}" has no level "${level}"; name the level marking the outliers in positive_class`, [{ path: body.positive_class === undefined ? "reference" : "positive_class", message: "no such level" }]);
      }
    } else {
      if (body.positive_class !== undefined) throw new ApiError("invalid_request", `reference "${reference.name}" is numeric (1 outlier, 0 inlier): positive_class names a level of a categorical reference`, [{ path: "positive_class", message: "numeric reference" }]);
      const { min, max } = reference.summary ?? {};
      if ((typeof min === "number" && min < 0) || (typeof max === "number" && max > 1)) {
        throw new ApiError("unusable_request", `reference "${reference.name}" ranges over [${min}, ${max}]: a numeric reference is 1 (outlier) or 0 (inlier)`, [{ path: "reference", message: "not 0 / 1" }]);
      }
    }
    const record = await store.evaluations.insert({
      model_id: model.id,
      dataset_id: dataset.id,
      algorithm: model.spec.algorithm,
      task: "anomaly",
      method: "dataset",
      status: "queued",
      spec: { model_id: model.id, dataset_id: dataset.id, params: model.spec.params, target: null, reference: body.reference, ...(body.positive_class !== undefined ? { positive_class: body.positive_class } : {}) },
    });
    await jobs.submitScoring(record.id);
    return record;
  }

  /** A clustering model: internal indices on a dataset (by default its own training rows), external ones against `reference`. */
  async function scoreClusteringRequest(model: ModelRecord, body: ScoreRequest): Promise<EvaluationRecord> {
    const misplaced = (["positive_class", "beta", "decision_threshold"] as const).filter((k) => body[k] !== undefined);
    if (misplaced.length) throw new ApiError("invalid_request", `${misplaced.join(", ")} apply to classifiers; model ${model.id} clusters`, misplaced.map((k) => ({ path: k, message: "not for a clustering model" })));
    const trainedOn = model.spec.dataset_id === "" ? undefined : model.spec.dataset_id;
    const dataset = await requireDataset(body.dataset_id ?? trainedOn);
    const columns = new Set(dataset.columns.map((c) => c.name));
    const missing = model.spec.features.filter((n) => !columns.has(n));
    if (missing.length) throw new ApiError("unknown_column", `the dataset lacks column(s) ${missing.join(", ")}`, missing.map((n) => ({ path: "dataset_id", message: `no column ${n}` })));
    if (body.reference !== undefined && !columns.has(body.reference)) throw new ApiError("unknown_column", `reference "${body.reference}" is not a column of the dataset`, [{ path: "reference", message: "unknown column" }]);
    const trainingRows = dataset.id === trainedOn;
    if (!trainingRows && getAlgorithm(model.spec.algorithm)?.transductive) {
      throw new ApiError("transductive_model", `${model.spec.algorithm} labels only the rows it was trained on: score it on dataset ${trainedOn ?? "(unknown: the model was imported)"}`, [{ path: "dataset_id", message: "transductive model" }]);
    }
    const record = await store.evaluations.insert({
      model_id: model.id,
      dataset_id: dataset.id,
      algorithm: model.spec.algorithm,
      task: "clustering",
      method: "dataset",
      status: "queued",
      spec: { model_id: model.id, dataset_id: dataset.id, params: model.spec.params, target: null, training_rows: trainingRows, seed: model.spec.seed, ...(body.reference !== undefined ? { reference: body.reference } : {}) },
    });
    await jobs.submitScoring(record.id);
    return record;
  }
};
