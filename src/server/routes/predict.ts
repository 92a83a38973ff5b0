/**
 * POST /v1/models/{id}/predict. Single rows and small batches run on the request
 * thread against the model cache (microseconds); a large batch runs on the
 * compute pool, and a large body is not even parsed here (JSON.parse of 75 MB
 * is half a second). Rows past XIGUA_PREDICT_MAX_ROWS are a 413 before any
 * per-row work. The response is sent pre-serialised (see ../predict.ts).
 *
 *   body ≤ 256 KiB: parse, row cap, validate ─┬─ small batch: predict here ────────────── JSON text
 *                                             └─ large batch: its bytes to the compute pool ─┐
 *   body > 256 KiB: its blocks to the compute pool ──────────────────────────────────────────┴─ parse,
 *                   row cap, validate, predict (compute thread) ─────────────────────────────── JSON text
 */
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { ApiError, notFound } from "../errors.js";
import { fastBodyValidator, isWellFormedPredictBody } from "../fast-validation.js";
import { checkRowCount, INLINE_MAX_ROWS, predictJson, runsInline, servingModel } from "../predict.js";
import { bodyBlocks, registerPredictBodyReader, UnparsedPredictBody } from "../predict-body.js";
import { errorResponses, idParams, problemSchema } from "../schemas/common.js";
import { predictBody, predictResponse, type PredictBody } from "../schemas/models.js";

export const predictRoute: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { models, compute, config, metrics } = app.services;

  // This plugin's own JSON reader (encapsulated: other routes keep the default one).
  registerPredictBodyReader(app, config.bodyLimitBytes);

  app.post(
    "/models/:id/predict",
    {
      schema: {
        operationId: "predict", tags: ["models"],
        summary: `Predict for raw rows (at most XIGUA_PREDICT_MAX_ROWS rows, default 100,000; batches over ${INLINE_MAX_ROWS} rows run on the compute pool)`,
        params: idParams,
        body: predictBody,
        response: { 200: predictResponse, 404: problemSchema, 409: problemSchema, 413: problemSchema, 503: problemSchema, ...errorResponses },
      },
      // The row cap comes before validation, which walks every row.
      preValidation: async (request) => {
        const rows = (request.body as { rows?: unknown } | null)?.rows;
        if (Array.isArray(rows)) checkRowCount(rows.length, config.predictMaxRows);
      },
      validatorCompiler: fastBodyValidator(predictBody, (body) => body instanceof UnparsedPredictBody || isWellFormedPredictBody(body)) as never,
    },
    async (request, reply) => {
      const id = request.params.id;
      // Cache hits answer synchronously: no await on the single-row hot path.
      const serving = models.peekServingState(id) ?? (await models.servingState(id));
      if (!serving) throw notFound("model", id);
      if (serving.status !== "succeeded" || !serving.sha256) throw new ApiError("wrong_state", `model ${id} is ${serving.status}; only a succeeded model can do this`);
      const sha256 = serving.sha256;
      const body = request.body as PredictBody | UnparsedPredictBody;
      // Already JSON text: sent as is, past the schema serializer (typed as the schema's shape by construction).
      const send = (json: string | Buffer) => reply.type("application/json; charset=utf-8").send(json as never);
      if (body instanceof UnparsedPredictBody) {
        const { json, rows } = await compute.predict(id, sha256, config.predictMaxRows, { blocks: body.blocks });
        metrics.recordPrediction(id, rows);
        return send(json);
      }

      const model = models.peek(id, sha256) ?? (await servingModel(models, id, sha256));
      if (!runsInline(body.rows.length, model.bytes)) {
        const blocks = bodyBlocks(request);
        const { json } = await compute.predict(id, sha256, config.predictMaxRows, blocks ? { blocks } : { body });
        metrics.recordPrediction(id, body.rows.length);
        return send(json);
      }
      const json = predictJson(id, model, body);
      metrics.recordPrediction(id, body.rows.length);
      return send(json);
    },
  );
};
