/**
 * Open Inference Protocol v2 (KServe V2 REST) under /v2: server and model metadata,
 * health, model readiness and inference (payloads: interop/oip.ts). `{name}` is a
 * model reference (model-ref.ts) and `/versions/{v}` narrows it: `{name}:{v}` for a
 * number, `{name}@{v}` for an alias. Errors in this scope are `{ "error": "…" }`, as
 * the protocol says (plugins/errors.ts, registerOipErrorHandling).
 */
import { readFileSync } from "node:fs";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, FastifySchemaCompiler } from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "../errors.js";
import { answer } from "../interop/answer-request.js";
import { OIP_DATATYPES, oipMetadata, versionRef } from "../interop/oip.js";
import { registerPredictBodyReader } from "../predict-body.js";
import { resolveModelRef } from "../model-ref.js";
import type { AllowedMethods } from "../plugins/errors.js";
import { registerOipErrorHandling } from "../plugins/errors.js";
import { servableModel } from "../serve-predict.js";

const SERVER_VERSION = (JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }).version;

import { oipError } from "../schemas/oip.js";

const datatype = z.enum(OIP_DATATYPES);
const tensorMetadata = z.object({ name: z.string(), datatype, shape: z.array(z.number().int()).describe("-1 for a variable dimension") });
const parameters = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

const serverMetadata = z.object({ name: z.string(), version: z.string(), extensions: z.array(z.string()) }).meta({ id: "OipServerMetadata" });

const modelMetadata = z
  .object({
    name: z.string().describe("The model reference as requested"),
    versions: z.array(z.string()).optional().describe("The version served, where the model has one"),
    platform: z.string().describe("xigua_<algorithm>"),
    inputs: z.array(tensorMetadata).describe("One per feature, in the model's order: FP64 for numeric, BYTES for categorical, shape [-1]"),
    outputs: z.array(tensorMetadata).describe("label (BYTES class, FP64 value, INT64 cluster index or BYTES outlier / inlier) and, for classifiers, probabilities [-1, classes]; score [-1] for anomaly models; projection for projections"),
  })
  .meta({ id: "OipModelMetadata" });

const inferRequest = z
  .object({
    id: z.string().optional(),
    parameters: parameters.optional().describe("Accepted and ignored"),
    inputs: z
      .array(z.object({ name: z.string(), shape: z.array(z.number().int().min(0)), datatype, parameters: parameters.optional(), data: z.array(z.unknown()).describe("Row-major, flat or nested; null is a missing value") }))
      .min(1)
      .describe("One tensor per feature ([n] or [n, 1], named as the feature; an absent feature is missing), or one [n, d] tensor in feature order"),
    outputs: z.array(z.object({ name: z.string(), parameters: parameters.optional() })).optional().describe("Default: every output"),
  })
  .meta({ id: "OipInferenceRequest" });

const inferResponse = z
  .object({
    model_name: z.string(),
    model_version: z.string().optional().describe("The model's version where it has one, else its id"),
    id: z.string().optional(),
    outputs: z.array(tensorMetadata.extend({ data: z.array(z.union([z.string(), z.number(), z.null()])) })),
  })
  .meta({ id: "OipInferenceResponse" });

type ModelParams = { name: string; version?: string };
const nameParams = z.object({ name: z.string().min(1).max(200) });
const versionParams = nameParams.extend({ version: z.string().min(1).max(100) });
const errors = { 400: oipError, 404: oipError, 409: oipError, 413: oipError, 415: oipError, 422: oipError, 500: oipError, 503: oipError };

/** The inference body is converted (and its errors reported) by oipInferRequest; other parts are validated by zod. */
const bodyPassThrough: FastifySchemaCompiler<z.ZodType> = (route) => (route.httpPart === "body" ? (data: unknown) => ({ value: data }) : validatorCompiler(route));

