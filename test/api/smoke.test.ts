import { test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor } from "../helpers/app.js";

test("upload, train baseline, predict", async () => {
  const t = await testApp();
  try {
    const ds = await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"));
    const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds.id, algorithm: "baseline", target: "好瓜", seed: 1 } });
    assert.equal(res.statusCode, 202, res.body);
    const model = await waitFor(t.app, `/v1/models/${res.json().id}`);
    assert.equal(model.status, "succeeded", JSON.stringify(model));
    const p = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows: [{ 色泽: "青绿" }], probabilities: true } });
    assert.equal(p.statusCode, 200, p.body);
    console.log(p.body, JSON.stringify(model));
  } finally {
    await t.close();
  }
});
