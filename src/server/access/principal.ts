/**
 * Who is calling: the API key a request authenticated with, and what it may do.
 * With XIGUA_AUTH=none every request is the open principal (no key, every scope).
 * Routes, rate limits, idempotency keys, logs and the audit table read
 * `request.principal`; only the access plugin sets it.
 */
export const SCOPES = ["read", "predict", "train", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

export interface Principal {
  /** The key's public id (`ak_…`), or null with authentication off. */
  readonly keyId: string | null;
  readonly scopes: ReadonlySet<Scope>;
  /** The key's own rate (requests a minute), or null for the configured default. */
  readonly ratePerMinute: number | null;
}

export const OPEN_PRINCIPAL: Principal = Object.freeze({ keyId: null, scopes: new Set<Scope>(SCOPES), ratePerMinute: null });

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal;
  }
}

/**
 * The scope a route needs. Unset, it follows the method: GET/HEAD → read, DELETE → admin,
 * other methods → train. Routes that differ say so in their options, e.g.
 * `config: { scope: "predict" }` on predict, invocations and /v2/…/infer; "admin" on
 * API keys, audit and aliases; "public" on /health/* and the documentation.
 */
export type RouteScope = Scope | "public";

declare module "fastify" {
  interface FastifyContextConfig {
    scope?: RouteScope;
  }
}
