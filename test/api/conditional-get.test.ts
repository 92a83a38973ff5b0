/**
 * Polling one resource with If-None-Match (issue 15: the dashboard polls a model, an
 * evaluation or a search while it runs): the ETag changes exactly when the body does, a
 * matching If-None-Match answers 304 with no body, and a stale one the new body.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let iris: string;
before(async () => {
  t = await testApp({ workers: 1 });
  iris = (await uploadCsv(t.app, "iris", fixture("iris.csv").toString())).id;
});
after(() => t.close());

async function conditional(url: string) {
  const first = await t.app.inject({ url });
  assert.equal(first.statusCode, 200, first.body);
  const etag = String(first.headers.etag);
  assert.match(etag, /^W\/"[\w-]+"$/);
  const again = await t.app.inject({ url, headers: { "if-none-match": etag } });
  assert.equal(again.statusCode, 304, url);
  assert.equal(again.body, "");
  const stale = await t.app.inject({ url, headers: { "if-none-match": 'W/"stale"' } });
  assert.equal(stale.statusCode, 200);
  assert.equal(stale.headers.etag, etag, "the same body, the same ETag");
  return etag;
}

test("a model, an evaluation and a search answer 304 to their current ETag, and 200 with a new one once they change", async () => {
  const created = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: iris, algorithm: "cart", target: "target", name: "polled" } });
  assert.equal(created.statusCode, 202);
  const url = `/v1/models/${created.json().id}`;
  const queuedTag = String((await t.app.inject({ url })).headers.etag);
  await waitFor(t.app, url);
  const doneTag = await conditional(url);
  assert.notEqual(doneTag, queuedTag, "the finished model is another body");
  const changed = await t.app.inject({ url, headers: { "if-none-match": queuedTag } });
  assert.equal(changed.statusCode, 200);
  assert.equal(changed.json().status, "succeeded");
  await conditional("/v1/models/polled");

  const evaluation = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: iris, algorithm: "cart", target: "target", seed: 1 } });
  await waitFor(t.app, `/v1/evaluations/${evaluation.json().id}`);
  await conditional(`/v1/evaluations/${evaluation.json().id}`);

  const search = await t.app.inject({ method: "POST", url: "/v1/searches", payload: { dataset_id: iris, algorithm: "cart", target: "target", param_grid: { max_depth: [1, 2] }, refit: false, seed: 1 } });
  await waitFor(t.app, `/v1/searches/${search.json().id}`);
  await conditional(`/v1/searches/${search.json().id}`);
});
