/**
 * Idempotency-Key on the creating POSTs (API.md "Access"): a retry with the same key
 * and body gets the first response and creates nothing; a different body is a 422;
 * a retry while the first is still being processed is a 409; keys belong to one API
 * key and expire. Runs on PostgreSQL too (XIGUA_TEST_STORE=postgres).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { FastifyInstance, InjectOptions } from "fastify";
import { testApp, waitFor, type TestApp } from "../helpers/app.js";
import type { Principal } from "../../src/server/access/principal.js";

const rows = [
  { x: 1, y: "a" },
  { x: 2, y: "b" },
  { x: 3, y: "a" },
  { x: 4, y: "b" },
];

/** Datasets named `name` (the list is newest first, one page is enough here). */
async function datasetsNamed(app: FastifyInstance, name: string): Promise<string[]> {
  const res = await app.inject({ url: "/v1/datasets?limit=200" });
  return (res.json().items as { id: string; name: string }[]).filter((d) => d.name === name).map((d) => d.id);
}

function post(url: string, payload: object | string, key: string | undefined, headers: Record<string, string> = {}): InjectOptions {
  return { method: "POST", url, payload, headers: { ...(key === undefined ? {} : { "idempotency-key": key }), ...headers } };
}

let t: TestApp;
let clock = Date.parse("2026-01-01T00:00:00Z");
/** A request with x-test-hold calls `held` and waits in an onSend hook (after the idempotency claim) until `hold` resolves. */
let hold: Promise<void> | null = null;
let held: () => void = () => {};

before(async () => {
  t = await testApp({ idempotencyTtlMs: 60_000 }, undefined, { clock: () => clock });
  // Stand-ins for the access plugin and a failing handler, registered after the app's own hooks.
  t.app.addHook("onRequest", async (request) => {
    const key = request.headers["x-test-key-id"];
    if (typeof key === "string") request.principal = { ...request.principal, keyId: key } as Principal;
  });
  // In onSend: the app's own onSend hooks run before the idempotency plugin's (a route's), so this
  // sits after the key was claimed (preHandler) and the handler ran, before the answer is stored.
  t.app.addHook("onSend", async (request, _reply, payload) => {
    if (request.headers["x-test-hold"] && hold) {
      held();
      await hold;
    }
    if (request.headers["x-test-fail"]) throw new Error("injected failure");
    return payload;
  });
});
after(() => t.close());

describe("a retry with the same key and body", () => {
  test("JSON dataset: the first response again (status, body, Location), Idempotent-Replayed, one dataset", async () => {
    const body = { name: "replay-json", rows };
    const first = await t.app.inject(post("/v1/datasets", body, "k-json"));
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.headers["idempotent-replayed"], undefined);
    const again = await t.app.inject(post("/v1/datasets", body, "k-json"));
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers["idempotent-replayed"], "true");
    assert.equal(again.body, first.body);
    assert.equal(again.headers.location, first.headers.location);
    assert.match(again.headers["content-type"] as string, /application\/json/);
    assert.deepEqual(await datasetsNamed(t.app, "replay-json"), [first.json().id]);
  });

  test("CSV upload: the hash covers the body the parser read; a quoted key is the same key as the bare one", async () => {
    const csv = "x,y\n1,a\n2,b\n3,a\n";
    const url = "/v1/datasets?name=replay-csv";
    const headers = { "content-type": "text/csv" };
    const first = await t.app.inject(post(url, csv, "k-csv", headers));
    assert.equal(first.statusCode, 201, first.body);
    const again = await t.app.inject(post(url, csv, '"k-csv"', headers));
    assert.equal(again.headers["idempotent-replayed"], "true");
    assert.equal(again.json().id, first.json().id);
    const changed = await t.app.inject(post(url, csv + "4,b\n", "k-csv", headers));
    assert.equal(changed.statusCode, 422);
    assert.equal(changed.json().code, "idempotency_key_reused");
    const otherQuery = await t.app.inject(post("/v1/datasets?name=other-name", csv, "k-csv", headers));
    assert.equal(otherQuery.statusCode, 422, "the query is part of the request");
    assert.deepEqual(await datasetsNamed(t.app, "replay-csv"), [first.json().id]);
  });

  test("training: 202 replayed with the same model id, one model", async () => {
    const ds = (await t.app.inject(post("/v1/datasets", { name: "train-src", rows }, undefined))).json().id as string;
    const body = { dataset_id: ds, algorithm: "baseline", target: "y" };
    const first = await t.app.inject(post("/v1/models", body, "k-train"));
    assert.equal(first.statusCode, 202, first.body);
    await waitFor(t.app, `/v1/models/${first.json().id}`);
    const again = await t.app.inject(post("/v1/models", body, "k-train"));
    assert.equal(again.statusCode, 202);
    assert.equal(again.json().id, first.json().id);
    assert.equal(again.headers.location, `/v1/models/${first.json().id}`);
    const models = (await t.app.inject({ url: `/v1/models?dataset_id=${ds}` })).json().items as unknown[];
    assert.equal(models.length, 1);
  });
});

test("same key, different body or route → 422 problem+json; no key → no idempotency", async () => {
  const first = await t.app.inject(post("/v1/datasets", { name: "diff-1", rows }, "k-diff"));
  assert.equal(first.statusCode, 201);
  const other = await t.app.inject(post("/v1/datasets", { name: "diff-2", rows }, "k-diff"));
  assert.equal(other.statusCode, 422);
  assert.match(other.headers["content-type"] as string, /application\/problem\+json/);
  assert.equal(other.json().code, "idempotency_key_reused");
  const otherRoute = await t.app.inject(post("/v1/comparisons", { evaluation_ids: ["ev_a", "ev_b"] }, "k-diff"));
  assert.equal(otherRoute.statusCode, 422);
  assert.deepEqual(await datasetsNamed(t.app, "diff-2"), []);
  await t.app.inject(post("/v1/datasets", { name: "no-key", rows }, undefined));
  await t.app.inject(post("/v1/datasets", { name: "no-key", rows }, undefined));
  assert.equal((await datasetsNamed(t.app, "no-key")).length, 2);
});

