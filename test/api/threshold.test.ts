import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let wm3: string;
let baselineModel: string;
before(async () => {
  t = await testApp();
  wm3 = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
  const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: wm3, algorithm: "baseline", target: "好瓜", validation: { method: "none" } } });
  baselineModel = (await waitFor(t.app, `/v1/models/${res.json().id}`)).id as string;
});
after(() => t.close());

const predict = (payload: object) => t.app.inject({ method: "POST", url: `/v1/models/${baselineModel}/predict`, payload });

test("decision_threshold moves a binary model's labels; 'rescale' uses the training class counts", async () => {
  // The baseline's P(是) is the training share 8/17 ≈ 0.47 for every row.
  const plain = (await predict({ rows: [{}], probabilities: true })).json();
  const p = plain.probabilities[0]["是"];
  assert.ok(Math.abs(p - 8 / 17) < 1e-12);
  assert.equal(plain.predictions[0], "否");
  assert.equal((await predict({ rows: [{}], decision_threshold: 0.4 })).json().predictions[0], "是");
  assert.equal((await predict({ rows: [{}], decision_threshold: 0.5 })).json().predictions[0], "否");
  const artifact = (await t.app.inject({ url: `/v1/models/${baselineModel}/artifact` })).json();
  assert.deepEqual(artifact.schema.class_counts, [9, 8]);
  const rescaled = (await predict({ rows: [{}], decision_threshold: "rescale" })).json();
  assert.equal(rescaled.predictions[0], p > 8 / 17 ? "是" : "否");
});

test("bad thresholds: out of [0, 1] → 400; on a multiclass model → 422", async () => {
  assert.equal((await predict({ rows: [{}], decision_threshold: 1.5 })).statusCode, 400);
  assert.equal((await predict({ rows: [{}], decision_threshold: "sometimes" })).statusCode, 400);
  const multi = (await uploadCsv(t.app, "multi", "x,y\n1,a\n2,b\n3,c\n4,a\n5,b\n6,c\n")).id;
  const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: multi, algorithm: "baseline", target: "y", validation: { method: "none" } } });
  const m = await waitFor(t.app, `/v1/models/${res.json().id}`);
  const bad = await t.app.inject({ method: "POST", url: `/v1/models/${m.id}/predict`, payload: { rows: [{ x: 1 }], decision_threshold: 0.3 } });
  assert.equal(bad.statusCode, 422);
  assert.equal(bad.json().errors[0].path, "decision_threshold");
});

test("evaluations take decision_threshold: threshold 0 predicts every row positive", async () => {
  const res = await t.app.inject({
    method: "POST",
    url: "/v1/evaluations",
    payload: { dataset_id: wm3, algorithm: "baseline", target: "好瓜", validation: { method: "kfold", k: 3 }, seed: 1, decision_threshold: 0 },
  });
  assert.equal(res.statusCode, 202, res.body);
  const e = await waitFor(t.app, res.headers.location as string);
  assert.equal(e.status, "succeeded", JSON.stringify(e));
  const m = e.metrics as Record<string, number>;
  assert.equal(m.recall, 1);
  assert.equal(m.specificity, 0);
  const scored = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { model_id: baselineModel, dataset_id: wm3, decision_threshold: 0.4 } });
  const s = await waitFor(t.app, scored.headers.location as string);
  assert.equal((s.metrics as Record<string, number>).recall, 1);
  const wrong = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: wm3, algorithm: "baseline", target: "密度", decision_threshold: 0.3 } });
  assert.equal(wrong.statusCode, 422);
});
