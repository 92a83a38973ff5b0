import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { problemFor } from "../errors.js";
import { problemSchema } from "../schemas/common.js";

const status = z.object({ status: z.literal("ok"), checks: z.record(z.string(), z.boolean()).optional() });

export const healthRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get("/health/live", { config: { scope: "public" }, schema: { operationId: "getLiveness", tags: ["health"], summary: "The process is up", response: { 200: status } } }, async () => ({ status: "ok" as const }));

  app.get(
    "/health/ready",
    { config: { scope: "public" }, schema: { operationId: "getReadiness", tags: ["health"], summary: "The store answers and jobs can run (the worker pool is alive, or the job queue answers)", response: { 200: status, 503: problemSchema } } },
    async (request, reply) => {
      const { store, jobs, pool } = app.services;
      const [database, runnable] = await Promise.all([store.isHealthy(), jobs.isHealthy()]);
      const checks = { database, [pool ? "pool" : "queue"]: runnable };
      if (database && runnable) return { status: "ok" as const, checks };
      reply.header("retry-after", "5");
      return reply
        .code(503)
        .type("application/problem+json")
        .send(problemFor("unavailable", 503, `not ready: ${Object.entries(checks).filter(([, ok]) => !ok).map(([k]) => k).join(", ")}`, undefined, request.url));
    },
  );
};
