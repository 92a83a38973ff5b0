import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let wm3: string;
let wm2: string;
let model: Record<string, unknown>;
before(async () => {
  t = await testApp();
  wm3 = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
  wm2 = (await uploadCsv(t.app, "wm2", fixture("watermelon-2.0.csv"))).id;
  const res = await t.app.inject({
    method: "POST",
    url: "/v1/models",
    payload: { dataset_id: wm3, algorithm: "cart", target: "好瓜", features: ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"], seed: 5 },
  });
  model = await waitFor(t.app, `/v1/models/${res.json().id}`);
});
after(() => t.close());

test("a model's evaluation is listed, filterable, and polled cheaply with ETag / If-None-Match", async () => {
  const list = await t.app.inject({ url: `/v1/evaluations?model_id=${model.id}` });
  assert.equal(list.statusCode, 200);
  assert.equal(list.json().items.length, 1);
  assert.equal(list.json().items[0].id, model.evaluation_id);
  const etag = list.headers.etag as string;
  assert.ok(etag);
  const again = await t.app.inject({ url: `/v1/evaluations?model_id=${model.id}`, headers: { "if-none-match": etag } });
  assert.equal(again.statusCode, 304);
  assert.equal(again.body, "");
  assert.equal((await t.app.inject({ url: "/v1/evaluations?algorithm=baseline" })).json().items.length, 0);
  assert.equal((await t.app.inject({ url: `/v1/evaluations?dataset_id=${wm3}` })).json().items.length, 1);
  const future = (await t.app.inject({ url: `/v1/evaluations?updated_since=${encodeURIComponent("2999-01-01T00:00:00Z")}` })).json();
  assert.equal(future.items.length, 0);
  const bad = await t.app.inject({ url: "/v1/evaluations?updated_since=yesterday" });
  assert.equal(bad.statusCode, 400);
});

test("POST /v1/evaluations scores the model on another dataset; the list's ETag changes", async () => {
  const before = (await t.app.inject({ url: "/v1/evaluations" })).headers.etag;
  const res = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { model_id: model.id, dataset_id: wm2 } });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(res.headers.location, `/v1/evaluations/${res.json().id}`);
  const done = await waitFor(t.app, res.headers.location as string);
  assert.equal(done.status, "succeeded", JSON.stringify(done));
  assert.equal(done.method, "dataset");
  assert.equal(done.test_rows, 17);
  const m = done.metrics as Record<string, number>;
  assert.ok(m.accuracy >= 0 && m.accuracy <= 1);
  const matrix = (done.confusion_matrix as { matrix: number[][] }).matrix;
  assert.equal(matrix.flat().reduce((a, b) => a + b, 0), 17);
  const after = await t.app.inject({ url: "/v1/evaluations", headers: { "if-none-match": before as string } });
  assert.equal(after.statusCode, 200, "a new evaluation changes the ETag");
});

test("POST /v1/evaluations errors: unknown model 404, unknown dataset 404, missing columns 422, model not succeeded 409", async () => {
  const post = (payload: object) => t.app.inject({ method: "POST", url: "/v1/evaluations", payload });
  assert.equal((await post({ model_id: "md_nope", dataset_id: wm2 })).statusCode, 404);
  assert.equal((await post({ model_id: model.id as string, dataset_id: "ds_nope" })).statusCode, 404);
  const other = (await uploadCsv(t.app, "other", "a,好瓜\n1,是\n2,否\n")).id;
  const missing = await post({ model_id: model.id as string, dataset_id: other });
  assert.equal(missing.statusCode, 422);
  assert.match(missing.json().detail, /色泽/);
  const queued = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: wm3, algorithm: "cart", target: "好瓜" } });
  await t.app.inject({ method: "POST", url: `/v1/models/${queued.json().id}/cancel` });
  const notDone = await post({ model_id: queued.json().id, dataset_id: wm2 });
  assert.equal(notDone.statusCode, 409);
  assert.equal((await post({ model_id: model.id as string })).statusCode, 400);
});

test("GET /v1/evaluations/{id}: 404 for an unknown id", async () => {
  const res = await t.app.inject({ url: "/v1/evaluations/ev_nope" });
  assert.equal(res.statusCode, 404);
  assert.equal(res.json().code, "not_found");
});
