/**
 * Access without HTTP: the configuration's refusal to run open where the image asks for
 * keys, the key format and hash (properties), the authenticator's one-second bound on a
 * revocation made by another node, the audit's reading of paths, the scope method rule.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkOpenAccess, readConfig } from "../../src/server/config.js";
import { formatKey, hashSecret, newSalt, newSecret, parseKey, sameSecret, secretMatches } from "../../src/server/access/keys.js";
import { Authenticator, CACHE_TTL_MS } from "../../src/server/access/authenticator.js";
import { auditAction, resourceOf } from "../../src/server/access/audit.js";
import { allows, routeScope } from "../../src/server/access/scope.js";
import { newId } from "../../src/store/ids.js";
import type { ApiKeyRecord, NewApiKey } from "../../src/store/access.js";
import type { ApiKeyStore } from "../../src/store/store.js";

const ADMIN = "x".repeat(32);

test("XIGUA_REQUIRE_AUTH=1 (the Docker image): the API server refuses auth none unless XIGUA_ALLOW_OPEN=1", () => {
  const check = (env: Record<string, string>) => checkOpenAccess(readConfig(env), env);
  assert.throws(() => check({ XIGUA_REQUIRE_AUTH: "1" }), /XIGUA_ALLOW_OPEN=1/);
  assert.throws(() => check({ XIGUA_REQUIRE_AUTH: "1", XIGUA_AUTH: "none", HOST: "0.0.0.0" }), /XIGUA_AUTH=none/);
  assert.throws(() => check({ XIGUA_REQUIRE_AUTH: "1", XIGUA_ALLOW_OPEN: "yes" }), /XIGUA_ALLOW_OPEN=1/);
  check({ XIGUA_REQUIRE_AUTH: "1", XIGUA_ALLOW_OPEN: "1" });
  check({ XIGUA_REQUIRE_AUTH: "1", XIGUA_AUTH: "keys", XIGUA_ADMIN_KEY: ADMIN });
  check({});
  assert.equal(readConfig({ XIGUA_REQUIRE_AUTH: "1" }).auth, "none", "a trainer process (src/worker/main.ts) reads the same config and is not refused");
});

test("HOST: loopback with auth off, every interface with keys, an explicit HOST always wins", () => {
  assert.equal(readConfig({}).host, "127.0.0.1");
  assert.equal(readConfig({ XIGUA_AUTH: "keys" }).host, "0.0.0.0");
  assert.equal(readConfig({ HOST: "0.0.0.0" }).host, "0.0.0.0");
  assert.equal(readConfig({ XIGUA_AUTH: "keys", HOST: "127.0.0.1" }).host, "127.0.0.1");
});

test("access settings are read and checked", () => {
  const c = readConfig({ XIGUA_AUTH: "keys", XIGUA_ADMIN_KEY: ADMIN, XIGUA_CORS_ORIGINS: "https://a.example, http://localhost:3000", XIGUA_RATE_PER_MINUTE: "7", XIGUA_AUTH_FAILURES_PER_MINUTE: "3", XIGUA_MAX_EVENT_LOOP_DELAY_MS: "0" });
  assert.deepEqual([c.adminKey, c.corsOrigins, c.ratePerMinute, c.authFailuresPerMinute, c.maxEventLoopDelayMs], [ADMIN, ["https://a.example", "http://localhost:3000"], 7, 3, 0]);
  const d = readConfig({});
  assert.deepEqual([d.adminKey, d.corsOrigins, d.ratePerMinute, d.authFailuresPerMinute], [null, [], 600, 100]);
  assert.throws(() => readConfig({ XIGUA_AUTH: "password" }), /XIGUA_AUTH/);
  assert.throws(() => readConfig({ XIGUA_ADMIN_KEY: "short" }), /XIGUA_ADMIN_KEY/);
  assert.throws(() => readConfig({ XIGUA_ADMIN_KEY: `${ADMIN} with spaces` }), /XIGUA_ADMIN_KEY/);
  assert.throws(() => readConfig({ XIGUA_CORS_ORIGINS: "https://a.example/path" }), /XIGUA_CORS_ORIGINS/);
  assert.throws(() => readConfig({ XIGUA_CORS_ORIGINS: "*" }), /XIGUA_CORS_ORIGINS/);
  assert.throws(() => readConfig({ XIGUA_RATE_PER_MINUTE: "0" }), /XIGUA_RATE_PER_MINUTE/);
  assert.throws(() => readConfig({ XIGUA_AUTH_FAILURES_PER_MINUTE: "-1" }), /XIGUA_AUTH_FAILURES_PER_MINUTE/);
});

test("keys: parse(format(id, secret)) gives them back; whatever parses formats back to itself", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 50 }), () => {
      const id = newId("ak");
      const secret = newSecret();
      assert.deepEqual(parseKey(formatKey(id, secret)), { id, secret });
    }),
  );
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.stringMatching(/^xg_[0-9a-z]{16}_[\w-]{40,46}$/)), (s) => {
      const parsed = parseKey(s);
      if (parsed) assert.equal(formatKey(parsed.id, parsed.secret), s);
    }),
  );
  assert.equal(parseKey(`xg_ilou000000000000_${"A".repeat(43)}`), null, "letters base32 ids never use");
});

test("secrets: the right one matches its salted hash, any other does not; the same secret hashes apart under two salts", () => {
  const salt = newSalt();
  const secret = newSecret();
  const hash = hashSecret(salt, secret);
  assert.ok(secretMatches(salt, hash, secret));
  assert.notEqual(hashSecret(newSalt(), secret), hash);
  fc.assert(fc.property(fc.string({ maxLength: 60 }), (other) => assert.equal(secretMatches(salt, hash, other), other === secret)));
  fc.assert(fc.property(fc.string(), fc.string(), (a, b) => assert.equal(sameSecret(a, b), a === b)));
});

/** An in-memory key store that counts reads. */
function memoryKeys(): ApiKeyStore & { reads: number; put(k: NewApiKey): ApiKeyRecord } {
  const rows = new Map<string, ApiKeyRecord>();
  const store = {
    reads: 0,
    put(k: NewApiKey) {
      const r: ApiKeyRecord = { ...k, seq: rows.size + 1, id: newId("ak"), created_at: "2026-01-01T00:00:00.000Z", revoked_at: null };
      rows.set(r.id, r);
      return r;
    },
    insert: async (k: NewApiKey) => store.put(k),
    get: async (id: string) => {
      store.reads++;
      const r = rows.get(id);
      return r && { ...r };
    },
    list: async () => [...rows.values()],
    revoke: async (id: string) => {
      const r = rows.get(id);
      if (r) r.revoked_at ??= "2026-01-02T00:00:00.000Z";
      return Boolean(r);
    },
    countActive: async () => [...rows.values()].filter((r) => !r.revoked_at).length,
  };
  return store;
}

