/**
 * GET /metrics (Prometheus text format) and the request duration histogram.
 * The route is on the API port (scope `read` once authentication is on) unless
 * XIGUA_METRICS_PORT is set: then a small node:http server of its own answers it
 * there, started when the app is ready and closed with it, and the API port has
 * no /metrics. It is left out of the OpenAPI document (it is not JSON).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import type { ServiceMetrics } from "./service-metrics.js";

export interface MetricsPluginOptions {
  /** XIGUA_METRICS_PORT (0: any free port, for tests); null: /metrics on the API port. */
  port: number | null;
  host: string;
}

/** Routes without a pattern (404s) share one label value, whatever their URL. */
export const UNMATCHED_ROUTE = "unmatched";

export function registerMetrics(app: FastifyInstance, metrics: ServiceMetrics, options: MetricsPluginOptions): void {
  // A callback hook, not an async one: it runs on every response, and needs no promise.
  app.addHook("onResponse", (request, reply, done) => {
    metrics.observeRequest(request.routeOptions.url ?? UNMATCHED_ROUTE, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  if (options.port === null) {
    app.get("/metrics", { schema: { hide: true }, config: { scope: "read" } }, async (_request, reply) => {
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    });
    return;
  }

  let server: Server | null = null;
  app.addHook("onReady", async () => {
    server = createServer((req, res) => {
      if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
        res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found: GET /metrics\n");
        return;
      }
      metrics.registry.metrics().then(
        (text) => res.writeHead(200, { "content-type": metrics.registry.contentType }).end(text),
        (err: unknown) => {
          app.log.error({ err }, "collecting metrics failed");
          res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("collecting metrics failed\n");
        },
      );
    });
    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.once("error", reject);
      listening.listen(options.port!, options.host, () => resolve());
    });
    metrics.port = (listening.address() as AddressInfo).port;
    app.log.info({ port: metrics.port }, "metrics listening");
  });
  app.addHook("onClose", async () => {
    const open = server;
    if (!open) return;
    open.closeAllConnections();
    await new Promise<void>((resolve) => open.close(() => resolve()));
  });
}
