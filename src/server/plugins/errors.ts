/**
 * One error handler for the whole API: every failure leaves as problem+json.
 * Validation failures name the field (`rows[3].密度`, `params.max_depth`,
 * `query.limit`); a 5xx says nothing about internals (they go to the log).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { DataError, DataTooLargeError } from "../../data/errors.js";
import { ArtifactError } from "../../training/artifact.js";
import { ApiError, problemFor, type FieldError } from "../errors.js";

/** "/rows/3/密度" → "rows[3].密度" */
export function jsonPointerToPath(pointer: string, prefix = ""): string {
  const parts = pointer.split("/").filter((p) => p !== "").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  let out = prefix;
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : out === "" ? part : `.${part}`;
  return out;
}

const FASTIFY_CODES: Record<string, { code: string; status: number }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: "unsupported_media_type", status: 415 },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: "malformed_request", status: 400 },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: "payload_too_large", status: 413 },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: "malformed_request", status: 400 },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: "malformed_request", status: 400 },
  FST_ERR_CTP_EMPTY_TYPE: { code: "unsupported_media_type", status: 415 },
  FST_ERR_CTP_INVALID_TYPE: { code: "unsupported_media_type", status: 415 },
};

function send(reply: FastifyReply, request: FastifyRequest, status: number, code: string, detail?: string, errors?: FieldError[]) {
  if (status === 429 || status === 503) reply.header("retry-after", "5");
  return reply
    .code(status)
    .type("application/problem+json")
    .send(problemFor(code, status, detail, errors, request.url));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = (error as { validationContext?: string }).validationContext;
      const prefix = context === "querystring" ? "query" : context === "params" ? "path" : context === "headers" ? "headers" : "";
      const errors = error.validation.map((v) => ({ path: jsonPointerToPath(v.instancePath, prefix) || prefix || "body", message: v.message ?? "invalid" }));
      return send(reply, request, 400, "validation_failed", `${errors.length} field(s) failed validation`, errors);
    }
    if (error instanceof ApiError) return send(reply, request, error.status, error.code, error.detail, error.errors);
    // Routes turn an imported artifact's ArtifactError into invalid_artifact; one reaching here comes from a stored artifact that no longer loads.
    if (error instanceof ArtifactError) {
      const { message, path } = error as unknown as ArtifactError;
      const detail = `the stored model artifact no longer loads (${message}); train or import the model again`;
      return send(reply, request, 409, "wrong_state", detail, [{ path: path ? `artifact.${path}` : "artifact", message }]);
    }
    if (error instanceof DataTooLargeError) return send(reply, request, 413, "payload_too_large", error.message);
    if (error instanceof DataError) {
      const path = (error as unknown as DataError).path;
      return send(reply, request, 422, "invalid_data", error.message, path ? [{ path, message: error.message }] : undefined);
    }
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) return send(reply, request, known.status, known.code, error.message);
    if (error instanceof SyntaxError || (error.statusCode === 400 && !error.code)) return send(reply, request, 400, "malformed_request", error.message);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return send(reply, request, error.statusCode, error.statusCode === 413 ? "payload_too_large" : "malformed_request", error.message);
    }
    request.log.error({ err: error }, "unhandled error");
    return send(reply, request, 500, "internal", "an internal error occurred; the request id is in the x-request-id header");
  });

  app.setNotFoundHandler((request, reply) => send(reply, request, 404, "route_not_found", `no route ${request.method} ${request.url.split("?")[0]}`));
}
