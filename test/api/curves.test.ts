/**
 * Learning and validation curves through POST /v1/evaluations: the points reach the client
 * (schema and serializer carry them), curves are refused for training and for searches.
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

test("a learning curve and a validation curve are evaluations with their points", async () => {
  for (const [validation, field, count] of [
    [{ method: "learning_curve", train_sizes: [0.3, 1], k: 3 }, "learning_curve", 2],
    [{ method: "validation_curve", param: "max_depth", values: [1, 3], k: 3 }, "validation_curve", 2],
  ] as const) {
    const res = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: iris, algorithm: "cart", target: "target", validation, seed: 1 } });
    assert.equal(res.statusCode, 202, res.body);
    const e = await waitFor(t.app, `/v1/evaluations/${res.json().id}`);
    assert.equal(e.status, "succeeded", JSON.stringify(e.error));
    assert.equal(e.method, validation.method);
    const curve = e[field] as { points: { metrics: Record<string, number>; train_metrics: Record<string, number> }[] };
    assert.equal(curve.points.length, count);
    for (const p of curve.points) assert.ok(p.metrics.accuracy > 0.5 && p.train_metrics.accuracy >= p.metrics.accuracy - 0.1);
  }
});

test("curves are refused for training (422) and for searches (422)", async () => {
  const model = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: iris, algorithm: "cart", target: "target", validation: { method: "learning_curve" } } });
  assert.equal(model.statusCode, 422, model.body);
  assert.equal(model.json().errors[0].path, "validation.method");
  const search = await t.app.inject({ method: "POST", url: "/v1/searches", payload: { dataset_id: iris, algorithm: "cart", target: "target", param_grid: { max_depth: [1, 2] }, validation: { method: "learning_curve" } } });
  assert.equal(search.statusCode, 422, search.body);
  const bad = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: iris, algorithm: "cart", target: "target", validation: { method: "validation_curve", param: "nope", values: [1] } } });
  assert.equal(bad.statusCode, 422, bad.body);
  assert.equal(bad.json().errors[0].path, "validation.param");
});
