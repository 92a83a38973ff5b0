/**
 * Rate limits counted exactly (N allowed, N+1 → 429 with Retry-After and RateLimit-*),
 * wrong keys included; the failed-authentication limit per client address; CORS; the
 * refusal to start with keys no one could use; key ids in the logs, secrets never.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { dropSchema, testApp, TEST_STORE, type TestApp } from "../helpers/app.js";
import { Redis } from "ioredis";
import { buildApp } from "../../src/server/app.js";
import { CACHE_TTL_MS } from "../../src/server/access/authenticator.js";
import { REDIS_URL } from "../helpers/cluster.js";

const ADMIN = "admin-secret-for-the-limit-tests-0123456789";
const as = (key: string) => ({ authorization: `Bearer ${key}` });

async function createKey(app: FastifyInstance, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const res = await app.inject({ method: "POST", url: "/v1/api-keys", headers: as(ADMIN), payload: { name: "k", ...body } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

function assertLimited(res: { statusCode: number; headers: Record<string, unknown>; json(): { code: string } }, limit: number, where: string): void {
  assert.equal(res.statusCode, 429, where);
  assert.match(String(res.headers["content-type"]), /application\/problem\+json/);
  assert.equal(res.json().code, "rate_limited");
  const retryAfter = Number(res.headers["retry-after"]);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${res.headers["retry-after"]}`);
  assert.equal(res.headers["ratelimit-limit"], String(limit));
  assert.equal(res.headers["ratelimit-remaining"], "0");
  assert.equal(res.headers["ratelimit-reset"], String(retryAfter));
}

describe("rate limits with keys", () => {
  let t: TestApp;
  let plain: { id: string; key: string };
  let generous: { id: string; key: string };
  let spare: { id: string; key: string };
  before(async () => {
    // The admin key has the default rate too (3): three creations use it up.
    t = await testApp({ auth: "keys", adminKey: ADMIN, ratePerMinute: 3, authFailuresPerMinute: 2 });
    plain = await createKey(t.app, { scopes: ["read"] });
    generous = await createKey(t.app, { scopes: ["read"], rate_per_minute: 5 });
    spare = await createKey(t.app, { scopes: ["read"] });
  });
  after(() => t.close());

  test("the default rate: 3 requests answer with RateLimit-* counting down, the 4th is 429", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ url: "/v1/datasets", headers: as(plain.key) });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers["ratelimit-limit"], "3");
      assert.equal(res.headers["ratelimit-remaining"], String(2 - i));
    }
    assertLimited(await t.app.inject({ url: "/v1/datasets", headers: as(plain.key) }), 3, "4th request");
    assertLimited(await t.app.inject({ url: "/v1/algorithms", headers: as(plain.key) }), 3, "the limit is the key's, on every route");
  });

  test("a key's own rate_per_minute replaces the default, and keys are counted apart", async () => {
    for (let i = 0; i < 5; i++) assert.equal((await t.app.inject({ url: "/v1/datasets", headers: as(generous.key) })).statusCode, 200, `request ${i + 1}`);
    assertLimited(await t.app.inject({ url: "/v1/datasets", headers: as(generous.key) }), 5, "6th request");
    assertLimited(await t.app.inject({ method: "POST", url: "/v1/api-keys", headers: as(ADMIN), payload: { name: "x", scopes: ["read"] } }), 3, "the admin key's 4th request");
  });

  test("failed authentications: 2 answered 401 (a wrong key, no key), the 3rd from that address is 429; a valid key still answers", async () => {
    const wrong = `xg_0000000000000000_${"A".repeat(43)}`;
    assert.equal((await t.app.inject({ url: "/v1/datasets", headers: as(wrong) })).statusCode, 401);
    assert.equal((await t.app.inject({ url: "/v1/datasets" })).statusCode, 401);
    assertLimited(await t.app.inject({ url: "/v1/datasets", headers: as(wrong) }), 2, "3rd failure");
    assertLimited(await t.app.inject({ url: "/v1/models", headers: as(plain.key.slice(0, -1) + "x") }), 2, "4th failure");
    assert.equal((await t.app.inject({ url: "/v1/datasets", headers: as(spare.key) })).statusCode, 200, "a valid key from the same address is not locked out");
  });

  test("public routes are never limited", async () => {
    for (let i = 0; i < 10; i++) assert.equal((await t.app.inject({ url: "/health/live" })).statusCode, 200);
  });
});

describe("rate limits with auth off: per client address", () => {
  let t: TestApp;
  before(async () => (t = await testApp({ ratePerMinute: 2 })));
  after(() => t.close());

  test("2 requests answer, the 3rd is 429; health probes still answer", async () => {
    assert.equal((await t.app.inject({ url: "/v1/datasets" })).statusCode, 200);
    assert.equal((await t.app.inject({ url: "/v1/models" })).statusCode, 200);
    assertLimited(await t.app.inject({ url: "/v1/datasets" }), 2, "3rd request");
    assert.equal((await t.app.inject({ url: "/v1/datasets", remoteAddress: "10.0.0.7" })).statusCode, 200, "another address has its own count");
    assert.equal((await t.app.inject({ url: "/health/ready" })).statusCode, 200);
  });
});

/** Whether the test Redis answers; without it the shared-counter test skips, unless XIGUA_REQUIRE_SERVICES=1. */
async function redisSkipReason(): Promise<string | false> {
  if (process.env.XIGUA_REQUIRE_SERVICES === "1") return false;
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  redis.on("error", () => {});
  try {
    await redis.connect();
    return false;
  } catch (e) {
    return `Redis is not reachable at ${REDIS_URL} (${(e as Error).message})`;
  } finally {
    redis.disconnect();
  }
}

