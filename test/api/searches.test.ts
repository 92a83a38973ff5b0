import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let wm3: string;
before(async () => {
  t = await testApp({ workers: 2 });
  wm3 = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
});
after(() => t.close());

const features = ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率"];

test("grid search: every candidate an evaluation, ranked, best params, refit model", async () => {
  const res = await t.app.inject({
    method: "POST",
    url: "/v1/searches",
    payload: { dataset_id: wm3, algorithm: "cart", target: "好瓜", features, param_grid: { max_depth: [1, 2, null], min_samples_leaf: [1, 3] }, validation: { method: "kfold", k: 3 }, seed: 4 },
  });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(res.json().results.length, 6);
  const done = await waitFor(t.app, res.headers.location as string, 60_000);
  assert.equal(done.status, "succeeded", JSON.stringify(done));
  assert.equal(done.progress, 1);
  assert.equal(done.scoring, "accuracy");
  const results = done.results as { params: Record<string, unknown>; mean_score: number; rank: number; evaluation_id: string }[];
  assert.deepEqual(results.map((r) => r.params.max_depth), [1, 1, 2, 2, null, null]);
  const best = results.filter((r) => r.rank === 1);
  assert.ok(best.length >= 1);
  assert.ok(results.every((r) => r.mean_score <= best[0].mean_score));
  assert.deepEqual(done.best_params, best[0].params);
  const evaluation = (await t.app.inject({ url: `/v1/evaluations/${results[0].evaluation_id}` })).json();
  assert.equal(evaluation.search_id, done.id);
  assert.equal(evaluation.metrics.accuracy, results[0].mean_score);
  const model = await waitFor(t.app, `/v1/models/${done.model_id}`);
  assert.equal(model.status, "succeeded");
  assert.deepEqual((model.params as Record<string, unknown>).max_depth, (done.best_params as Record<string, unknown>).max_depth);
  const list = (await t.app.inject({ url: "/v1/searches" })).json();
  assert.equal(list.items[0].id, done.id);
});

test("random search: seeded candidates from distributions, no refit", async () => {
  const payload = {
    dataset_id: wm3,
    algorithm: "cart",
    target: "好瓜",
    features,
    method: "random",
    n_iter: 4,
    param_distributions: { max_depth: { distribution: "randint", low: 1, high: 5 }, min_impurity_decrease: { distribution: "uniform", low: 0, high: 0.1 } },
    refit: false,
    seed: 8,
  };
  const a = (await t.app.inject({ method: "POST", url: "/v1/searches", payload })).json();
  const b = (await t.app.inject({ method: "POST", url: "/v1/searches", payload })).json();
  assert.deepEqual(a.results.map((r: { params: unknown }) => r.params), b.results.map((r: { params: unknown }) => r.params));
  const done = await waitFor(t.app, `/v1/searches/${a.id}`, 60_000);
  assert.equal(done.status, "succeeded");
  assert.equal(done.model_id, undefined);
  await waitFor(t.app, `/v1/searches/${b.id}`, 60_000);
});

test("errors: a bad candidate names its grid field, unknown scoring, missing grid, 404", async () => {
  const post = (payload: object) => t.app.inject({ method: "POST", url: "/v1/searches", payload: { dataset_id: wm3, algorithm: "cart", target: "好瓜", ...payload } });
  const bad = await post({ param_grid: { max_depth: [2, -1] } });
  assert.equal(bad.statusCode, 422);
  assert.equal(bad.json().errors[0].path, "param_grid.max_depth");
  assert.equal((await post({ param_grid: { max_depth: [2] }, scoring: "r2" })).statusCode, 422);
  assert.equal((await post({})).statusCode, 400);
  assert.equal((await post({ param_grid: { nope: [1] } })).statusCode, 422);
  assert.equal((await t.app.inject({ url: "/v1/searches/sr_nope" })).statusCode, 404);
  const count = (t.app.services.store.db.prepare("SELECT count(*) AS n FROM searches WHERE status = 'queued'").get() as { n: number }).n;
  assert.equal(count, 0, "nothing queued by a rejected request");
});

test("cancel: a running search and its pending candidates end cancelled; a second cancel is 409", async () => {
  const res = await t.app.inject({
    method: "POST",
    url: "/v1/searches",
    payload: { dataset_id: wm3, algorithm: "cart", target: "好瓜", features, param_grid: { max_depth: [1, 2, 3, 4, 5, 6, 7, 8] }, validation: { method: "loo" }, refit: true, seed: 1 },
  });
  assert.equal(res.statusCode, 202, res.body);
  const cancel = await t.app.inject({ method: "POST", url: `/v1/searches/${res.json().id}/cancel` });
  assert.equal(cancel.statusCode, 202, cancel.body);
  assert.equal(cancel.json().status, "cancelled");
  assert.equal((await t.app.inject({ method: "POST", url: `/v1/searches/${res.json().id}/cancel` })).statusCode, 409);
  for (const r of res.json().results as { evaluation_id: string }[]) {
    const e = await waitFor(t.app, `/v1/evaluations/${r.evaluation_id}`, 30_000);
    assert.ok(e.status === "cancelled" || e.status === "succeeded", String(e.status));
  }
  await new Promise((r) => setTimeout(r, 200));
  const after = (await t.app.inject({ url: `/v1/searches/${res.json().id}` })).json();
  assert.equal(after.status, "cancelled");
  assert.equal(after.model_id, undefined, "no refit after a cancel");
  assert.equal((await t.app.inject({ method: "POST", url: "/v1/searches/sr_nope/cancel" })).statusCode, 404);
});
