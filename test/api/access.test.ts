/**
 * Access with XIGUA_AUTH=keys (issue 14): every registered route against every scope
 * (the app's own route list, so a route added later is covered without editing this
 * file), keys shown once and revoked at the next request, the audit trail, security
 * headers and the documentation without a key. Rate limits: access-limits.test.ts.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { FastifyInstance } from "fastify";
import { testApp, type TestApp } from "../helpers/app.js";
import { SCOPES, type Scope } from "../../src/server/access/principal.js";

const ADMIN = "admin-secret-for-the-access-tests-0123456789";

/** A concrete URL for a route pattern (ids that exist nowhere: 404s, never side effects). */
const concrete = (url: string) => url.replace(/:[a-z_]+/gi, "xx_0000000000000000").replace(/\*$/, "x");

async function createKey(app: FastifyInstance, scopes: string[], extra: Record<string, unknown> = {}, bearer = ADMIN): Promise<{ id: string; key: string; [k: string]: unknown }> {
  const res = await app.inject({ method: "POST", url: "/v1/api-keys", headers: { authorization: `Bearer ${bearer}` }, payload: { name: `key ${scopes.join("+")}`, scopes, ...extra } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

const as = (key: string) => ({ authorization: `Bearer ${key}` });

describe("XIGUA_AUTH=keys", () => {
  let t: TestApp;
  /** A key with exactly one scope, and one with every scope but it (admin excluded, as it has every scope). */
  const only = new Map<Scope, string>();
  const allBut = new Map<Scope, string>();
  before(async () => {
    t = await testApp({ auth: "keys", adminKey: ADMIN, ratePerMinute: 100_000, authFailuresPerMinute: 100_000 });
    for (const scope of SCOPES) {
      only.set(scope, (await createKey(t.app, [scope])).key);
      const others = SCOPES.filter((s) => s !== scope && s !== "admin");
      allBut.set(scope, (await createKey(t.app, others)).key);
    }
  });
  after(() => t.close());

  test("every route: public ones need no key; the others 401 without one, 403 without the scope, neither with it", async () => {
    const routes = t.app.routeAccess();
    assert.ok(routes.length >= 40, `${routes.length} routes found`);
    const seen = new Set<string>();
    for (const { method, url, scope } of routes) {
      if (method === "OPTIONS") continue;
      const where = `${method} ${url} (${scope})`;
      seen.add(scope);
      const request = (headers: Record<string, string> = {}) =>
        t.app.inject({ method: method as "GET", url: concrete(url), headers: { ...headers, ...(method === "GET" || method === "HEAD" || method === "DELETE" ? {} : { "content-type": "application/json" }) }, ...(method === "GET" || method === "HEAD" || method === "DELETE" ? {} : { payload: "{}" }) });
      const bare = await request();
      if (scope === "public") {
        assert.ok(bare.statusCode !== 401 && bare.statusCode !== 403, `${where} without a key: ${bare.statusCode}`);
        continue;
      }
      assert.equal(bare.statusCode, 401, `${where} without a key`);
      assert.match(String(bare.headers["www-authenticate"]), /^Bearer/, where);
      // The Open Inference Protocol's routes answer its own error shape, { error }, not problem+json.
      const oip = /^\/v2(\/|$)/.test(url);
      const codeOf = (res: { json(): { code?: string; error?: string } }) => (oip ? (res.json().error ? "oip" : undefined) : res.json().code);
      if (method !== "HEAD") assert.equal(codeOf(bare), oip ? "oip" : "unauthorized", where);
      const wrong = await request(as(allBut.get(scope)!));
      assert.equal(wrong.statusCode, 403, `${where} with a key lacking ${scope}`);
      if (method !== "HEAD") assert.equal(codeOf(wrong), oip ? "oip" : "forbidden", where);
      for (const key of [only.get(scope)!, only.get("admin")!, ADMIN]) {
        const right = await request(as(key));
        assert.ok(right.statusCode !== 401 && right.statusCode !== 403 && right.statusCode < 500, `${where} with the scope: ${right.statusCode} ${right.body}`);
      }
    }
    // The method rule and the declared scopes both occur: the table covered every kind.
    assert.deepEqual([...seen].sort(), ["admin", "predict", "public", "read", "train"]);
  });

  test("the scopes API.md fixes: health and docs public, predict needs predict, deletes and keys admin, creating train", () => {
    const scopeOf = (method: string, url: string) => t.app.routeAccess().find((r) => r.method === method && r.url === url)?.scope;
    assert.equal(scopeOf("GET", "/health/live"), "public");
    assert.equal(scopeOf("GET", "/health/ready"), "public");
    assert.equal(scopeOf("GET", "/openapi.json"), "public");
    assert.equal(scopeOf("GET", "/docs/"), "public");
    assert.equal(scopeOf("POST", "/v1/models/:id/predict"), "predict");
    assert.equal(scopeOf("POST", "/v1/models/:id/cancel"), "train");
    assert.equal(scopeOf("POST", "/v1/datasets"), "train");
    assert.equal(scopeOf("DELETE", "/v1/datasets/:id"), "admin");
    assert.equal(scopeOf("DELETE", "/v1/models/:id"), "admin");
    assert.equal(scopeOf("POST", "/v1/api-keys"), "admin");
    assert.equal(scopeOf("GET", "/v1/api-keys"), "admin");
    assert.equal(scopeOf("GET", "/v1/audit"), "admin");
    assert.equal(scopeOf("GET", "/v1/models"), "read");
  });

  test("a malformed, unknown or wrongly-signed key is 401 invalid_token", async () => {
    const real = only.get("read")!;
    const forged = real.slice(0, -4) + (real.endsWith("AAAA") ? "BBBB" : "AAAA");
    for (const authorization of ["Bearer nonsense", "Basic abc", `Bearer xg_0000000000000000_${"A".repeat(43)}`, `Bearer ${forged}`, `Bearer ${ADMIN}x`]) {
      const res = await t.app.inject({ url: "/v1/datasets", headers: { authorization } });
      assert.equal(res.statusCode, 401, authorization);
      assert.match(String(res.headers["www-authenticate"]), /error="invalid_token"/);
    }
    assert.equal((await t.app.inject({ url: "/v1/datasets", headers: { authorization: `bearer  ${real}` } })).statusCode, 200, "the scheme is case-insensitive");
  });

  test("a key's secret is in its creation answer only; the list never shows it", async () => {
    const created = await createKey(t.app, ["read", "predict"], { rate_per_minute: 42 });
    assert.match(created.id, /^ak_[0-9a-z]{16}$/);
    assert.match(created.key, /^xg_[0-9a-z]{16}_[\w-]{43}$/);
    assert.equal(created.key.slice(3, 19), created.id.slice(3));
    assert.deepEqual(created.scopes, ["read", "predict"]);
    assert.equal(created.rate_per_minute, 42);
    assert.equal(created.created_by, "ak_environment");
    const listed = await t.app.inject({ url: "/v1/api-keys?limit=500", headers: as(ADMIN) });
    assert.equal(listed.statusCode, 200);
    const secret = created.key.slice(20);
    assert.ok(!listed.body.includes(secret), "the secret is not listed");
    const item = listed.json().items.find((k: { id: string }) => k.id === created.id);
    assert.deepEqual(Object.keys(item).sort(), ["created_at", "created_by", "id", "name", "rate_per_minute", "revoked_at", "scopes"]);
    assert.equal(listed.json().next_cursor, null);
    // Pages: one at a time, newest first.
    const first = (await t.app.inject({ url: "/v1/api-keys?limit=1", headers: as(ADMIN) })).json();
    assert.equal(first.items[0].id, created.id);
    const second = (await t.app.inject({ url: `/v1/api-keys?limit=1&cursor=${first.next_cursor}`, headers: as(ADMIN) })).json();
    assert.notEqual(second.items[0].id, created.id);
  });

  test("POST /v1/api-keys validates its body: 400 for no scopes, an unknown scope, a rate of 0 or an extra field", async () => {
    for (const payload of [{ name: "x", scopes: [] }, { name: "x", scopes: ["root"] }, { name: "x", scopes: ["read"], rate_per_minute: 0 }, { name: "x", scopes: ["read"], secret: "mine" }, { scopes: ["read"] }]) {
      const res = await t.app.inject({ method: "POST", url: "/v1/api-keys", headers: as(ADMIN), payload });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().code, "validation_failed");
    }
  });

  test("a revoked key fails from the next request; DELETE of an unknown key is 404", async () => {
    const created = await createKey(t.app, ["read"]);
    assert.equal((await t.app.inject({ url: "/v1/datasets", headers: as(created.key) })).statusCode, 200);
    const revoked = await t.app.inject({ method: "DELETE", url: `/v1/api-keys/${created.id}`, headers: as(ADMIN) });
    assert.equal(revoked.statusCode, 204);
    const after = await t.app.inject({ url: "/v1/datasets", headers: as(created.key) });
    assert.equal(after.statusCode, 401);
    assert.match(after.json().detail, /revoked/);
    const listed = (await t.app.inject({ url: "/v1/api-keys?limit=500", headers: as(ADMIN) })).json();
    assert.ok(listed.items.find((k: { id: string }) => k.id === created.id).revoked_at);
    const unknown = await t.app.inject({ method: "DELETE", url: "/v1/api-keys/ak_0000000000000000", headers: as(ADMIN) });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, "not_found");
  });

  test("a key made by a stored admin key names it as creator; a train key cannot make keys", async () => {
    const made = await createKey(t.app, ["read"], {}, only.get("admin")!);
    const adminId = (await t.app.inject({ url: "/v1/api-keys?limit=500", headers: as(ADMIN) })).json().items.find((k: { name: string; scopes: string[]; created_by: string }) => k.scopes.length === 1 && k.scopes[0] === "admin" && k.created_by === "ak_environment").id;
    assert.equal(made.created_by, adminId);
    const refused = await t.app.inject({ method: "POST", url: "/v1/api-keys", headers: as(only.get("train")!), payload: { name: "x", scopes: ["admin"] } });
    assert.equal(refused.statusCode, 403);
  });

  test("the audit trail names the key that created and deleted each thing", async () => {
    const trainer = await createKey(t.app, ["train"]);
    const upload = await t.app.inject({ method: "POST", url: "/v1/datasets?name=audited", headers: { ...as(trainer.key), "content-type": "text/csv" }, payload: "x,y\n1,a\n2,b\n3,a\n" });
    assert.equal(upload.statusCode, 201);
    const dataset = upload.json().id as string;
    assert.equal((await t.app.inject({ method: "DELETE", url: `/v1/datasets/${dataset}`, headers: as(only.get("admin")!) })).statusCode, 204);
    const failed = await t.app.inject({ method: "DELETE", url: `/v1/datasets/${dataset}`, headers: as(ADMIN) });
    assert.equal(failed.statusCode, 404, "a failed delete is not audited");
    await t.app.inject({ method: "DELETE", url: `/v1/api-keys/${trainer.id}`, headers: as(ADMIN) });

    const audit = await t.app.inject({ url: "/v1/audit?limit=3", headers: as(ADMIN) });
    assert.equal(audit.statusCode, 200);
    const rows = audit.json().items.map(({ key_id, action, resource_type, resource_id }: Record<string, string>) => ({ key_id, action, resource_type, resource_id }));
    const adminId = (await t.app.inject({ url: "/v1/api-keys?limit=500", headers: as(ADMIN) })).json().items.find((k: { scopes: string[]; created_by: string }) => k.scopes.length === 1 && k.scopes[0] === "admin" && k.created_by === "ak_environment").id;
    assert.deepEqual(rows, [
      { key_id: "ak_environment", action: "delete", resource_type: "api-keys", resource_id: trainer.id },
      { key_id: adminId, action: "delete", resource_type: "datasets", resource_id: dataset },
      { key_id: trainer.id, action: "create", resource_type: "datasets", resource_id: dataset },
    ]);
    for (const row of audit.json().items) assert.ok(row.request_id && !Number.isNaN(Date.parse(row.time)));
    const keyRows = (await t.app.inject({ url: "/v1/audit?limit=500", headers: as(ADMIN) })).json().items.filter((r: { action: string; resource_type: string; resource_id: string }) => r.action === "create" && r.resource_type === "api-keys" && r.resource_id === trainer.id);
    assert.equal(keyRows.length, 1, "creating a key is audited");
    assert.equal((await t.app.inject({ url: "/v1/audit", headers: as(only.get("read")!) })).statusCode, 403);
  });

  test("security headers on API answers; /docs and its scripts load without a key, with no inline script", async () => {
    const res = await t.app.inject({ url: "/v1/algorithms", headers: as(only.get("read")!) });
    assert.equal(res.headers["x-content-type-options"], "nosniff");
    assert.equal(res.headers["x-frame-options"], "SAMEORIGIN");
    assert.match(String(res.headers["content-security-policy"]), /default-src 'self'/);
    assert.doesNotMatch(String(res.headers["content-security-policy"]), /upgrade-insecure-requests/);
    assert.equal(res.headers["access-control-allow-origin"], undefined, "no CORS by default");

    let docs = await t.app.inject({ url: "/docs" });
    if (docs.statusCode === 302) docs = await t.app.inject({ url: String(docs.headers.location) });
    assert.equal(docs.statusCode, 200);
    const csp = String(docs.headers["content-security-policy"]);
    assert.match(csp, /script-src 'self'/);
    const scripts = [...docs.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length >= 2);
    for (const [, attributes, body] of scripts) {
      assert.match(attributes, /src="/, "every script is a file (CSP script-src 'self' allows no inline one)");
      assert.equal(body.trim(), "");
      const src = /src="([^"]+)"/.exec(attributes)![1];
      const file = await t.app.inject({ url: src.startsWith("/") ? src : `/docs/${src.replace(/^\.\//, "")}` });
      assert.equal(file.statusCode, 200, src);
    }
    assert.equal((await t.app.inject({ url: "/openapi.json" })).statusCode, 200);
  });

  test("an unknown route needs a key too (nothing about the API is told to a stranger)", async () => {
    assert.equal((await t.app.inject({ url: "/v1/nothing-here" })).statusCode, 401);
    assert.equal((await t.app.inject({ url: "/v1/nothing-here", headers: as(only.get("read")!) })).statusCode, 404);
  });
});

