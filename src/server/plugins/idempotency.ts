/**
 * Idempotency-Key (draft-ietf-httpapi-idempotency-key-header) on the POSTs that
 * create something; a route opts in with `config: { idempotent: true }`.
 *
 *   onRequest   the header's syntax (400 invalid_idempotency_key)
 *   preParsing  the body's bytes are hashed as the parser reads them (JSON or CSV,
 *               streamed or not: whatever the route's parser consumed)
 *   preHandler  claim (principal, key) by inserting its row: the first request goes
 *               on; a retry gets the stored response (Idempotent-Replayed: true), 409
 *               idempotency_key_in_use while the first is still being processed, 422
 *               idempotency_key_reused when method, route, query or body differ
 *   onSend      the response (status, body, Location / Content-Type / ETag) is stored
 *               before it leaves, so a retry that follows it finds it; a 5xx or 429
 *               releases the key instead, as does a connection dropped before onSend
 *
 * Keys belong to the caller's API key (principal.keyId; "" with auth off) and live
 * `ttlMs` (XIGUA_IDEMPOTENCY_TTL_S, 24 h): an expired row is replaced by the next
 * claim, and all expired rows are purged at most every PURGE_EVERY_MS.
 */
import { createHash, type Hash } from "node:crypto";
import { Transform, type Readable, type TransformCallback } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest, RequestPayload } from "fastify";
import type { StoredResponse } from "../../store/idempotency.js";
import type { IdempotencyStore } from "../../store/store.js";
import { ApiError } from "../errors.js";
import { parseIdempotencyKey } from "./idempotency-key.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** POSTs that create something: the Idempotency-Key header is honoured. */
    idempotent?: boolean;
  }
}

export const REPLAYED_HEADER = "idempotent-replayed";

/** The response headers a replay carries (the body says the rest). */
const REPLAYED_HEADERS = ["location", "content-type", "etag"] as const;

const PURGE_EVERY_MS = 10 * 60 * 1000;

export interface IdempotencyOptions {
  store: IdempotencyStore;
  ttlMs: number;
  /** Milliseconds since the epoch; tests inject a clock to expire keys. */
  now?: () => number;
}

interface KeyState {
  key: string;
  principal: string;
  hash: Hash;
  claimed: boolean;
  /** The response was stored or the claim released: nothing more to do. */
  settled: boolean;
}

/** Hashes the bytes a body parser reads; Content-Length is still checked against the bytes that arrived (see content-encoding.ts). */
class HashingStream extends Transform {
  constructor(
    private readonly source: Readable,
    private readonly hash: Hash,
  ) {
    super();
  }

  get receivedEncodedLength(): number | undefined {
    return (this.source as { receivedEncodedLength?: number }).receivedEncodedLength;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    callback(null, chunk);
  }
}