describe("rate limits across API processes (XIGUA_QUEUE_URL)", { skip: await redisSkipReason() }, () => {
  test("two processes of one deployment share the counters: 3 requests over both answer, the 4th is 429 on either", async () => {
    const queueName = `xigua-access-${process.pid}-${Date.now()}`;
    const a = await testApp({ queueUrl: REDIS_URL, queueName, ratePerMinute: 3 });
    const b = await testApp({ queueUrl: REDIS_URL, queueName, ratePerMinute: 3 });
    try {
      assert.equal((await a.app.inject({ url: "/v1/datasets" })).statusCode, 200);
      assert.equal((await b.app.inject({ url: "/v1/datasets" })).statusCode, 200);
      const third = await a.app.inject({ url: "/v1/datasets" });
      assert.equal(third.statusCode, 200);
      assert.equal(third.headers["ratelimit-remaining"], "0");
      assertLimited(await b.app.inject({ url: "/v1/datasets" }), 3, "4th request, on the other process");
      assertLimited(await a.app.inject({ url: "/v1/datasets" }), 3, "5th request");
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe("revocation across API processes (XIGUA_QUEUE_URL)", { skip: await redisSkipReason() }, () => {
  test("a key revoked through one process is forgotten by the other from the message, not only after its cache's second", async () => {
    const queueName = `xigua-revoke-${process.pid}-${Date.now()}`;
    // A frozen clock: node b's cached key never expires, so only node a's message can make it fail.
    const frozen = () => 0;
    const a = await testApp({ queueUrl: REDIS_URL, queueName, auth: "keys", adminKey: ADMIN }, undefined, { clock: frozen });
    const b = await testApp({ queueUrl: REDIS_URL, queueName, auth: "keys", adminKey: ADMIN }, a.dir, { clock: frozen });
    try {
      const key = await createKey(a.app, { scopes: ["read"] });
      assert.equal((await b.app.inject({ url: "/v1/datasets", headers: as(key.key) })).statusCode, 200, "node b caches the key");
      assert.equal((await a.app.inject({ method: "DELETE", url: `/v1/api-keys/${key.id}`, headers: as(ADMIN) })).statusCode, 204);
      let status = 200;
      for (let i = 0; i < 200 && status === 200; i++) {
        await new Promise((r) => setTimeout(r, 25));
        status = (await b.app.inject({ url: "/v1/datasets", headers: as(key.key) })).statusCode;
      }
      assert.equal(status, 401, "node b forgot the revoked key");
    } finally {
      await b.app.close();
      await a.close();
    }
  });
});

describe("CORS allow-list", () => {
  let t: TestApp;
  before(async () => (t = await testApp({ auth: "keys", adminKey: ADMIN, corsOrigins: ["https://allowed.example"] })));
  after(() => t.close());

  test("an allowed origin is echoed; another gets no Access-Control-Allow-Origin", async () => {
    const allowed = await t.app.inject({ url: "/v1/algorithms", headers: { ...as(ADMIN), origin: "https://allowed.example" } });
    assert.equal(allowed.statusCode, 200);
    assert.equal(allowed.headers["access-control-allow-origin"], "https://allowed.example");
    const denied = await t.app.inject({ url: "/v1/algorithms", headers: { ...as(ADMIN), origin: "https://evil.example" } });
    assert.equal(denied.headers["access-control-allow-origin"], undefined);
  });

  test("a preflight is answered before authentication (browsers send no key with it)", async () => {
    const preflight = await t.app.inject({ method: "OPTIONS", url: "/v1/models", headers: { origin: "https://allowed.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" } });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers["access-control-allow-origin"], "https://allowed.example");
    const denied = await t.app.inject({ method: "OPTIONS", url: "/v1/models", headers: { origin: "https://evil.example", "access-control-request-method": "POST" } });
    assert.equal(denied.headers["access-control-allow-origin"], undefined);
  });
});

describe("start-up with XIGUA_AUTH=keys", () => {
  test("refuses with no admin key and no stored key; starts on a store that has keys, which then work", async () => {
    const dir = mkdtempSync(join(tmpdir(), "xigua-access-"));
    try {
      await assert.rejects(testApp({ auth: "keys" }, dir), /XIGUA_ADMIN_KEY/);
      const first = await testApp({ auth: "keys", adminKey: ADMIN }, dir);
      const key = await createKey(first.app, { scopes: ["read"] });
      await first.app.close();
      const second = await testApp({ auth: "keys" }, dir);
      assert.equal((await second.app.inject({ url: "/v1/datasets", headers: as(key.key) })).statusCode, 200);
      assert.equal((await second.app.inject({ url: "/v1/datasets", headers: as(ADMIN) })).statusCode, 401, "the environment key is gone with its variable");
      await second.close();
    } finally {
      // second.close() dropped the schema and the dir; after a failure they are left.
      if (TEST_STORE === "postgres" && existsSync(join(dir, "postgres-schema"))) await dropSchema(readFileSync(join(dir, "postgres-schema"), "utf8")).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("load shedding (@fastify/under-pressure)", () => {
  let t: TestApp;
  before(async () => (t = await testApp({ maxEventLoopDelayMs: 1 })));
  after(() => t.close());

  test("a lagging event loop turns API requests into 503 + Retry-After; health probes still answer", async () => {
    const app = t.app as FastifyInstance & { isUnderPressure(): boolean };
    // The loop delay is sampled once a second: block the loop until a sample has seen it.
    const deadline = Date.now() + 20_000;
    let shed: Awaited<ReturnType<typeof app.inject>> | undefined;
    while (!shed && Date.now() < deadline) {
      const until = Date.now() + 250;
      while (Date.now() < until) {
        /* busy: the event loop lags */
      }
      await new Promise((r) => setTimeout(r, 20));
      const res = await app.inject({ url: "/v1/algorithms" });
      if (res.statusCode === 503) shed = res;
      else assert.equal(res.statusCode, 200);
    }
    assert.ok(shed, "no 503 while the loop was blocked");
    assert.match(String(shed.headers["content-type"]), /application\/problem\+json/);
    assert.equal(shed.json().code, "unavailable");
    assert.equal(shed.headers["retry-after"], "5");
    assert.ok(app.isUnderPressure());
    assert.equal((await app.inject({ url: "/health/live" })).statusCode, 200, "still under pressure, the probe answers");
  });
});

describe("revocation on another node", () => {
  test("a key revoked through one API process fails on another sharing its store once that one's second of caching is over", async () => {
    const a = await testApp({ auth: "keys", adminKey: ADMIN });
    const b = await testApp({ auth: "keys", adminKey: ADMIN }, a.dir);
    try {
      const key = await createKey(a.app, { scopes: ["read"] });
      assert.equal((await b.app.inject({ url: "/v1/datasets", headers: as(key.key) })).statusCode, 200, "the other node knows the key (and caches it)");
      assert.equal((await a.app.inject({ method: "DELETE", url: `/v1/api-keys/${key.id}`, headers: as(ADMIN) })).statusCode, 204);
      assert.equal((await a.app.inject({ url: "/v1/datasets", headers: as(key.key) })).statusCode, 401, "the revoking node: the next request");
      // The bound is the cache's lifetime, not a guess: past it every node reads the store again.
      await new Promise((r) => setTimeout(r, CACHE_TTL_MS + 10));
      assert.equal((await b.app.inject({ url: "/v1/datasets", headers: as(key.key) })).statusCode, 401, "the other node, past CACHE_TTL_MS");
    } finally {
      await b.app.close();
      await a.close();
    }
  });
});

describe("logs", () => {
  test("request logs carry the key id; no line carries a secret or the Authorization header", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split("\n").filter((l) => l !== ""));
        done();
      },
    });
    const dir = mkdtempSync(join(tmpdir(), "xigua-access-log-"));
    const app = await buildApp({ config: { dbPath: join(dir, "x.db"), workers: 1, auth: "keys", adminKey: ADMIN }, logger: { level: "info", stream } });
    try {
      const key = await createKey(app, { scopes: ["read"] });
      assert.equal((await app.inject({ url: "/v1/datasets", headers: { ...as(key.key), "x-request-id": "logged-request" } })).statusCode, 200);
      assert.equal((await app.inject({ url: "/v1/datasets", headers: as(`${key.key}x`) })).statusCode, 401);
      // Fastify's request serializer keeps no headers; headers logged by hand are censored.
      app.log.info({ req: { headers: { authorization: `Bearer ${key.key}` } } }, "a request logged whole");
      app.log.info({ headers: { authorization: `Bearer ${key.key}` } }, "headers logged by hand");
      const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const completed = entries.find((e) => e.reqId === "logged-request" && e.msg === "request completed");
      assert.equal(completed?.key_id, key.id);
      const secret = key.key.slice(20);
      for (const line of lines) {
        assert.ok(!line.includes(secret), `a secret in the log: ${line}`);
        assert.ok(!line.includes(ADMIN), `the admin key in the log: ${line}`);
      }
      assert.ok(lines.some((l) => l.includes("[Redacted]")), "the Authorization header is censored");
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
