/**
 * Request logs: Fastify's "incoming request" and "request completed" lines, the
 * latter with the API key's id (null with auth off) beside the request id (pino's
 * reqId binding) and the route pattern; the key is known only once the access
 * plugin has authenticated the request, so it is added at completion. Headers
 * are never logged, and `redact` censors credentials should any code log a
 * request's headers anyway.
 */
import { LogController, type FastifyReply, type FastifyRequest } from "fastify";

/** pino redact paths: the places a credential could appear in a logged object. */
export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
  "headers.authorization",
  "headers.cookie",
  'headers["x-api-key"]',
  "authorization",
];

/** The logger options with the redaction added (pino options, or false/true as given). */
export function withRedaction(logger: boolean | object): boolean | object {
  if (typeof logger !== "object" || logger === null) return logger ? { redact: REDACTED_PATHS } : false;
  return (logger as { redact?: unknown }).redact === undefined ? { ...logger, redact: REDACTED_PATHS } : logger;
}

export class RequestLogController extends LogController {
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const fields = { key_id: request.principal?.keyId ?? null, route: request.routeOptions?.url ?? null, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...fields, err: error }, "request errored");
    else reply.log.info(fields, "request completed");
  }
}
