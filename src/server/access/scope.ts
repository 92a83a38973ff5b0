/** Which scope a route needs, and whether a principal has it (see principal.ts). */
import type { Principal, RouteScope, Scope } from "./principal.js";

/** The route's declared scope, else the method rule: GET/HEAD read, DELETE admin, any other method train. */
export function routeScope(method: string, config: { scope?: RouteScope } | undefined): RouteScope {
  if (config?.scope) return config.scope;
  if (method === "GET" || method === "HEAD") return "read";
  if (method === "DELETE") return "admin";
  return "train";
}

/** An admin key has every scope. */
export function allows(principal: Principal, scope: Scope): boolean {
  return principal.scopes.has(scope) || principal.scopes.has("admin");
}
