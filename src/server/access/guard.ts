/**
 * The access plugin: who is calling, whether they may, and how often.
 *
 *   request ─▶ helmet headers ─▶ CORS (answers preflights) ─▶ under-pressure (503 when the
 *   event loop lags) ─▶ authenticate + rate limit + scope (one onRequest hook, below) ─▶ route
 *
 * Authentication and the rate limits run in ONE root onRequest hook, in this order:
 * key → (failed: count against the client address's failure limit, 429 past it, else 401)
 * → count against the key's (or address's) request limit (429) → scope (403). A limiter
 * registered as its own hook after authentication never sees a wrong key's request (the
 * issue measured six bad-key requests all 401, none limited); here every request is
 * counted before it can fail (limits.ts). Routes whose scope is "public" (/health/*, the documentation) skip all
 * of it, so probes and the docs answer whatever the load.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import underPressure from "@fastify/under-pressure";
import cors from "@fastify/cors";
import type { Config } from "../config.js";
import type { Store } from "../../store/store.js";
import { ApiError } from "../errors.js";
import { Authenticator } from "./authenticator.js";
import { registerSecurityHeaders } from "./security-headers.js";
import { auditAction } from "./audit.js";
import { count, registerLimiters } from "./limits.js";
import { allows, routeScope } from "./scope.js";
import type { RouteScope } from "./principal.js";

export interface RouteAccess {
  method: string;
  url: string;
  scope: RouteScope;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Stored keys → principals; the key routes tell it about revocations. */
    authenticator: Authenticator;
    /** Every route and the scope it needs (the access tests go through all of them, future routes included). */
    routeAccess(): RouteAccess[];
  }
}

/** With XIGUA_AUTH=keys someone must be able to authenticate: the admin key from the environment, or a stored key. */
export async function checkKeysUsable(config: Pick<Config, "auth" | "adminKey">, store: Store): Promise<void> {
  if (config.auth !== "keys" || config.adminKey) return;
  if ((await store.apiKeys.countActive()) === 0) {
    throw new Error("XIGUA_AUTH=keys but no key could authenticate: set XIGUA_ADMIN_KEY (at least 32 characters) to create the first keys");
  }
}

/** `now`: the authenticator cache's clock (tests freeze it to see what only a node message can change). */
export async function registerAccess(app: FastifyInstance, config: Config, store: Store, now: () => number = Date.now): Promise<void> {
  // The options objects themselves: onRoute hooks of inner plugins (the documentation's) may still set their scope.
  const routes: RouteOptions[] = [];
  app.addHook("onRoute", (route) => void routes.push(route));
  app.decorate("routeAccess", () =>
    routes.flatMap((route) => ([] as string[]).concat(route.method).map((method) => ({ method, url: route.url, scope: routeScope(method, route.config) }))),
  );
  await registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      // Helmet's defaults suit Swagger UI (/docs: scripts from 'self', inline styles) and a
      // dashboard without inline scripts; but xigua often runs over plain HTTP on a LAN,
      // where upgrading every subresource to HTTPS would leave the pages without scripts.
      directives: { upgradeInsecureRequests: null },
    },
  });
  if (config.corsOrigins.length > 0) await app.register(cors, { origin: config.corsOrigins, exposedHeaders: ["location", "retry-after", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "x-request-id", "idempotent-replayed", "etag"] });
  if (config.maxEventLoopDelayMs > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay: config.maxEventLoopDelayMs,
      retryAfter: 5,
      // Public routes still answer: a readiness probe should see the truth, not the load.
      // Async: under-pressure passes a rejection to next(), so the error handler answers problem+json.
      pressureHandler: async (request, _reply, type) => {
        if (routeScope(request.method, request.routeOptions.config) === "public") return;
        throw new ApiError("unavailable", `the server is overloaded (${type}); try again shortly`);
      },
    });
  }

  const { requests, failures } = await registerLimiters(app, config);

  const authenticator = new Authenticator(store.apiKeys, config.adminKey, now);
  app.decorate("authenticator", authenticator);

  app.addHook("onRequest", async (request, reply) => {
    const scope = routeScope(request.method, request.routeOptions.config);
    if (scope === "public") return;
    if (config.auth === "keys") {
      const result = await authenticator.authenticate(request.headers.authorization);
      if (!result.ok) {
        await count(failures, request, reply, "failed authentications");
        reply.header("www-authenticate", request.headers.authorization ? 'Bearer realm="xigua", error="invalid_token"' : 'Bearer realm="xigua"');
        throw new ApiError("unauthorized", result.reason);
      }
      // The request's "request completed" line names the key (plugins/request-log.ts reads the principal).
      request.principal = result.principal;
    }
    await count(requests, request, reply, "requests");
    if (!allows(request.principal, scope)) {
      throw new ApiError("forbidden", `API key ${request.principal.keyId} lacks the "${scope}" scope this route needs`);
    }
  });

  // In onSend, before the answer leaves: once a client has its 201, the audit row exists.
  const audit = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const action = auditAction(request.method, request.url, reply.statusCode, reply.getHeader("location"));
    if (action) {
      await store.audit.insert({ ...action, key_id: request.principal.keyId, request_id: request.id }).catch((err: unknown) => {
        // The resource was made; failing the request would tell the client otherwise.
        request.log.error({ err, audit: action }, "audit row not written");
      });
    }
    return payload;
  };
  // Only on routes that can create, change or delete something: reads and predictions (a
  // single-row predict is the hot path) never carry the hook.
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat();
    if (!methods.some((m) => m === "POST" || m === "PUT" || m === "DELETE" || m === "PATCH")) return;
    if (methods.every((m) => routeScope(m, route.config) === "predict" || routeScope(m, route.config) === "read")) return;
    route.onSend = [...[route.onSend ?? []].flat(), audit] as typeof route.onSend;
  });
}
