import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, countRows, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let wm3: string;
before(async () => {
  t = await testApp({ workers: 2 });
  wm3 = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
});
after(() => t.close());

const features = ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率"];
const post = (payload: object) =>
  t.app.inject({ method: "POST", url: "/v1/searches", payload: { dataset_id: wm3, algorithm: "cart", target: "好瓜", features, method: "bayesian", validation: { method: "kfold", k: 3 }, ...payload } });
type Result = { params: Record<string, unknown>; mean_score: number | null; rank: number | null; evaluation_id: string; status: string };

test("bayesian search: n_initial random candidates queued, proposals appended up to n_iter, ranked, best refitted; same seed, same candidates", async () => {
  const payload = {
    n_iter: 7,
    n_initial: 3,
    param_distributions: { max_depth: { distribution: "randint", low: 1, high: 6 }, min_impurity_decrease: { distribution: "uniform", low: 0, high: 0.2 }, criterion: ["gini_index", "info_gain"] },
    seed: 5,
  };
  const res = await post(payload);
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(res.json().method, "bayesian");
  assert.equal(res.json().results.length, 3, "only the random start is queued up front");
  const done = await waitFor(t.app, res.headers.location as string, 60_000);
  assert.equal(done.status, "succeeded", JSON.stringify(done));
  assert.equal(done.progress, 1);
  const results = done.results as Result[];
  assert.equal(results.length, 7);
  assert.deepEqual(results.slice(0, 3).map((r) => r.evaluation_id), res.json().results.map((r: Result) => r.evaluation_id));
  assert.equal(new Set(results.map((r) => JSON.stringify([r.params.max_depth, r.params.min_impurity_decrease, r.params.criterion]))).size, 7, "no candidate proposed twice");
  for (const r of results) {
    assert.equal(r.status, "succeeded");
    assert.ok(Number.isInteger(r.params.max_depth) && (r.params.max_depth as number) >= 1 && (r.params.max_depth as number) < 6);
    assert.ok((r.params.min_impurity_decrease as number) >= 0 && (r.params.min_impurity_decrease as number) <= 0.2);
    const evaluation = (await t.app.inject({ url: `/v1/evaluations/${r.evaluation_id}` })).json();
    assert.equal(evaluation.search_id, done.id);
    assert.equal(evaluation.metrics.accuracy, r.mean_score);
  }
  const top = Math.max(...results.map((r) => r.mean_score!));
  assert.ok(results.every((r) => (r.rank === 1) === (r.mean_score === top)));
  assert.equal(done.best_score, top);
  assert.deepEqual(done.best_params, results.find((r) => r.rank === 1)!.params);
  const model = await waitFor(t.app, `/v1/models/${done.model_id}`);
  assert.equal(model.status, "succeeded");
  assert.equal((model.params as Record<string, unknown>).max_depth, (done.best_params as Record<string, unknown>).max_depth);

  const again = await waitFor(t.app, (await post(payload)).headers.location as string, 60_000);
  assert.deepEqual((again.results as Result[]).map((r) => [r.params, r.mean_score]), results.map((r) => [r.params, r.mean_score]));
});

test("bayesian search on a log scale (svm C) with lower-is-better scoring; n_initial defaults to min(5, n_iter)", async () => {
  const res = await post({ algorithm: "svm", n_iter: 6, param_distributions: { C: { distribution: "loguniform", low: 0.01, high: 100 } }, scoring: "error_rate", refit: false, seed: 2 });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(res.json().results.length, 5);
  const done = await waitFor(t.app, res.headers.location as string, 60_000);
  assert.equal(done.status, "succeeded", JSON.stringify(done));
  const results = done.results as Result[];
  assert.equal(results.length, 6);
  assert.ok(results.every((r) => (r.params.C as number) >= 0.01 && (r.params.C as number) <= 100));
  assert.equal(done.best_score, Math.min(...results.map((r) => r.mean_score!)));
  assert.equal(done.model_id, undefined);
});