test("authenticator: a key revoked elsewhere fails once the cache's second is over; forget() makes it fail at once", async () => {
  const keys = memoryKeys();
  const salt = newSalt();
  const secret = newSecret();
  const record = keys.put({ name: "k", scopes: ["predict"], rate_per_minute: 9, salt, secret_hash: hashSecret(salt, secret), created_by: null });
  let now = 1_000_000;
  const auth = new Authenticator(keys, null, () => now);
  const header = `Bearer ${formatKey(record.id, secret)}`;

  const ok = await auth.authenticate(header);
  assert.ok(ok.ok);
  assert.equal(ok.principal.keyId, record.id);
  assert.deepEqual([...ok.principal.scopes], ["predict"]);
  assert.equal(ok.principal.ratePerMinute, 9);
  assert.equal(keys.reads, 1);

  await keys.revoke(record.id); // another node
  now += CACHE_TTL_MS - 1;
  assert.ok((await auth.authenticate(header)).ok, "within the second the cached row answers");
  assert.equal(keys.reads, 1);
  now += 1;
  const revoked = await auth.authenticate(header);
  assert.ok(!revoked.ok && /revoked/.test(revoked.reason));

  const other = keys.put({ name: "k2", scopes: ["admin"], rate_per_minute: null, salt, secret_hash: hashSecret(salt, secret), created_by: null });
  const otherHeader = `Bearer ${formatKey(other.id, secret)}`;
  const admin = await auth.authenticate(otherHeader);
  assert.ok(admin.ok);
  assert.deepEqual([...admin.principal.scopes].sort(), ["admin", "predict", "read", "train"], "admin has every scope");
  await keys.revoke(other.id);
  auth.forget(other.id); // this node revoked it
  assert.ok(!(await auth.authenticate(otherHeader)).ok);
});