export const oipRoutes: FastifyPluginAsync<{ allowedMethods: AllowedMethods }> = async (base, options) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store, models, config } = app.services;
  registerOipErrorHandling(app, options.allowedMethods);
  // /predict's JSON reader: a body over 256 KiB is left in blocks and parsed on the compute pool.
  registerPredictBodyReader(app, config.bodyLimitBytes);

  const refOf = (params: ModelParams) => (params.version === undefined ? params.name : versionRef(params.name, params.version));
  const servable = async (params: ModelParams) => {
    const ref = refOf(params);
    const id = await resolveModelRef(store, ref);
    if (!id) throw notFound("model", ref);
    const model = await servableModel(models, id);
    // The registry gives models a version; until a model has one, its id is the exact version served.
    const record = await store.models.get(id);
    const version = (record as { version?: unknown } | undefined)?.version;
    return { id, model, version: typeof version === "number" ? String(version) : undefined };
  };

  // "" and not "/": the path is /v2 itself, without a trailing slash.
  app.get("", { schema: { operationId: "getOipServerMetadata", tags: ["interoperability"], summary: "OIP v2 server metadata", response: { 200: serverMetadata, ...errors } } }, async () => ({
    name: "xigua",
    version: SERVER_VERSION,
    extensions: [],
  }));

  app.get(
    "/health/live",
    { schema: { operationId: "getOipLiveness", tags: ["interoperability"], summary: "OIP v2 server live: 200 while the process serves", response: { 200: z.object({ live: z.literal(true) }) } }, config: { scope: "public" } },
    async () => ({ live: true as const }),
  );

  app.get(
    "/health/ready",
    {
      schema: {
        operationId: "getOipReadiness", tags: ["interoperability"],
        summary: "OIP v2 server ready: 200 when the store answers and jobs can run, else 503 with Retry-After (as GET /health/ready)",
        response: { 200: z.object({ ready: z.literal(true) }), 503: oipError },
      },
      config: { scope: "public" },
    },
    async (_request, reply: FastifyReply) => {
      const { jobs } = app.services;
      const [database, runnable] = await Promise.all([store.isHealthy(), jobs.isHealthy()]);
      if (database && runnable) return { ready: true as const };
      reply.header("retry-after", "5");
      return reply.code(503).send({ error: `not ready: ${[database ? null : "database", runnable ? null : "jobs"].filter(Boolean).join(", ")}` });
    },
  );

  const metadataSchema = (operationId: string, params: z.ZodObject) => ({
    schema: { operationId, tags: ["interoperability"], summary: "OIP v2 model metadata: inputs (one per feature) and outputs", params, response: { 200: modelMetadata, ...errors } },
  });
  const metadata = async (request: { params: unknown }) => {
    const params = request.params as ModelParams;
    const { model, version } = await servable(params);
    return oipMetadata(params.name, version, model);
  };
  app.get("/models/:name", metadataSchema("getOipModelMetadata", nameParams), metadata);
  app.get("/models/:name/versions/:version", metadataSchema("getOipModelVersionMetadata", versionParams), metadata);

  const readySchema = (operationId: string, params: z.ZodObject) => ({
    schema: {
      operationId, tags: ["interoperability"],
      summary: "OIP v2 model ready: 200 when the model can predict, 404 unknown, 409 not succeeded (or its artifact no longer loads)",
      params,
      response: { 200: z.object({ name: z.string(), ready: z.literal(true) }), ...errors },
    },
  });
  const ready = async (request: { params: unknown }) => {
    const params = request.params as ModelParams;
    await servable(params);
    return { name: params.name, ready: true as const };
  };
  app.get("/models/:name/ready", readySchema("getOipModelReady", nameParams), ready);
  app.get("/models/:name/versions/:version/ready", readySchema("getOipModelVersionReady", versionParams), ready);

  const inferSchema = (operationId: string, params: z.ZodObject) => ({
    schema: {
      operationId, tags: ["interoperability"],
      summary: "OIP v2 inference: feature tensors in, label (and probabilities) out; the same predictions as POST /v1/models/{id}/predict",
      params,
      body: inferRequest,
      response: { 200: inferResponse, ...errors },
    },
    validatorCompiler: bodyPassThrough as never,
    config: { scope: "predict" as const },
  });
  const infer = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as ModelParams;
    const { id, model, version } = await servable(params);
    const names = { name: params.name, version: version ?? id };
    // Serialised here, as /predict does (see ../predict.ts).
    return reply.type("application/json; charset=utf-8").send((await answer(app.services, "oip", request, id, model, names)) as never);
  };
  app.post("/models/:name/infer", inferSchema("oipInfer", nameParams), infer);
  app.post("/models/:name/versions/:version/infer", inferSchema("oipInferVersion", versionParams), infer);
};
