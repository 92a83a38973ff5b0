/**
 * Bearer key → principal. Stored keys are read from the store, kept at most
 * CACHE_TTL_MS in this process: a key revoked here is forgotten at once, one revoked on
 * another node of the deployment is forgotten when that node's message arrives
 * (node-events.ts, Redis pub/sub), and fails here within that second even if the message
 * is lost (as the model cache's status TTL does for deleted models).
 */
import type { ApiKeyRecord } from "../../store/access.js";
import type { ApiKeyStore } from "../../store/store.js";
import { parseKey, sameSecret, secretMatches } from "./keys.js";
import { SCOPES, type Principal, type Scope } from "./principal.js";

export const CACHE_TTL_MS = 1000;
/** Past this many cached keys the cache starts again (each entry lives a second anyway). */
const CACHE_MAX = 10_000;

/** The principal of XIGUA_ADMIN_KEY: not a stored key, so it has this fixed id in logs and audit rows. */
export const ENVIRONMENT_KEY_ID = "ak_environment";

export type Authentication = { ok: true; principal: Principal } | { ok: false; reason: string };

function principalOf(id: string, scopes: readonly string[], ratePerMinute: number | null): Principal {
  const granted = scopes.includes("admin") ? SCOPES : SCOPES.filter((s) => scopes.includes(s));
  return Object.freeze({ keyId: id, scopes: new Set<Scope>(granted), ratePerMinute });
}

export class Authenticator {
  private readonly cache = new Map<string, { record: ApiKeyRecord | undefined; at: number }>();
  private readonly environmentPrincipal: Principal | null;

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly adminKey: string | null,
    private readonly now: () => number = Date.now,
  ) {
    this.environmentPrincipal = adminKey ? principalOf(ENVIRONMENT_KEY_ID, ["admin"], null) : null;
  }

  /** `authorization` is the request's Authorization header. */
  async authenticate(authorization: string | undefined): Promise<Authentication> {
    if (!authorization) return { ok: false, reason: "this server needs an API key: Authorization: Bearer <key>" };
    const m = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!m) return { ok: false, reason: "the Authorization header must be Bearer <key>" };
    const token = m[1];
    const parsed = parseKey(token);
    if (!parsed) {
      if (this.adminKey && sameSecret(token, this.adminKey)) return { ok: true, principal: this.environmentPrincipal! };
      return { ok: false, reason: "unknown API key" };
    }
    const record = await this.lookup(parsed.id);
    if (!record || !secretMatches(record.salt, record.secret_hash, parsed.secret)) return { ok: false, reason: "unknown API key" };
    if (record.revoked_at) return { ok: false, reason: `API key ${record.id} was revoked` };
    return { ok: true, principal: principalOf(record.id, record.scopes, record.rate_per_minute) };
  }

  /** A key revoked by this process fails from its next request. */
  forget(id: string): void {
    this.cache.delete(id);
  }

  private async lookup(id: string): Promise<ApiKeyRecord | undefined> {
    const hit = this.cache.get(id);
    if (hit && this.now() - hit.at < CACHE_TTL_MS) return hit.record;
    const record = await this.keys.get(id);
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(id, { record, at: this.now() });
    return record;
  }
}
