/**
 * Conditional GETs of one resource (a model, an evaluation, a search) for clients that poll
 * it while it runs, as the dashboard does: the ETag is a hash of the body about to be sent,
 * so it changes exactly when the answer does; If-None-Match with it answers 304, no body.
 * (The evaluations list has a cheaper fingerprint from the store: routes/evaluations.ts.)
 */
import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";

/** The headers and the 304 response a conditional GET declares in its schema. */
export const conditionalGetSchema = {
  headers: z.object({ "if-none-match": z.string().optional() }),
  notModified: z.null().describe("Not modified: the If-None-Match ETag is still current"),
};

/** The body, or null after setting 304 when the client's ETag matches it. */
export function unlessNotModified<T>(request: FastifyRequest, reply: FastifyReply, body: T): T | null {
  const etag = `W/"${createHash("sha256").update(JSON.stringify(body)).digest("base64url").slice(0, 27)}"`;
  reply.header("etag", etag).header("cache-control", "no-cache");
  if (request.headers["if-none-match"] !== etag) return body;
  reply.code(304);
  return null;
}
