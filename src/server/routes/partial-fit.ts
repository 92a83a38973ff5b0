/**
 * POST /v1/models/{id}/partial-fit: a succeeded model updated with new labelled rows, without a
 * refit from scratch (algorithms with `partial_fit`: GET /v1/algorithms), stored as a NEW model —
 * the next version of the parent's name (or of `name`), already trained, whose spec records
 * `parent_model_id` and `partial_fit_rows`. The parent is left as it was.
 *
 * The rows are JSON objects like /predict's plus the target column; every feature must be present
 * (null for a missing value) and the target must be one of the model's classes (a classifier cannot
 * gain a class without a refit). They go through the model's fitted preprocessing steps unchanged
 * (a scaler's statistics are not updated). The checks against the model's metadata run here; the
 * update, the artifact checks and the insert are O(rows + model) and run on the compute pool, awaited.
 */
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { getAlgorithm } from "../../models/lazy-registry.js";
import { trainingModules } from "../training-modules.js";
import { ApiError, notFound } from "../errors.js";
import { resolveModelRef } from "../model-ref.js";
import { checkRowCount } from "../predict.js";
import { errorResponses, problemSchema } from "../schemas/common.js";
import { modelName } from "../schemas/model-name.js";
import { modelSchema } from "../schemas/models.js";
import { modelRefParams } from "../schemas/registry.js";
import { modelToWire } from "./models.js";

const body = z
  .object({
    rows: z
      .array(z.record(z.string(), z.unknown()))
      .min(1)
      .optional()
      .describe("New labelled rows: every feature of the model (null for a missing value) and the target, whose value must be one of the model's classes (classification) or a number (regression). At most XIGUA_PREDICT_MAX_ROWS. Give rows or dataset_id, not both."),
    dataset_id: z
      .string()
      .min(1)
      .optional()
      .describe("Or a stored dataset with the model's feature columns and target: its rows update the model (rows without a target value are left out)."),
    name: modelName.optional().describe("The new model's name (it becomes that name's next version); default: the parent's name, or none."),
  })
  .strict()
  .refine((b) => (b.rows === undefined) !== (b.dataset_id === undefined), { message: "give either rows or dataset_id" });

export const partialFitRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store, compute, config } = app.services;
  app.post(
    "/models/:id/partial-fit",
    {
      config: { scope: "train", idempotent: true },
      schema: {
        operationId: "partialFitModel",
        tags: ["models"],
        summary: "Update a model with new labelled rows without refitting from scratch (naive_bayes, perceptron, SGD linear models, mlp, id3 with incremental: true): a new model, the next version of its name, with its lineage",
        description:
          "The rows are JSON `rows` or the rows of a stored dataset (`dataset_id`). 201 with the new model (already trained; `parent_model_id` names the model it was updated from, `partial_fit_rows` the rows added, `partial_fit_dataset_id` the dataset). The model's fitted preprocessing steps are applied to the rows as they are (not refitted). " +
          "404: unknown model or dataset; 409: the model has not succeeded; 413: more rows than XIGUA_PREDICT_MAX_ROWS; 422 unsupported_task: not a classifier or regressor; 422 unusable_request: the algorithm has no partial fit; " +
          "422 unknown_column: the dataset lacks a feature or the target; 422 invalid_data: a row lacks a feature or the target, or its target is not one of the model's classes, or a value does not fit its column; 422 unusable_input: the learner cannot take this update (e.g. naive_bayes with numeric: kde, id3 trained without incremental: true); " +
          "422 memory_budget_exceeded: the update's estimated peak (a fit on the new rows and the rows the model keeps) is above XIGUA_JOB_MEMORY_MB.",
        params: modelRefParams,
        body,
        response: { 201: modelSchema, 404: problemSchema, 409: problemSchema, 413: problemSchema, 503: problemSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const modelId = await resolveModelRef(store, request.params.id);
      const model = modelId === undefined ? undefined : await store.models.get(modelId);
      if (!model) throw notFound("model", request.params.id);
      if (model.status !== "succeeded" || !model.artifact_sha256) throw new ApiError("wrong_state", `model ${model.id} is ${model.status}; only a succeeded model can be updated`);
      const algorithm = getAlgorithm(model.spec.algorithm);
      const refusal = algorithm ? trainingModules().partialFit.partialFitRefusal(algorithm, model.spec.task) : null;
      if (refusal) throw new ApiError(refusal.code, refusal.message, [{ path: refusal.path, message: refusal.message }]);
      const { rows, dataset_id: datasetId, name } = request.body;
      if (rows) checkRowCount(rows.length, config.predictMaxRows);
      if (datasetId !== undefined) {
        const dataset = await store.datasets.get(datasetId);
        if (!dataset) throw new ApiError("not_found", `dataset ${datasetId} does not exist`, [{ path: "dataset_id", message: "unknown dataset" }]);
        const columns = new Set(dataset.columns.map((c) => c.name));
        const missing = [...model.spec.features, model.spec.target ?? ""].filter((f) => !columns.has(f));
        if (missing.length) throw new ApiError("unknown_column", `the dataset lacks the model's column(s) ${missing.join(", ")}`, missing.map((f) => ({ path: "dataset_id", message: `no column ${f}` })));
      }
      const source = rows ? { rows } : { datasetId };
      const made = await compute.partialFit({ modelId: model.id, sha256: model.artifact_sha256, ...source, name: name ?? model.name, jobMemoryMb: config.jobMemoryMb });
      reply.header("location", `/v1/models/${made.id}`);
      return reply.code(201).send(modelToWire(made));
    },
  );
};
