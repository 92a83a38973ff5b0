/** Folds cut across workers give exactly the evaluation one worker gives. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor } from "../helpers/app.js";

async function evaluateWith(workers: number, body: Record<string, unknown>) {
  const t = await testApp({ workers });
  try {
    const ds = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
    const res = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: ds, ...body } });
    assert.equal(res.statusCode, 202, res.body);
    const e = await waitFor(t.app, res.headers.location as string);
    assert.equal(e.status, "succeeded", JSON.stringify(e));
    const { id: _i, dataset_id: _d, created_at: _c, updated_at: _u, finished_at: _f, ...rest } = e;
    return rest;
  } finally {
    await t.close();
  }
}

for (const validation of [{ method: "kfold", k: 5, repeats: 2 }, { method: "bootstrap", rounds: 6 }, { method: "loo" }]) {
  test(`${validation.method}: 1 worker and 2 workers give the same evaluation`, async () => {
    const body = { algorithm: "cart", target: "好瓜", features: ["色泽", "纹理", "密度", "含糖率"], validation, seed: 12 };
    assert.deepEqual(await evaluateWith(2, body), await evaluateWith(1, body));
  });
}
