import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { problemFor } from "../errors.js";
import { problemSchema } from "../schemas/common.js";

const status = z.object({ status: z.literal("ok"), checks: z.record(z.string(), z.boolean()).optional() });

export const healthRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get("/health/live", { schema: { tags: ["health"], summary: "The process is up", response: { 200: status } } }, async () => ({ status: "ok" as const }));

  app.get(
    "/health/ready",
    { schema: { tags: ["health"], summary: "The database is open and the worker pool is alive", response: { 200: status, 503: problemSchema } } },
    async (request, reply) => {
      const { store, pool } = app.services;
      const checks = { database: await store.isHealthy(), pool: pool.alive };
      if (checks.database && checks.pool) return { status: "ok" as const, checks };
      reply.header("retry-after", "5");
      return reply
        .code(503)
        .type("application/problem+json")
        .send(problemFor("unavailable", 503, `not ready: ${Object.entries(checks).filter(([, ok]) => !ok).map(([k]) => k).join(", ")}`, undefined, request.url));
    },
  );
};