test("while the first request is being processed: 409 problem+json with Retry-After; afterwards the replay", async () => {
  let release!: () => void;
  hold = new Promise((r) => (release = r));
  const body = { name: "slow", rows };
  const reached = new Promise<void>((r) => (held = r));
  const first = t.app.inject(post("/v1/datasets", body, "k-slow", { "x-test-hold": "1" }));
  await reached;
  const busy = await t.app.inject(post("/v1/datasets", body, "k-slow"));
  assert.equal(busy.statusCode, 409);
  assert.equal(busy.json().code, "idempotency_key_in_use");
  assert.match(busy.headers["content-type"] as string, /application\/problem\+json/);
  assert.equal(busy.headers["retry-after"], "1");
  release();
  hold = null;
  const done = await first;
  assert.equal(done.statusCode, 201);
  const replay = await t.app.inject(post("/v1/datasets", body, "k-slow"));
  assert.equal(replay.json().id, done.json().id);
  assert.deepEqual(await datasetsNamed(t.app, "slow"), [done.json().id]);
});

test("20 parallel POSTs with one key → one dataset; every 201 names it, the others are 409", async () => {
  const body = { name: "parallel", rows };
  const responses = await Promise.all(Array.from({ length: 20 }, () => t.app.inject(post("/v1/datasets", body, "k-parallel"))));
  const ids = await datasetsNamed(t.app, "parallel");
  assert.equal(ids.length, 1);
  for (const res of responses) {
    assert.ok(res.statusCode === 201 || res.statusCode === 409, `${res.statusCode} ${res.body}`);
    if (res.statusCode === 201) assert.equal(res.json().id, ids[0]);
  }
  assert.equal(responses.filter((r) => r.statusCode === 201 && r.headers["idempotent-replayed"] === undefined).length, 1, "one request created it");
});

test("keys belong to one API key: the same key under two principals creates two resources", async () => {
  const body = { name: "per-key", rows };
  const a = await t.app.inject(post("/v1/datasets", body, "k-shared", { "x-test-key-id": "ak_a" }));
  const b = await t.app.inject(post("/v1/datasets", body, "k-shared", { "x-test-key-id": "ak_b" }));
  const aAgain = await t.app.inject(post("/v1/datasets", body, "k-shared", { "x-test-key-id": "ak_a" }));
  assert.notEqual(a.json().id, b.json().id);
  assert.equal(aAgain.json().id, a.json().id);
  assert.equal((await datasetsNamed(t.app, "per-key")).length, 2);
});

test("a key expires after XIGUA_IDEMPOTENCY_TTL_S: the same request then creates anew", async () => {
  const body = { name: "expiring", rows };
  const first = await t.app.inject(post("/v1/datasets", body, "k-expiry"));
  clock += 59_000;
  assert.equal((await t.app.inject(post("/v1/datasets", body, "k-expiry"))).json().id, first.json().id, "kept within the time-to-live");
  clock += 2_000;
  const later = await t.app.inject(post("/v1/datasets", body, "k-expiry"));
  assert.equal(later.statusCode, 201);
  assert.equal(later.headers["idempotent-replayed"], undefined);
  assert.notEqual(later.json().id, first.json().id);
});

test("a first attempt that fails with a 5xx releases its key: the retry runs", async () => {
  const body = { name: "after-failure", rows };
  const failed = await t.app.inject(post("/v1/datasets", body, "k-fail", { "x-test-fail": "1" }));
  assert.equal(failed.statusCode, 500);
  const retry = await t.app.inject(post("/v1/datasets", body, "k-fail"));
  assert.equal(retry.statusCode, 201, retry.body);
  assert.equal(retry.headers["idempotent-replayed"], undefined);
});

test("an invalid key → 400 invalid_idempotency_key, nothing created", async () => {
  for (const key of ["", "x".repeat(256), "two words", "tab\there", '"unterminated', "a, b"]) {
    const res = await t.app.inject(post("/v1/datasets", { name: "invalid-key", rows }, key));
    assert.equal(res.statusCode, 400, JSON.stringify(key));
    assert.equal(res.json().code, "invalid_idempotency_key");
  }
  assert.equal((await t.app.inject(post("/v1/datasets", { name: "invalid-key", rows }, "x".repeat(255)))).statusCode, 201, "255 characters is the limit");
  assert.deepEqual((await datasetsNamed(t.app, "invalid-key")).length, 1);
});

test("the OpenAPI document lists the header, 409 and 422 on every creating POST", async () => {
  const doc = (await t.app.inject({ url: "/openapi.json" })).json();
  for (const path of ["/v1/datasets", "/v1/models", "/v1/models/import", "/v1/evaluations", "/v1/comparisons", "/v1/searches"]) {
    const operation = doc.paths[path].post;
    assert.ok(operation.parameters.some((p: { name: string; in: string }) => p.name === "Idempotency-Key" && p.in === "header"), path);
    assert.ok(operation.responses["409"] && operation.responses["422"], path);
  }
  assert.ok(!doc.paths["/v1/models/{id}/predict"].post.parameters?.some((p: { name: string }) => p.name === "Idempotency-Key"), "predict creates nothing");
});