test("authenticator: the environment's admin key, and the answers for missing or malformed headers", async () => {
  const auth = new Authenticator(memoryKeys(), ADMIN);
  const env = await auth.authenticate(`Bearer ${ADMIN}`);
  assert.ok(env.ok);
  assert.equal(env.principal.keyId, "ak_environment");
  for (const header of [undefined, "", "Bearer", "Basic Zm9vOmJhcg==", `Bearer ${ADMIN} extra`, `Bearer ${ADMIN.slice(1)}`]) {
    assert.equal((await auth.authenticate(header)).ok, false, String(header));
  }
  assert.equal((await new Authenticator(memoryKeys(), null).authenticate(`Bearer ${ADMIN}`)).ok, false, "no environment key, no match");
});

test("audit: creates from Location, deletes and updates from the path; reads, predictions and failures are not audited", () => {
  assert.deepEqual(auditAction("POST", "/v1/datasets?name=x", 201, "/v1/datasets/ds_1"), { action: "create", resource_type: "datasets", resource_id: "ds_1" });
  assert.deepEqual(auditAction("POST", "/v1/models", 202, "/v1/models/md_1"), { action: "create", resource_type: "models", resource_id: "md_1" });
  assert.deepEqual(auditAction("DELETE", "/v1/models/md_1", 204, undefined), { action: "delete", resource_type: "models", resource_id: "md_1" });
  assert.deepEqual(auditAction("PUT", "/v1/registry/iris/aliases/production", 200, undefined), { action: "update", resource_type: "registry", resource_id: "iris/aliases/production" });
  assert.equal(auditAction("POST", "/v1/models/md_1/predict", 200, undefined), null);
  assert.equal(auditAction("POST", "/v1/models/md_1/cancel", 202, undefined), null);
  assert.equal(auditAction("DELETE", "/v1/models/md_1", 404, undefined), null);
  assert.equal(auditAction("GET", "/v1/models", 200, undefined), null);
  assert.deepEqual(resourceOf("/v1/api-keys/ak_1?x=1"), { resource_type: "api-keys", resource_id: "ak_1" });
});

test("scopes: the method rule, a declared scope first; admin allows everything", () => {
  assert.deepEqual(["GET", "HEAD", "DELETE", "POST", "PUT", "PATCH"].map((m) => routeScope(m, {})), ["read", "read", "admin", "train", "train", "train"]);
  assert.equal(routeScope("POST", { scope: "predict" }), "predict");
  assert.equal(routeScope("GET", { scope: "public" }), "public");
  assert.equal(routeScope("GET", undefined), "read");
  const principal = (scopes: string[]) => ({ keyId: "ak_x", scopes: new Set(scopes) as never, ratePerMinute: null });
  assert.ok(allows(principal(["admin"]), "train"));
  assert.ok(allows(principal(["read"]), "read"));
  assert.ok(!allows(principal(["read", "predict"]), "train"));
});
