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

test("with 2 workers, a search's evaluations are cut into fold chunks without re-reading the dataset for each", async () => {
  const t = await testApp({ workers: 2 });
  try {
    const ds = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
    const datasets = t.app.services.store.datasets;
    const get = datasets.get.bind(datasets);
    let reads = 0;
    datasets.get = (id) => (reads++, get(id));
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/searches",
      payload: { dataset_id: ds, algorithm: "cart", target: "好瓜", features: ["纹理", "密度"], param_grid: { max_depth: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }, validation: { method: "kfold", k: 3 }, refit: false, seed: 3 },
    });
    assert.equal(res.statusCode, 202, res.body);
    const done = await waitFor(t.app, res.headers.location as string, 60_000);
    assert.equal(done.status, "succeeded", JSON.stringify(done));
    const first = (done.results as { evaluation_id: string }[])[0];
    assert.equal(((await t.app.inject({ url: `/v1/evaluations/${first.evaluation_id}` })).json().folds as unknown[]).length, 3, "chunked folds assembled");
    assert.ok(reads <= 2, `${reads} dataset reads on the main thread for 10 candidates (the route's and at most one more)`);
  } finally {
    await t.close();
  }
});