function hashing(payload: Readable, hash: Hash): Readable {
  const out = new HashingStream(payload, hash);
  payload.on("error", (err) => out.destroy(err));
  payload.pipe(out);
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The routes that opted in, as the OpenAPI document names them (lower-case method, path), filled as routes are added. */
export type IdempotentRoutes = { method: string; url: string }[];

/** Registers the hooks; the routes registered afterwards that opt in are listed in the returned array. */
type RouteHookName = "onRequest" | "preParsing" | "preHandler" | "onSend" | "onRequestAbort" | "onResponse";

export function registerIdempotency(app: FastifyInstance, options: IdempotencyOptions): IdempotentRoutes {
  const routes: IdempotentRoutes = [];
  // The hooks go on the routes that opted in only: every other request (a single-row predict)
  // pays nothing for them.
  const hooks: Partial<Record<RouteHookName, unknown[]>> = {};
  const addHook = (name: RouteHookName, hook: unknown) => (hooks[name] ??= []).push(hook);
  app.addHook("onRoute", (route) => {
    if (!route.config?.idempotent) return;
    for (const method of [route.method].flat()) routes.push({ method: method.toLowerCase(), url: route.url });
    const options = route as unknown as Record<RouteHookName, unknown>;
    for (const [name, list] of Object.entries(hooks) as [RouteHookName, unknown[]][]) options[name] = [...[options[name] ?? []].flat(), ...list];
  });
  const { store, ttlMs } = options;
  const now = options.now ?? Date.now;
  const states = new WeakMap<FastifyRequest, KeyState>();
  let lastPurge = now();

  const release = async (request: FastifyRequest, state: KeyState) => {
    if (!state.claimed || state.settled) return;
    state.settled = true;
    await store.release(state.principal, state.key).catch((err: unknown) => request.log.warn({ err }, "releasing an idempotency key failed"));
  };

  addHook("onRequest", async (request: FastifyRequest) => {
    const header = request.headers["idempotency-key"];
    if (header === undefined) return;
    const key = parseIdempotencyKey(header);
    if (key === null) {
      throw new ApiError("invalid_idempotency_key", "Idempotency-Key must be one string of 1 to 255 printable ASCII characters, bare or quoted", [
        { path: "headers.idempotency-key", message: "invalid" },
      ]);
    }
    // The principal is read at preHandler, once the access plugin has authenticated the request.
    states.set(request, { key, principal: "", hash: createHash("sha256"), claimed: false, settled: false });
  });

  addHook("preParsing", async (request: FastifyRequest, _reply: FastifyReply, payload: RequestPayload) => {
    const state = states.get(request);
    return state ? hashing(payload, state.hash) : payload;
  });

  addHook("preHandler", async (request: FastifyRequest, reply: FastifyReply) => {
    const state = states.get(request);
    if (!state) return;
    state.principal = request.principal.keyId ?? "";
    const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
    const fingerprint = `${request.method} ${request.routeOptions.url} ${createHash("sha256").update(query).digest("hex")} ${state.hash.digest("hex")}`;
    const at = now();
    if (at - lastPurge > PURGE_EVERY_MS) {
      lastPurge = at;
      void store.purgeExpired(iso(at - ttlMs)).catch((err: unknown) => request.log.warn({ err }, "purging expired idempotency keys failed"));
    }
    const claim = await store.claim({ principal: state.principal, key: state.key, fingerprint, now: iso(at), expiredBefore: iso(at - ttlMs) });
    if (claim.claimed) {
      state.claimed = true;
      return;
    }
    const { entry } = claim;
    if (entry.fingerprint !== fingerprint) {
      throw new ApiError("idempotency_key_reused", "this Idempotency-Key was used for a different request (method, route, query or body); use a new key", [
        { path: "headers.idempotency-key", message: "used for another request" },
      ]);
    }
    if (!entry.response) {
      reply.header("retry-after", "1");
      throw new ApiError("idempotency_key_in_use", "the first request with this Idempotency-Key is still being processed; retry once it has been answered", [
        { path: "headers.idempotency-key", message: "in progress" },
      ]);
    }
    return replay(reply, entry.response);
  });

  addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const state = states.get(request);
    if (!state?.claimed || state.settled) return payload;
    const status = reply.statusCode;
    // A stream cannot be replayed; an overload or a server failure is worth retrying for real.
    const storable = payload === null || typeof payload === "string" || Buffer.isBuffer(payload);
    if (status >= 500 || status === 429 || !storable) {
      await release(request, state);
      return payload;
    }
    state.settled = true;
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const response: StoredResponse = { status, body: payload === null ? "" : payload.toString(), headers };
    await store.complete(state.principal, state.key, response).catch((err: unknown) => request.log.error({ err }, "storing an idempotent response failed"));
    return payload;
  });

  // The client went away before its response was stored: the key is free for its retry.
  addHook("onRequestAbort", async (request: FastifyRequest) => {
    const state = states.get(request);
    if (state) await release(request, state);
  });
  addHook("onResponse", async (request: FastifyRequest) => {
    const state = states.get(request);
    if (state) await release(request, state);
  });
  return routes;
}

type OpenApiOperation = { parameters?: object[]; responses?: Record<string, object> };

/** The header and its two answers on every operation that honours it (zod route schemas do not describe a header the plugin reads). */
export function withIdempotencyKey<T>(doc: T, routes: IdempotentRoutes): T {
  const paths = (doc as { paths?: Record<string, Record<string, OpenApiOperation>> }).paths ?? {};
  const problem = (description: string) => ({ description, content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } });
  for (const { method, url } of routes) {
    const operation = paths[url.replace(/:(\w+)/g, "{$1}")]?.[method];
    if (!operation) continue;
    (operation.parameters ??= []).push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "draft-ietf-httpapi-idempotency-key-header: a retry with the same key and the same request gets the first response again (with `Idempotent-Replayed: true`) and creates nothing. Keys belong to the API key and are kept XIGUA_IDEMPOTENCY_TTL_S (24 h). A bare token or a quoted string, 1 to 255 printable ASCII characters (else 400 `invalid_idempotency_key`).",
      schema: { type: "string", minLength: 1, maxLength: 255 },
    });
    const responses = (operation.responses ??= {});
    responses["409"] ??= problem("`idempotency_key_in_use`: the first request with this Idempotency-Key is still being processed (Retry-After)");
    responses["422"] ??= problem("`idempotency_key_reused`: this Idempotency-Key was used for a different request");
  }
  return doc;
}

function replay(reply: FastifyReply, response: StoredResponse): FastifyReply {
  reply.code(response.status);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  reply.header(REPLAYED_HEADER, "true");
  return reply.send(response.body === "" ? null : response.body);
}
