/**
 * POST /v1/models/{ref}/predict (an id, name@alias, name:version or name). Single rows and small batches run on the request
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
import { fastBodyValidator, isWellFormedModelRef, isWellFormedPredictBody } from "../fast-validation.js";
import { checkRowCount, INLINE_MAX_ROWS, predictJson, runsInline, servingModel } from "../predict.js";
import { bodyBlocks, registerPredictBodyReader, UnparsedPredictBody } from "../predict-body.js";
import { isModelId, resolveModelRef } from "../model-ref.js";
import { errorResponses, problemSchema } from "../schemas/common.js";
import { modelRefParams } from "../schemas/registry.js";
import { MAX_PARAM_LENGTH } from "../plugins/errors.js";
import { predictBody, predictCsvQuery, predictResponse, type PredictBody } from "../schemas/models.js";
import { UnparsedCsvBody } from "../plugins/csv-body.js";
import { predictCsvRoute } from "../interop/csv-route.js";

export const predictRoute: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { models, compute, config, store, metrics } = app.services;

  // This plugin's own JSON reader (encapsulated: other routes keep the default one).
  registerPredictBodyReader(app, config.bodyLimitBytes);
  const validateBody = fastBodyValidator(
    predictBody,
    (body) => body instanceof UnparsedPredictBody || isWellFormedPredictBody(body) || Buffer.isBuffer(body) || body instanceof UnparsedCsvBody,
    (params) => isWellFormedModelRef(params, MAX_PARAM_LENGTH),
  );

  app.post(
    "/models/:id/predict",
    {
      config: { scope: "predict" },
      schema: {
        operationId: "predict", tags: ["models"],
        summary: `Predict for raw rows (at most XIGUA_PREDICT_MAX_ROWS rows, default 100,000; batches over ${INLINE_MAX_ROWS} rows run on the compute pool)`,
        description:
          "A text/csv body (header row; the same cells as JSON rows, read as text) scores a file, on the compute pool when large; ?probabilities=true and ?decision_threshold= apply to it " +
          "(a JSON body carries them in the body; the query is ignored for it). With Accept: text/csv the answer is CSV: the file's columns, then `prediction` and one `p_<class>` " +
          "per class when the model gives probabilities (`projection_<j>` for projections), RFC 4180 quoting, missing cells empty.",
        params: modelRefParams,
        querystring: predictCsvQuery,
        body: predictBody,
        response: { 200: predictResponse, 404: problemSchema, 409: problemSchema, 413: problemSchema, 415: problemSchema, 503: problemSchema, ...errorResponses },
      },
      // The row cap comes before validation, which walks every row.
      // A callback hook: the single-row hot path needs no promise here.
      preValidation: (request, _reply, done) => {
        const rows = (request.body as { rows?: unknown } | null)?.rows;
        if (Array.isArray(rows) && rows.length > config.predictMaxRows) {
          try {
            checkRowCount(rows.length, config.predictMaxRows);
          } catch (e) {
            return done(e as Error);
          }
        }
        done();
      },
      // The query applies to CSV bodies only and is validated there (predictCsvRoute), so a JSON request never pays for it.
      validatorCompiler: ((route: { httpPart?: string }) =>
        route.httpPart === "querystring" ? (data: unknown) => ({ value: data }) : validateBody(route as never)) as never,
    },
    async (request, reply) => {
      const ref = request.params.id;
      // An id resolves without the store; a name, version or alias is read fresh (an alias moved elsewhere counts now).
      const id = isModelId(ref) ? ref : await resolveModelRef(store, ref);
      if (id === undefined) throw notFound("model", ref);
      if (Buffer.isBuffer(request.body) || request.body instanceof UnparsedCsvBody) return predictCsvRoute(app.services, request, reply, id, request.body);
      // Cache hits answer synchronously: no await on the single-row hot path.
      const serving = models.peekServingState(id) ?? (await models.servingState(id));
      if (!serving) throw notFound("model", ref);
      if (serving.status !== "succeeded" || !serving.sha256) throw new ApiError("wrong_state", `model ${id} is ${serving.status}; only a succeeded model can do this`);
      const sha256 = serving.sha256;
      const body = request.body as PredictBody | UnparsedPredictBody;
      // Already JSON text: sent as is, past the schema serializer (typed as the schema's shape by construction).
      const send = (json: string | Buffer) => reply.type("application/json; charset=utf-8").send(json as never);
      if (body instanceof UnparsedPredictBody) {
        const { json, rows } = await compute.predict(id, sha256, config.predictMaxRows, { blocks: body.blocks }, undefined, { name: serving.name, version: serving.version });
        metrics.recordPrediction(id, rows);
        return send(json);
      }

      const model = models.peek(id, sha256) ?? (await servingModel(models, id, sha256));
      if (!runsInline(body.rows.length, model.bytes)) {
        const blocks = bodyBlocks(request);
        const { json } = await compute.predict(id, sha256, config.predictMaxRows, blocks ? { blocks } : { body }, undefined, { name: serving.name, version: serving.version });
        metrics.recordPrediction(id, body.rows.length);
        return send(json);
      }
      const json = predictJson(id, model, body, serving);
      metrics.recordPrediction(id, body.rows.length);
      return send(json);
    },
  );
};
