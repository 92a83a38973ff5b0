/**
 * The access rules in the OpenAPI document, from the same route options the guard reads:
 * every operation but the public ones needs the bearer scheme and may answer 401 (no or
 * unknown key, with XIGUA_AUTH=keys), 403 (a key without the route's scope) and 429 (past
 * the key's or the client address's rate).
 */
import type { FastifySchema, RouteOptions } from "fastify";
import { problemSchema } from "../schemas/common.js";
import { isOipUrl, oipError } from "../schemas/oip.js";
import { routeScope } from "./scope.js";
import type { RouteScope } from "./principal.js";

export const BEARER_SCHEME = {
  bearer: {
    type: "http",
    scheme: "bearer",
    description:
      "An API key (`xg_…`) as `Authorization: Bearer <key>`. Required when the server runs with XIGUA_AUTH=keys; each operation needs a scope (read for GETs, predict for predictions, train for creating and cancelling, admin for deletes, keys and audit; an admin key has every scope).",
  },
} as const;

/** A SwaggerTransform step: the route's schema with its security and access responses added (a copy: the route's own schema is left alone). */
export function withAccessDocs<T extends { schema: FastifySchema; url: string; route: RouteOptions }>(input: T): T {
  const { route } = input;
  const schema = input.schema as FastifySchema & { hide?: boolean; response?: Record<string, unknown> };
  if (!schema || schema.hide) return input;
  const method = Array.isArray(route.method) ? route.method[0] : route.method;
  if (routeScope(method, route.config as { scope?: RouteScope } | undefined) === "public") return { ...input, schema: { ...schema, security: [] } };
  // The Open Inference Protocol's routes answer their own error body, the access errors included.
  const body = isOipUrl(input.url) ? oipError : problemSchema;
  const response = { 401: body, 403: body, 429: body, ...schema.response };
  return { ...input, schema: { ...schema, security: [{ bearer: [] }], response } };
}