test("a discrete space smaller than n_iter ends when every candidate is evaluated", async () => {
  const done = await waitFor(t.app, (await post({ n_iter: 10, n_initial: 2, param_distributions: { max_depth: { distribution: "randint", low: 1, high: 5 } }, refit: false, seed: 1 })).headers.location as string, 60_000);
  assert.equal(done.status, "succeeded", JSON.stringify(done));
  assert.deepEqual((done.results as Result[]).map((r) => r.params.max_depth).sort(), [1, 2, 3, 4]);
});

test("errors: no param_distributions, n_initial past n_iter or on another method, n_iter past the bayesian limit, a bound the algorithm rejects", async () => {
  assert.equal((await post({ param_grid: { max_depth: [1, 2] } })).statusCode, 400, "a bayesian search needs param_distributions");
  const past = await post({ n_iter: 3, n_initial: 4, param_distributions: { max_depth: { distribution: "randint", low: 1, high: 5 } } });
  assert.equal(past.statusCode, 422, past.body);
  assert.equal(past.json().errors[0].path, "n_initial");
  const onRandom = await post({ method: "random", n_initial: 2, param_distributions: { max_depth: { distribution: "randint", low: 1, high: 5 } } });
  assert.equal(onRandom.statusCode, 422, onRandom.body);
  assert.equal(onRandom.json().errors[0].path, "n_initial");
  const many = await post({ n_iter: 201, param_distributions: { max_depth: { distribution: "randint", low: 1, high: 5 } } });
  assert.equal(many.statusCode, 422, many.body);
  assert.equal(many.json().errors[0].path, "n_iter");
  // The random start (seeded) draws depths from 1 up; depth 0 only a proposal could reach: the bound is checked up front.
  const bound = await post({ n_iter: 5, n_initial: 1, param_distributions: { max_depth: { distribution: "randint", low: 0, high: 1000 } }, seed: 3 });
  assert.equal(bound.statusCode, 422, bound.body);
  assert.equal(bound.json().errors[0].path, "param_distributions.max_depth");
  const inList = await post({ n_iter: 5, n_initial: 1, param_distributions: { max_depth: [3, 4, 5, 6, -1] }, seed: 3 });
  assert.equal(inList.statusCode, 422, inList.body);
  assert.equal(await countRows(t, "SELECT count(*) AS n FROM searches WHERE method = 'bayesian' AND status = 'queued'"), 0, "nothing queued by a rejected request");
});

test("cancel during the proposals: the search ends cancelled, no candidate is appended after it, no refit", async () => {
  const res = await post({ n_iter: 100, n_initial: 2, param_distributions: { min_impurity_decrease: { distribution: "uniform", low: 0, high: 0.3 } }, validation: { method: "loo" }, seed: 7 });
  assert.equal(res.statusCode, 202, res.body);
  const url = res.headers.location as string;
  for (;;) {
    const s = (await t.app.inject({ url })).json();
    // "queued" until the runner marks it running (a real round trip on PostgreSQL): keep polling.
    if (s.results.length > 2 || (s.status !== "running" && s.status !== "queued")) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const cancel = await t.app.inject({ method: "POST", url: `${url}/cancel` });
  assert.equal(cancel.statusCode, 202, cancel.body);
  const atCancel = cancel.json().results as Result[];
  assert.ok(atCancel.length > 2 && atCancel.length < 100, `${atCancel.length} candidates at the cancel`);
  for (const r of atCancel) await waitFor(t.app, `/v1/evaluations/${r.evaluation_id}`, 30_000);
  const ended = (await t.app.inject({ url })).json();
  assert.equal(ended.status, "cancelled");
  assert.equal(ended.model_id, undefined);
  const id = res.json().id as string;
  assert.equal(await countRows(t, `SELECT count(*) AS n FROM evaluations WHERE search_id = '${id}'`), atCancel.length);
  assert.equal(await countRows(t, `SELECT count(*) AS n FROM evaluations WHERE search_id = '${id}' AND status IN ('queued', 'running')`), 0);
});
