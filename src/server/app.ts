/**
 * buildApp(): the whole service as a Fastify instance, apart from listen(), so
 * tests run exactly what production runs. Routes are plugins; the store, pool
 * and job runner are created here and closed onClose (in reverse order).
 */
import { importBeside } from "../import-beside.js";
import { randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance } from "fastify";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { openStore } from "../store/store.js";
import { TrainingPool } from "../training/pool.js";
import { JobRunner, type JobLogger } from "../training/jobs.js";
import type { JobQueue } from "../training/queue/job-queue.js";
import { LocalQueue } from "../training/queue/local-queue.js";
import type { Store } from "../store/store.js";
import { DEFAULTS, storeLocator, type Config } from "./config.js";
import { ModelCache } from "./model-cache.js";
import { createNodeEvents } from "./node-events.js";
import { withProblemTypes } from "./openapi-problems.js";
import { withoutUnusedSchemas, withProblemMediaType } from "./openapi-tidy.js";
import { withCsvAlternatives } from "./openapi-csv.js";
import { ComputePool } from "./compute/pool.js";
import { clientErrorHandler, frameworkErrors, MAX_PARAM_LENGTH, registerErrorHandling } from "./plugins/errors.js";
import { registerCsvBodyParser } from "./plugins/csv-body.js";
import { registerBodyDepthLimit } from "./plugins/body-depth.js";
import { registerContentDecoding } from "./plugins/content-encoding.js";
import { registerRegistryLoading } from "./plugins/load-registry.js";
import { algorithmRoutes } from "./routes/algorithms.js";
import { comparisonRoutes } from "./routes/comparisons.js";
import { featureScoreRoutes } from "./routes/feature-scores.js";
import { searchRoutes } from "./routes/searches.js";
import { datasetRoutes } from "./routes/datasets.js";
import { evaluationRoutes } from "./routes/evaluations.js";
import { healthRoutes } from "./routes/health.js";
import { modelRoutes } from "./routes/models.js";
import { uiRoutes } from "./routes/ui.js";
import { registryRoutes } from "./routes/registry.js";
import { transformRoutes } from "./routes/transform.js";
import { partialFitRoutes } from "./routes/partial-fit.js";
import { mlflowRoutes } from "./routes/mlflow.js";
import { oipRoutes } from "./routes/oip.js";
import { metricsRoutes } from "./routes/metrics.js";
import "./services.js";
import { OPEN_PRINCIPAL, type Principal } from "./access/principal.js";
import { checkKeysUsable, registerAccess } from "./access/guard.js";
import { BEARER_SCHEME, withAccessDocs } from "./access/openapi.js";
import { accessRoutes } from "./access/routes.js";
import { ServiceMetrics } from "./metrics/service-metrics.js";
import { registerMetrics } from "./metrics/plugin.js";
import { registerIdempotency, withIdempotencyKey } from "./plugins/idempotency.js";
import { RequestLogController, withRedaction } from "./plugins/request-log.js";

export interface BuildOptions {
  config?: Partial<Config>;
  /** Pino options or false; tests pass false. Credentials are redacted either way (plugins/request-log.ts). */
  logger?: boolean | object;
  /** Milliseconds since the epoch, for what expires (idempotency keys); tests inject one. */
  clock?: () => number;
}

const REQUEST_ID = /^[\w.-]{1,64}$/;

/**
 * Fastify's request serializer logs no headers, but a caller's own log lines might (a
 * request object logged whole): API keys and cookies are censored wherever they appear.
 */
/**
 * Node expires slow requests from a periodic sweep (default every 30 s), so a short
 * configured limit also needs a shorter sweep to be honoured near its value.
 */
function requestTimeouts(requestTimeoutMs: number) {
  return {
    requestTimeout: requestTimeoutMs,
    // Node refuses a headers limit above the request limit.
    headersTimeout: Math.min(60_000, requestTimeoutMs),
    connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(requestTimeoutMs / 4))),
  };
}

type OpenApiDocument = { paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>> };

/** POST /v1/datasets also takes text/csv: zod describes one body, so the CSV alternative is added to the document here. */
function withCsvUpload(doc: OpenApiDocument): OpenApiDocument {
  const content = doc.paths?.["/v1/datasets"]?.post?.requestBody?.content;
  if (content) {
    content["text/csv"] = { schema: { type: "string", description: "CSV with a header row (UTF-8, optional BOM, quoted fields, CRLF or LF); name, missing_values and column_types as query parameters." } };
  }
  return doc;
}

/**
 * With XIGUA_QUEUE_URL, jobs go to BullMQ and `xigua worker` processes run them: this
 * process keeps no training threads. Otherwise they run here, on a pool whose threads'
 * heap is part of a job's memory (so never more than the job's budget).
 */
