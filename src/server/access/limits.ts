/**
 * The two request counters of the access hook (guard.ts), @fastify/rate-limit's own
 * (createRateLimit), each over a one-minute window: requests per key (per client address
 * with auth off) and failed authentications per client address.
 */
import { importBeside } from "../../import-beside.js";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import rateLimit from "@fastify/rate-limit";
import type { Redis } from "ioredis";
import type { Config } from "../config.js";
import { ApiError } from "../errors.js";

const WINDOW_MS = 60_000;

type Limiter = ReturnType<FastifyInstance["createRateLimit"]>;

/**
 * Beside other API processes (a deployment with XIGUA_QUEUE_URL) the counters live in its
 * Redis, so a key's rate holds across nodes; a lone process counts in memory. Redis down:
 * requests are not limited (skipOnError) rather than refused.
 */
async function sharedCounters(app: FastifyInstance, config: Config): Promise<{ redis?: Redis; nameSpace?: string; skipOnError?: boolean }> {
  if (!config.queueUrl) return {};
  const { redisConnection } = await importBeside<typeof import("../../training/queue/bullmq-queue.js")>(import.meta.url, "../../training/queue/bullmq-queue");
  const redis = redisConnection(config.queueUrl, { failFast: true });
  redis.on("error", () => {});
  app.addHook("onClose", async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  // Counting starts once connected (a command sent before would be skipped), or after a short wait if Redis is down.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 2000);
    redis.once("ready", () => (clearTimeout(timer), resolve()));
  });
  return { redis, nameSpace: `xigua:${config.queueName}:rate:`, skipOnError: true };
}

/** Counts the request; RateLimit-* headers on every counted answer, 429 + Retry-After past the limit. */
export async function count(limiter: Limiter, request: FastifyRequest, reply: FastifyReply, what: string): Promise<void> {
  const r = await limiter(request);
  if (r.isAllowed) return;
  reply.header("ratelimit-limit", r.max).header("ratelimit-remaining", r.remaining).header("ratelimit-reset", r.ttlInSeconds);
  if (r.isExceeded) {
    reply.header("retry-after", r.ttlInSeconds);
    throw new ApiError("rate_limited", `more than ${r.max} ${what} a minute; retry in ${r.ttlInSeconds} s`);
  }
}

export async function registerLimiters(app: FastifyInstance, config: Config): Promise<{ requests: Limiter; failures: Limiter }> {
  // global: false — no per-route hooks; the access hook calls the limiters itself.
  await app.register(rateLimit, { global: false, ...(await sharedCounters(app, config)) });
  const requests = app.createRateLimit({
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => request.principal.keyId ?? `address:${request.ip}`,
    max: (request) => request.principal.ratePerMinute ?? config.ratePerMinute,
  });
  const failures = app.createRateLimit({ timeWindow: WINDOW_MS, keyGenerator: (request) => `failed:${request.ip}`, max: config.authFailuresPerMinute });
  return { requests, failures };
}
