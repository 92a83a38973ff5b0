import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { testApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
before(async () => (t = await testApp()));
after(() => t.close());

test("GET /health/live and /health/ready answer 200", async () => {
  const live = await t.app.inject({ url: "/health/live" });
  assert.equal(live.statusCode, 200);
  assert.deepEqual(live.json(), { status: "ok" });
  const ready = await t.app.inject({ url: "/health/ready" });
  assert.equal(ready.statusCode, 200);
  assert.deepEqual(ready.json().checks, { database: true, pool: true });
});

test("an unknown route is a problem+json 404", async () => {
  const res = await t.app.inject({ url: "/v1/nothing-here" });
  assert.equal(res.statusCode, 404);
  assert.match(res.headers["content-type"] as string, /application\/problem\+json/);
  const body = res.json();
  assert.equal(body.status, 404);
  assert.equal(body.code, "route_not_found");
  assert.equal(body.instance, "/v1/nothing-here");
});

test("the request id is echoed, and a sane caller id is kept", async () => {
  const res = await t.app.inject({ url: "/health/live", headers: { "x-request-id": "abc-123" } });
  assert.equal(res.headers["x-request-id"], "abc-123");
  const other = await t.app.inject({ url: "/health/live", headers: { "x-request-id": "bad id with spaces" } });
  assert.match(other.headers["x-request-id"] as string, /^[0-9a-f-]{36}$/);
});

test("GET /openapi.json and /docs are served", async () => {
  const doc = await t.app.inject({ url: "/openapi.json" });
  assert.equal(doc.statusCode, 200);
  assert.ok(doc.json().paths["/v1/models"]);
  const docs = await t.app.inject({ url: "/docs" });
  assert.ok(docs.statusCode === 200 || docs.statusCode === 302, String(docs.statusCode));
});

test("GET /v1/algorithms lists params as JSON Schema with defaults", async () => {
  const res = await t.app.inject({ url: "/v1/algorithms" });
  assert.equal(res.statusCode, 200);
  const items = res.json().items as { name: string; params_schema: { type: string }; accepts: object; tasks: string[] }[];
  const baseline = items.find((a) => a.name === "baseline");
  assert.ok(baseline);
  assert.equal(baseline.params_schema.type, "object");
  assert.deepEqual(baseline.tasks, ["classification", "regression"]);
});

test("ready answers 503 with Retry-After once the database is closed", async () => {
  const local = await testApp();
  try {
    await local.app.services.store.close();
    const res = await local.app.inject({ url: "/health/ready" });
    assert.equal(res.statusCode, 503);
    assert.equal(res.headers["retry-after"], "5");
    assert.match(res.json().detail, /database/);
  } finally {
    await local.close().catch(() => {});
  }
});

test("GET /v1/steps lists every preprocessing step with its options as JSON Schema", async () => {
  const res = await t.app.inject({ url: "/v1/steps" });
  assert.equal(res.statusCode, 200);
  const items = res.json().items as { name: string; options_schema: { properties: Record<string, { default?: unknown }> } }[];
  for (const name of ["impute", "scale", "one_hot", "pca", "select", "resample"]) assert.ok(items.some((s) => s.name === name), name);
  const impute = items.find((s) => s.name === "impute")!;
  assert.equal(impute.options_schema.properties.numeric_strategy.default, "mean");
});
