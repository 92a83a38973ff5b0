/**
 * POST /v1/models/{id}/transform: a succeeded projection model (pca, mds, kernel_pca,
 * isomap) applied to every row of a stored dataset, written as a NEW dataset — the
 * projections (pc1, pc2, …, named by the model) followed by the source's columns that
 * are not the model's features (a target stays, so the new dataset can be trained on) —
 * which records its lineage `source: { model_id, dataset_id }`. The checks against the
 * model's and the dataset's metadata run here; loading, projecting and storing are
 * O(dataset) and run on the compute pool, awaited (compute/transform-dataset.ts).
 */
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ApiError, notFound } from "../errors.js";
import { resolveModelRef } from "../model-ref.js";
import { errorResponses, idParams, problemSchema } from "../schemas/common.js";
import { datasetSchema } from "../schemas/datasets.js";
import { datasetToWire } from "./datasets.js";

const body = z
  .object({
    dataset_id: z.string().min(1).describe("The dataset to project: it must have the model's feature columns (any other columns are kept)."),
    name: z.string().min(1).max(256).optional().describe("The new dataset's name; default: <dataset name>-<algorithm>."),
  })
  .strict();

export const transformRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store, compute, config } = app.services;
  app.post(
    "/models/:id/transform",
    {
      config: { scope: "train" },
      schema: {
        operationId: "transformDataset",
        tags: ["models"],
        summary: "Apply a projection model (pca, mds, kernel_pca, isomap; lda_projection, nca_projection, lmnn_projection) to a dataset: a new dataset of the projections plus the source's other columns, with its lineage",
        description:
          "201 with the new dataset (its `source` names the model and the source dataset). 404: unknown model or dataset; 409: the model has not succeeded; " +
          "422 unsupported_task: the model is not a projection; 422 unknown_column: the dataset lacks a feature of the model; 422 invalid_data: a column does not fit the model's, " +
          "or a kept column has a projection's name, or the result would pass XIGUA_MAX_CELLS.",
        params: idParams,
        body,
        response: { 201: datasetSchema, 404: problemSchema, 409: problemSchema, 503: problemSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const modelId = await resolveModelRef(store, request.params.id);
      const model = modelId === undefined ? undefined : await store.models.get(modelId);
      if (!model) throw notFound("model", request.params.id);
      if (model.spec.task !== "projection") {
        throw new ApiError("unsupported_task", `model ${model.id} does ${model.spec.task}; only a projection model (pca, mds, kernel_pca, isomap, lda_projection, nca_projection, lmnn_projection) transforms a dataset`, [{ path: "id", message: "not a projection model" }]);
      }
      if (model.status !== "succeeded" || !model.artifact_sha256) throw new ApiError("wrong_state", `model ${model.id} is ${model.status}; only a succeeded model can transform a dataset`);
      const { dataset_id: datasetId, name } = request.body;
      const dataset = await store.datasets.get(datasetId);
      if (!dataset) throw new ApiError("not_found", `dataset ${datasetId} does not exist`, [{ path: "dataset_id", message: "unknown dataset" }]);
      const columns = new Set(dataset.columns.map((c) => c.name));
      const missing = model.spec.features.filter((f) => !columns.has(f));
      if (missing.length) throw new ApiError("unknown_column", `the dataset lacks the model's feature column(s) ${missing.join(", ")}`, missing.map((f) => ({ path: "dataset_id", message: `no column ${f}` })));
      const made = await compute.transformDataset({
        modelId: model.id,
        sha256: model.artifact_sha256,
        datasetId: dataset.id,
        name: name ?? `${dataset.name}-${model.spec.algorithm}`,
        maxCells: config.maxCells,
      });
      reply.header("location", `/v1/datasets/${made.id}`);
      return reply.code(201).send(datasetToWire(made));
    },
  );
};