describe("XIGUA_AUTH=none (the default)", () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.close());

  test("every route answers without a key; keys made here have no creator; audit rows have no key", async () => {
    assert.equal((await t.app.inject({ url: "/v1/datasets" })).statusCode, 200);
    assert.equal((await t.app.inject({ url: "/v1/audit" })).statusCode, 200);
    const created = await t.app.inject({ method: "POST", url: "/v1/api-keys", payload: { name: "later", scopes: ["read"] } });
    assert.equal(created.statusCode, 201);
    assert.equal(created.json().created_by, null);
    assert.equal(created.headers.location, `/v1/api-keys/${created.json().id}`);
    const rows = (await t.app.inject({ url: "/v1/audit" })).json().items;
    assert.deepEqual(
      rows.map(({ key_id, action, resource_type, resource_id }: Record<string, string>) => ({ key_id, action, resource_type, resource_id })),
      [{ key_id: null, action: "create", resource_type: "api-keys", resource_id: created.json().id }],
    );
  });

  test("the committed OpenAPI document: bearer security on every operation but the public ones, with 401, 403 and 429", async () => {
    const doc = (await t.app.inject({ url: "/openapi.json" })).json() as { components: { securitySchemes: Record<string, { scheme: string }> }; paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>> };
    assert.equal(doc.components.securitySchemes.bearer.scheme, "bearer");
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (/^\/(v2\/)?health\//.test(path)) {
          assert.deepEqual(op.security, [], `${method} ${path}`);
          continue;
        }
        assert.deepEqual(op.security, [{ bearer: [] }], `${method} ${path}`);
        for (const status of ["401", "403", "429"]) assert.ok(op.responses[status], `${method} ${path} documents ${status}`);
      }
    }
  });
});
