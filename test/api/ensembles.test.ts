/** Ensembles through the service: nested params refused at their full path; a forest's out-of-bag estimate in explain. */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let iris: string;
before(async () => {
  t = await testApp({ workers: 1 });
  iris = (await uploadCsv(t.app, "iris", fixture("iris.csv"))).id;
});
after(() => t.close());

const post = (payload: object) => t.app.inject({ method: "POST", url: "/v1/models", payload });

test("a bad nested param is a 422 invalid_params at params.base.params.<field> (and params.estimators.<i>…)", async () => {
  const bad = await post({ dataset_id: iris, algorithm: "bagging", target: "target", params: { base: { algorithm: "cart", params: { max_depth: 0 } } } });
  assert.equal(bad.statusCode, 422, bad.body);
  assert.equal(bad.json().code, "invalid_params");
  assert.equal(bad.json().errors[0].path, "params.base.params.max_depth");
  const unknown = await post({ dataset_id: iris, algorithm: "adaboost", target: "target", params: { base: { algorithm: "nope" } } });
  assert.equal(unknown.statusCode, 422, unknown.body);
  assert.equal(unknown.json().errors[0].path, "params.base.algorithm");
  const voter = await post({ dataset_id: iris, algorithm: "voting", target: "target", params: { estimators: [{ algorithm: "cart" }, { algorithm: "svm", params: { C: -1 } }] } });
  assert.equal(voter.statusCode, 422, voter.body);
  assert.equal(voter.json().errors[0].path, "params.estimators.1.params.C");
});

test("random_forest: trained through the pool, explain shows the out-of-bag estimate and importances", async () => {
  const res = await post({ dataset_id: iris, algorithm: "random_forest", target: "target", params: { n_estimators: 30 }, seed: 1 });
  assert.equal(res.statusCode, 202, res.body);
  const model = await waitFor(t.app, `/v1/models/${res.json().id}`, 60_000);
  assert.equal(model.status, "succeeded", JSON.stringify(model.error));
  const e = (await t.app.inject({ url: `/v1/models/${model.id}/explain` })).json();
  assert.equal(e.n_estimators, 30);
  assert.equal(e.oob.metric, "accuracy");
  assert.ok(e.oob.score > 0.85, JSON.stringify(e.oob));
  assert.equal(Object.keys(e.feature_importances).length, 4);
});