export async function createJobQueue(config: Config, store: Store, log: JobLogger, onTrained?: (algorithm: string, fitSeconds: number) => void): Promise<JobQueue> {
  if (config.queueUrl) {
    // bullmq and ioredis (≈ 14 MiB of RSS, 150 ms) are loaded only when a queue is configured.
    const { BullQueue } = await importBeside<typeof import("../training/queue/bullmq-queue.js")>(import.meta.url, "../training/queue/bullmq-queue");
    return new BullQueue(store, { url: config.queueUrl, name: config.queueName }, log);
  }
  const heapMb = Math.min(config.workerHeapMb, config.jobMemoryMb);
  const pool = new TrainingPool({ workers: config.workers, maxHeapMb: heapMb });
  const runner = new JobRunner(store, pool, { store: storeLocator(config), timeoutMs: config.jobTimeoutMs, memoryMb: config.jobMemoryMb, heapMb, onTrained }, log);
  return new LocalQueue(runner, pool, store, log);
}

export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const config: Config = { ...DEFAULTS, ...options.config };
  const app = Fastify({
    logger: withRedaction(options.logger ?? { level: config.logLevel }),
    // Each request's completion is logged with its API key's id (plugins/request-log.ts).
    logController: new RequestLogController(),
    bodyLimit: config.bodyLimitBytes,
    // Fastify's default (0) lets a body that trickles or stops hold its connection forever;
    // an expired request is answered 408 request_timeout by clientErrorHandler.
    requestTimeout: config.requestTimeoutMs,
    http: requestTimeouts(config.requestTimeoutMs),
    // Honour a caller's request id when it is sane, so logs correlate across services.
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    ajv: undefined,
    // Failures below the routes answer problem+json too (see plugins/errors.ts).
    frameworkErrors,
    clientErrorHandler,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const allowedMethods = registerErrorHandling(app);
  registerBodyDepthLimit(app);
  registerRegistryLoading(app);
  // Every request is the open principal until the access plugin authenticates it.
  app.decorateRequest("principal", null as unknown as Principal);
  app.addHook("onRequest", (request, reply, done) => {
    request.principal = OPEN_PRINCIPAL;
    reply.header("x-request-id", request.id);
    done();
  });
  // The API speaks JSON (and CSV for uploads); anything else, text/plain included, is a 415.
  app.removeContentTypeParser("text/plain");

  const locator = storeLocator(config);
  const store = await openStore(locator);
  await checkKeysUsable(config, store).catch(async (e: unknown) => {
    await store.close();
    throw e;
  });
  const metrics = new ServiceMetrics(config.metricsMaxModels);
  const jobs = await createJobQueue(config, store, app.log, (algorithm, seconds) => metrics.observeTraining(algorithm, seconds));
  const cacheBytes = config.modelCacheMb * 1024 * 1024;
  const models = new ModelCache(store.models, { maxModels: config.modelCacheSize, maxBytes: cacheBytes });
  const compute = new ComputePool({
    store: locator,
    threads: config.computeWorkers,
    maxHeapMb: config.workerHeapMb,
    cache: { maxModels: config.modelCacheSize, maxBytes: Math.ceil(cacheBytes / 4) },
    splitUnits: config.predictSplitUnits,
  });
  // A large CSV body is read on the compute pool: its thread gets ready while the body arrives.
  registerCsvBodyParser(app, config.bodyLimitBytes, {
    onLargeBody: (request) => compute.prepare(request.routeOptions.url === "/v1/datasets" ? "ingest-dataset" : "predict-csv"),
  });
  registerContentDecoding(app, config.bodyLimitBytes);
  const events = await createNodeEvents(config, {
    onModelDeleted: (id) => models.evict(id),
    // The authenticator is decorated by registerAccess below, before any request can arrive.
    onKeyRevoked: (id) => app.authenticator.forget(id),
  });
  const pool = jobs instanceof LocalQueue ? jobs.pool : null;
  app.decorate("services", { config, store, pool, jobs, models, compute, events, metrics });
  metrics.attach({
    jobCounts: () => store.jobCounts(),
    activeJobs: () => jobs.activeCount(),
    pools: () => [
      ...(pool ? [{ pool: "training", queueSize: pool.queueSize, utilization: pool.utilization, threads: pool.threadCount }] : []),
      { pool: "compute", queueSize: compute.queueSize, utilization: compute.utilization, threads: compute.threadCount },
    ],
    modelCache: () => ({ hits: models.hits, misses: models.misses, bytes: models.bytes, entries: models.size }),
    splitBatches: () => compute.splitBatches,
    modelLabel: (id) => store.models.get(id),
  });
  registerMetrics(app, metrics, { port: config.metricsPort, host: config.host });
  // Before any route: security headers, CORS, load shedding, authentication, rate limits, audit.
  await registerAccess(app, config, store, options.clock);
  const idempotentRoutes = registerIdempotency(app, { store: store.idempotency, ttlMs: config.idempotencyTtlMs, now: options.clock });
  app.addHook("onClose", async () => {
    await jobs.close(config.shutdownGraceMs);
    if (jobs instanceof LocalQueue) await jobs.pool.destroy();
    await compute.destroy();
    await events.close();
    await store.close();
  });

  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "xigua",
        version: "1.0.0",
        description: "Train-and-serve service for the classical machine learning of the watermelon book. Errors are application/problem+json (RFC 9457).",
        // A private project: no licence is granted (npm's "UNLICENSED", as package.json says).
        license: { name: "UNLICENSED" },
      },
      // Relative: the service that serves this document (GET /openapi.json); generators take a base URL anyway.
      servers: [{ url: "/", description: "The service serving this document" }],
      // No global requirement: each operation says (src/server/access/openapi.ts) — the bearer
      // key, or nothing for the public health and documentation routes.
      components: { securitySchemes: BEARER_SCHEME },
      tags: [
        { name: "datasets", description: "Tables uploaded as CSV or JSON rows: typed columns, summaries, pages of rows, feature scores." },
        { name: "algorithms", description: "The catalogue: every algorithm and preprocessing step with its parameters as JSON Schema." },
        { name: "models", description: "Training jobs and the models they make: progress, cancel, predict, explain, labels, artifacts." },
        { name: "registry", description: "Model names, versions and aliases: name@alias, name:version or name wherever a model id is accepted in a path." },
        { name: "evaluations", description: "Held-out and cross-validated metrics, curves and confusion matrices; significance tests between evaluations." },
        { name: "searches", description: "Grid and random hyper-parameter searches, every candidate an evaluation." },
        { name: "health", description: "Liveness and readiness probes." },
        { name: "access", description: "API keys with scopes (XIGUA_AUTH=keys) and the audit trail of who created or deleted what." },
        {
          name: "interoperability",
          description:
            "Other tools' formats on xigua models: MLflow's scoring protocol (invocations, ping), the Open Inference Protocol v2 (KServe V2 REST, under /v2, whose errors are { error } as that protocol says), and metrics computed from given labels and scores.",
        },
      ],
    },
    transform: (input) => jsonSchemaTransform(withAccessDocs(input)),
    transformObject: (input) =>
      withoutUnusedSchemas(withProblemMediaType(withProblemTypes(withIdempotencyKey(withCsvAlternatives(withCsvUpload(jsonSchemaTransformObject(input) as OpenApiDocument)), idempotentRoutes)))),
  });
  // The documentation is public: every route in here (Swagger UI's too) is marked so.
  await app.register(async (docs) => {
    docs.addHook("onRoute", (route) => {
      route.config = { ...route.config, scope: "public" };
    });
    await docs.register(swaggerUi, { routePrefix: "/docs" });
    docs.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  });

  await app.register(healthRoutes);
  await app.register(datasetRoutes, { prefix: "/v1" });
  await app.register(featureScoreRoutes, { prefix: "/v1" });
  await app.register(algorithmRoutes, { prefix: "/v1" });
  await app.register(modelRoutes, { prefix: "/v1" });
  await app.register(registryRoutes, { prefix: "/v1" });
  await app.register(transformRoutes, { prefix: "/v1" });
  await app.register(partialFitRoutes, { prefix: "/v1" });
  await app.register(evaluationRoutes, { prefix: "/v1" });
  await app.register(comparisonRoutes, { prefix: "/v1" });
  await app.register(searchRoutes, { prefix: "/v1" });
  await app.register(accessRoutes, { prefix: "/v1" });
  await app.register(mlflowRoutes, { prefix: "/v1" });
  await app.register(metricsRoutes, { prefix: "/v1" });
  await app.register(oipRoutes, { prefix: "/v2", allowedMethods });
  await app.register(uiRoutes);

  // Both before buildApp resolves, so before any route serves (awaited, as they ran synchronously before).
  // Only a lone process knows that an incomplete dataset's writer is dead; beside other API processes it may be one of theirs.
  if (!config.queueUrl) {
    const removed = await store.datasets.removeIncomplete();
    if (removed > 0) app.log.warn({ removed }, "datasets a dead upload left half-written were removed");
  }
  const { requeued } = await jobs.recover();
  if (requeued > 0) app.log.info({ requeued }, "queued jobs from a previous run were queued again");
  return app;
}
