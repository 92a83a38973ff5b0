/**
 * One error handler for the whole API: every failure leaves as problem+json.
 * Validation failures name the field (`rows[3].密度`, `params.max_depth`,
 * `query.limit`); a 5xx says nothing about internals (they go to the log).
 * Failures below the routes (a URL that does not decode, an over-long path
 * parameter, an HTTP message node cannot parse) answer problem+json too,
 * through the hooks Fastify offers for each.
 */
import { maxHeaderSize, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { clientProblem } from "../compute/problem.js";
import { problemFor, type ErrorCode, type FieldError } from "../errors.js";

/** "/rows/3/密度" → "rows[3].密度" */
export function jsonPointerToPath(pointer: string, prefix = ""): string {
  const parts = pointer.split("/").filter((p) => p !== "").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  let out = prefix;
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : out === "" ? part : `.${part}`;
  return out;
}

const FASTIFY_CODES: Record<string, { code: ErrorCode; status: number }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: "unsupported_media_type", status: 415 },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: "malformed_request", status: 400 },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: "payload_too_large", status: 413 },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: "malformed_request", status: 400 },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: "malformed_request", status: 400 },
  FST_ERR_CTP_EMPTY_TYPE: { code: "unsupported_media_type", status: 415 },
  FST_ERR_CTP_INVALID_TYPE: { code: "unsupported_media_type", status: 415 },
};

const INTERNAL_DETAIL = "an internal error occurred; the request id is in the x-request-id header";

function send(reply: FastifyReply, request: FastifyRequest, status: number, code: ErrorCode, detail?: string, errors?: FieldError[]) {
  // A limiter that knows when its window ends (rate limits, under-pressure) has said so already.
  if ((status === 429 || status === 503) && !reply.hasHeader("retry-after")) reply.header("retry-after", "5");
  return reply
    .code(status)
    .header("x-request-id", request.id)
    .type("application/problem+json")
    .send(problemFor(code, status, detail, errors, request.url));
}

/** Longest path parameter the router accepts (ids are 19 characters); longer → 414. */
export const MAX_PARAM_LENGTH = 100;

/**
 * Fastify's `frameworkErrors`: the router's own failures, raised before any
 * route or hook runs (so before the x-request-id hook too).
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === "FST_ERR_BAD_URL") {
    void send(reply, request, 400, "malformed_request", "the URL path does not decode (invalid percent-encoding)");
  } else if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    void send(reply, request, 414, "uri_too_long", `a path segment is longer than ${MAX_PARAM_LENGTH} characters`);
  } else {
    request.log.error({ err: error }, "router error");
    void send(reply, request, 500, "internal", INTERNAL_DETAIL);
  }
}

/** Node's http parser failures (no request object exists yet): status and code by parser error. */
function connectionProblem(errorCode: string | undefined): { status: number; code: ErrorCode; detail: string } {
  if (errorCode === "HPE_HEADER_OVERFLOW") return { status: 431, code: "headers_too_large", detail: `the request line and headers exceed the server's limit (${maxHeaderSize} bytes)` };
  if (errorCode === "ERR_HTTP_REQUEST_TIMEOUT" || errorCode === "ERR_HTTP_HEADERS_TIMEOUT") return { status: 408, code: "request_timeout", detail: "the request did not arrive in time" };
  return { status: 400, code: "malformed_request", detail: "the HTTP message could not be parsed" };
}

/** Fastify's `clientErrorHandler`: answers on the raw socket, as node's default does, but with problem+json. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const { status, code, detail } = connectionProblem(error.code);
  // A response already under way on this socket cannot be followed by another.
  const busy = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (socket.writable && !busy) {
    const body = JSON.stringify(problemFor(code, status, detail));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Turns a route pattern ("/v1/models/:id") into a matcher for concrete paths. */
