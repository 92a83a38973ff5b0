/**
 * MLflow's scoring protocol on a model reference: POST /v1/models/{ref}/invocations
 * (payloads: interop/mlflow.ts) and GET /v1/models/{ref}/ping. Predictions come
 * from the predict machinery (serve-predict.ts), so they equal /predict's.
 */
import type { FastifyPluginAsync, FastifySchemaCompiler } from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "../errors.js";
import { answer } from "../interop/answer-request.js";
import { registerPredictBodyReader } from "../predict-body.js";
import { resolveModelRef } from "../model-ref.js";
import { cellValue, errorResponses, problemSchema } from "../schemas/common.js";
import { servableModel } from "../serve-predict.js";

export const refParams = z.object({ ref: z.string().min(1).max(200).describe("A model id (md_…) or registry reference (name, name:version, name@alias)") });

const rows = z.array(z.record(z.string(), cellValue));
const positionalRows = z.array(z.union([z.array(cellValue), z.record(z.string(), cellValue), cellValue]));

export const invocationsBody = z
  .object({
    dataframe_split: z
      .object({ columns: z.array(z.string()), data: z.array(z.array(cellValue)), index: z.array(z.unknown()).optional() })
      .optional()
      .describe("pandas split orient: column names, rows of values, optional index (ignored)."),
    dataframe_records: rows.optional().describe("pandas records orient: one object per row."),
    instances: positionalRows.optional().describe("TF-serving rows: objects, lists of values in the model's feature order, or bare values (one-feature models)."),
    inputs: z
      .union([z.record(z.string(), z.array(cellValue)), positionalRows])
      .optional()
      .describe("TF-serving columns { column: [values] }, or a list of rows as in instances."),
    params: z.record(z.string(), z.unknown()).optional().describe("Accepted and ignored: xigua models take no inference parameters."),
  })
  .describe("Exactly one of dataframe_split, dataframe_records, instances, inputs (none or several → 400); at most XIGUA_PREDICT_MAX_ROWS rows (413).")
  .meta({ id: "MlflowInvocation" });

export const invocationsResponse = z.object({
  predictions: z
    .array(z.union([z.string(), z.number(), z.null(), z.array(z.number().nullable())]))
    .describe("One per row, as MLflow's scikit-learn flavour answers (pyfunc predict): the class label (classifiers), the value (regression), the cluster index (clustering), the projected vector (projection); null where the output is not a finite number."),
  warnings: z.array(z.string()).optional(),
});

/** The body is converted (and its errors reported) by mlflowRows; other parts are validated by zod as everywhere. */
const bodyPassThrough: FastifySchemaCompiler<z.ZodType> = (route) => (route.httpPart === "body" ? (data: unknown) => ({ value: data }) : validatorCompiler(route));

export const mlflowRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store, models, config } = app.services;
  // /predict's JSON reader: a body over 256 KiB is left in blocks and parsed on the compute pool.
  registerPredictBodyReader(app, config.bodyLimitBytes);

  const servable = async (ref: string) => {
    const id = await resolveModelRef(store, ref);
    if (!id) throw notFound("model", ref);
    return { id, model: await servableModel(models, id) };
  };

  app.post(
    "/models/:ref/invocations",
    {
      schema: {
        operationId: "invokeModel", tags: ["interoperability"],
        summary: "Predict with MLflow's scoring payloads (dataframe_split, dataframe_records, instances, inputs) → { predictions }",
        params: refParams,
        body: invocationsBody,
        response: { 200: invocationsResponse, 404: problemSchema, 409: problemSchema, 413: problemSchema, 415: problemSchema, 503: problemSchema, ...errorResponses },
      },
      validatorCompiler: bodyPassThrough as never,
      config: { scope: "predict" },
    },
    async (request, reply) => {
      const { id, model } = await servable(request.params.ref);
      // Serialised here, as /predict does: the schema documents the shape, checking 100k rows cell by cell would cost more than predicting them.
      return reply.type("application/json; charset=utf-8").send((await answer(app.services, "mlflow", request, id, model)) as never);
    },
  );

  app.get(
    "/models/:ref/ping",
    {
      schema: {
        operationId: "pingModel", tags: ["interoperability"],
        summary: "MLflow's health check for one model: 200 when it can predict (succeeded and its artifact loads), 404 unknown, 409 not servable",
        params: refParams,
        response: { 200: z.object({ status: z.literal("ok"), model_id: z.string() }), 404: problemSchema, 409: problemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { id } = await servable(request.params.ref);
      return { status: "ok" as const, model_id: id };
    },
  );
};