function patternMatcher(url: string): RegExp {
  const source = url
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/]+" : part === "*" ? ".*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}/?$`);
}

/** What went wrong, as the catalogue names it: the one mapping every error format (problem+json, OIP's { error }) reads. */
export interface Failure {
  status: number;
  code: ErrorCode;
  detail?: string;
  errors?: FieldError[];
}

/** An error raised while serving a request → its failure; a defect is logged and becomes a 500 saying nothing. */
export function failureOf(error: FastifyError, request: FastifyRequest): Failure {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = (error as { validationContext?: string }).validationContext;
    const prefix = context === "querystring" ? "query" : context === "params" ? "path" : context === "headers" ? "headers" : "";
    const errors = error.validation.map((v) => ({ path: jsonPointerToPath(v.instancePath, prefix) || prefix || "body", message: v.message ?? "invalid" }));
    return { status: 400, code: "validation_failed", detail: `${errors.length} field(s) failed validation`, errors };
  }
  const problem = clientProblem(error);
  if (problem) return problem;
  const known = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (known) return { ...known, detail: error.message };
  if (error instanceof SyntaxError || (error.statusCode === 400 && !error.code)) return { status: 400, code: "malformed_request", detail: error.message };
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, code: error.statusCode === 413 ? "payload_too_large" : "malformed_request", detail: error.message };
  }
  request.log.error({ err: error }, "unhandled error");
  return { status: 500, code: "internal", detail: INTERNAL_DETAIL };
}

/** Methods the app serves on a concrete path (none: no route there). */
export type AllowedMethods = (path: string) => string[];

/** Installs the problem+json error and not-found handlers; returns the lookup of methods allowed per path (for 405s). */
export function registerErrorHandling(app: FastifyInstance): AllowedMethods {
  // Known paths, so a wrong method on one is a 405 with Allow rather than a 404.
  const routes: { matcher: RegExp; methods: string[] }[] = [];
  app.addHook("onRoute", (route) => {
    if (route.schema?.hide) return;
    routes.push({ matcher: patternMatcher(route.url), methods: ([] as string[]).concat(route.method) });
  });
  const allowedMethods: AllowedMethods = (path) => [...new Set(routes.filter((r) => r.matcher.test(path)).flatMap((r) => r.methods))];

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const failure = failureOf(error, request);
    return send(reply, request, failure.status, failure.code, failure.detail, failure.errors);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0];
    const allowed = allowedMethods(path);
    if (allowed.length > 0) {
      reply.header("allow", allowed.join(", "));
      return send(reply, request, 405, "method_not_allowed", `${request.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`);
    }
    return send(reply, request, 404, "route_not_found", `no route ${request.method} ${path}`);
  });
  return allowedMethods;
}

/** OIP's error text: the detail, with the field messages it does not already carry. */
function oipMessage(failure: Failure): string {
  const detail = failure.detail ?? "";
  const extra = (failure.errors ?? []).filter((e) => !detail.includes(e.message)).slice(0, 10).map((e) => `${e.path}: ${e.message}`);
  return extra.length ? `${detail}: ${extra.join("; ")}` : detail;
}

/**
 * The Open Inference Protocol's error answer, `{ "error": "…" }` with the status the
 * catalogue gives (400 malformed, 404 unknown model, …), for the scope of the /v2 routes.
 */
export function registerOipErrorHandling(scope: FastifyInstance, allowedMethods: AllowedMethods): void {
  const sendOip = (reply: FastifyReply, request: FastifyRequest, status: number, error: string) => {
    if (status === 429 || status === 503) reply.header("retry-after", "5");
    return reply.code(status).header("x-request-id", request.id).type("application/json; charset=utf-8").send({ error });
  };
  scope.setErrorHandler((error: FastifyError, request, reply) => {
    const failure = failureOf(error, request);
    return sendOip(reply, request, failure.status, oipMessage(failure));
  });
  scope.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0];
    const allowed = allowedMethods(path);
    if (allowed.length > 0) {
      reply.header("allow", allowed.join(", "));
      return sendOip(reply, request, 405, `${request.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`);
    }
    return sendOip(reply, request, 404, `no route ${request.method} ${path}`);
  });
}
