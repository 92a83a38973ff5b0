import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rankScores } from "../../src/evaluation/search-space.js";
import { fixture, countRows, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

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
  const count = await countRows(t, "SELECT count(*) AS n FROM searches WHERE status = 'queued'");
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

describe("bounded search spaces (issue 10, items 5, 16, 20)", () => {
  const post = (payload: object) => t.app.inject({ method: "POST", url: "/v1/searches", payload: { dataset_id: wm3, algorithm: "cart", target: "好瓜", features, refit: false, ...payload } });
  const thousand = Array.from({ length: 1000 }, (_, i) => i + 1);
  const queuedSearches = () => countRows(t, "SELECT count(*) AS n FROM searches");

  test("three 1,000-value lists: a grid is 422 with the count; a random search draws only n_iter", async () => {
    const before = await queuedSearches();
    const grid = await post({ param_grid: { max_depth: thousand, min_samples_leaf: thousand, min_samples_split: thousand.map((v) => v + 1) } });
    assert.equal(grid.statusCode, 422, grid.body);
    assert.equal(grid.json().errors[0].path, "param_grid");
    assert.match(grid.json().detail, /1000000000 candidates/);
    assert.equal(await queuedSearches(), before, "nothing stored for a refused grid");

    const random = await post({
      method: "random",
      n_iter: 3,
      validation: { method: "holdout" },
      param_distributions: { max_depth: thousand, min_samples_leaf: thousand, min_samples_split: thousand.map((v) => v + 1) },
      seed: 5,
    });
    assert.equal(random.statusCode, 202, random.body);
    const results = random.json().results as { params: Record<string, number> }[];
    assert.equal(results.length, 3);
    assert.equal(new Set(results.map((r) => JSON.stringify(r.params))).size, 3);
    for (const r of results) assert.ok(thousand.includes(r.params.max_depth) && thousand.includes(r.params.min_samples_leaf));
    await waitFor(t.app, `/v1/searches/${random.json().id}`, 60_000);
  });

  test("candidate counts past XIGUA_MAX_SEARCH_CANDIDATES are 422 naming the field", async () => {
    const max = t.app.services.config.maxSearchCandidates;
    const nIter = await post({ method: "random", n_iter: max + 1, param_distributions: { max_depth: [1, 2] } });
    assert.equal(nIter.statusCode, 422, nIter.body);
    assert.equal(nIter.json().errors[0].path, "n_iter");
    const half = Array.from({ length: Math.floor(max / 2) + 1 }, (_, i) => i + 1);
    const grid = await post({ param_grid: { max_depth: half, min_samples_leaf: [1, 2] } });
    assert.equal(grid.statusCode, 422, grid.body);
    assert.match(grid.json().detail, new RegExp(`${half.length * 2} candidates`));
    assert.equal((await post({ param_grid: { max_depth: [...thousand, 1001] } })).statusCode, 400, "a list past 1,000 values fails the schema");
    const many = await post({ param_grid: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, [1]])) });
    assert.equal(many.statusCode, 422, many.body);
    assert.equal(many.json().errors[0].path, "param_grid");
  });

  test("empty or inverted ranges are 422 at the bound; loguniform needs low > 0", async () => {
    for (const [d, path] of [
      [{ distribution: "randint", low: 3, high: 3 }, "param_distributions.max_depth.high"],
      [{ distribution: "randint", low: 5, high: 2 }, "param_distributions.max_depth.high"],
      [{ distribution: "uniform", low: 0.1, high: 0 }, "param_distributions.max_depth.high"],
    ] as const) {
      const res = await post({ method: "random", param_distributions: { max_depth: d } });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().errors[0].path, path);
    }
    const log = await post({ method: "random", param_distributions: { min_impurity_decrease: { distribution: "loguniform", low: 0, high: 1 } } });
    assert.equal(log.statusCode, 400, log.body);
  });

  test("a 5,000-level nested value is a 422, not a stack overflow; a bad candidate's quote is bounded", async () => {
    const deep = "[".repeat(5000) + "1" + "]".repeat(5000);
    const nested = await t.app.inject({
      method: "POST",
      url: "/v1/searches",
      headers: { "content-type": "application/json" },
      payload: `{"dataset_id":"${wm3}","algorithm":"cart","target":"好瓜","param_grid":{"max_depth":[2,${deep}]}}`,
    });
    // Past 64 levels the body-depth guard answers before the route (src/server/plugins/body-depth.ts) …
    assert.equal(nested.statusCode, 422, nested.body);
    assert.equal(nested.json().code, "nesting_too_deep");
    assert.ok(nested.json().errors[0].path.startsWith("param_grid.max_depth[1]"), nested.json().errors[0].path);
    // … and past the search's own 8 levels its space check does.
    const ten = "[".repeat(10) + "1" + "]".repeat(10);
    const shallow = await post({ param_grid: { max_depth: [2, JSON.parse(ten)] } });
    assert.equal(shallow.statusCode, 422, shallow.body);
    assert.equal(shallow.json().errors[0].path, "param_grid.max_depth[1]");
    const inList = await t.app.inject({
      method: "POST",
      url: "/v1/searches",
      headers: { "content-type": "application/json" },
      payload: `{"dataset_id":"${wm3}","algorithm":"cart","target":"好瓜","method":"random","param_distributions":{"max_depth":[${deep}]}}`,
    });
    assert.equal(inList.statusCode, 422, inList.body);
    const long = await post({ param_grid: { max_depth: ["x".repeat(100_000)] } });
    assert.equal(long.statusCode, 422, long.body.slice(0, 500));
    assert.ok(long.body.length < 2_000, `error body of ${long.body.length} bytes`);
  });
});

test("a few dozen candidates: results and ranks are those of their evaluations, each read once", async () => {
  const store = t.app.services.store;
  const get = store.evaluations.get.bind(store.evaluations);
  let reads = 0;
  store.evaluations.get = (id: string) => {
    reads++;
    return get(id);
  };
  let done: Record<string, unknown>;
  const candidates = 36;
  try {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/searches",
      payload: {
        dataset_id: wm3,
        algorithm: "cart",
        target: "好瓜",
        features,
        param_grid: { max_depth: [1, 2, 3, 4, 5, 6], min_samples_leaf: [1, 2, 3, 4, 5, 6] },
        validation: { method: "kfold", k: 3 },
        refit: false,
        seed: 11,
      },
    });
    assert.equal(res.statusCode, 202, res.body);
    done = await waitFor(t.app, res.headers.location as string, 120_000);
  } finally {
    store.evaluations.get = get;
  }
  assert.equal(done.status, "succeeded", JSON.stringify(done.error));
  assert.ok(reads <= 2 * candidates, `${reads} evaluation reads for ${candidates} candidates`);
  const results = done.results as { params: Record<string, unknown>; mean_score: number | null; std_score: number | null; rank: number | null; evaluation_id: string; status: string }[];
  assert.equal(results.length, candidates);
  const evaluations = await Promise.all(results.map(async (r) => (await t.app.inject({ url: `/v1/evaluations/${r.evaluation_id}` })).json()));
  results.forEach((r, i) => {
    assert.equal(r.status, evaluations[i].status);
    assert.equal(r.mean_score, evaluations[i].metrics.accuracy);
    assert.equal(r.std_score, evaluations[i].metrics_std?.accuracy ?? 0);
    assert.deepEqual(r.params, evaluations[i].params);
  });
  assert.deepEqual(results.map((r) => r.rank), rankScores(results.map((r) => r.mean_score), true));
  assert.equal(done.best_score, Math.max(...results.map((r) => r.mean_score ?? -Infinity)));
});

test("a search stopped by shutdown is recovered as interrupted, not failed for want of scores; its candidates are not re-queued", async () => {
  const dir = mkdtempSync(join(tmpdir(), "xigua-search-restart-"));
  const first = await testApp({ workers: 1, shutdownGraceMs: 0 }, dir);
  const ds = (await uploadCsv(first.app, "wm3", fixture("watermelon-3.0.csv"))).id;
  const res = await first.app.inject({
    method: "POST",
    url: "/v1/searches",
    payload: { dataset_id: ds, algorithm: "cart", target: "好瓜", features, param_grid: { max_depth: [1, 2, 3, 4, 5, 6, 7, 8] }, validation: { method: "loo" }, refit: false, seed: 1 },
  });
  assert.equal(res.statusCode, 202, res.body);
  await first.app.close();
  const second = await testApp({ workers: 1 }, dir);
  try {
    const after = (await second.app.inject({ url: `/v1/searches/${res.json().id}` })).json();
    assert.equal(after.status, "failed");
    assert.equal(after.error.code, "interrupted", JSON.stringify(after.error));
    assert.equal(await second.app.services.jobs.activeCount(), 0, "no candidate of the interrupted search runs again");
    const candidates = (await Promise.all((after.results as { evaluation_id: string }[]).map((r) => second.app.services.store.evaluations.get(r.evaluation_id)))).map((e) => e!);
    const unfinished = candidates.filter((e) => e.status !== "succeeded");
    assert.ok(unfinished.length > 0, "the shutdown left candidates unfinished");
    for (const e of unfinished) assert.deepEqual([e.status, e.error?.code], ["failed", "interrupted"], e.id);
  } finally {
    await second.close();
  }
});

test("a list page holds at most 5 × XIGUA_MAX_SEARCH_CANDIDATES candidate results; the cursor reaches the rest", async () => {
  const small = await testApp({ workers: 1, maxSearchCandidates: 4 });
  try {
    const ds = (await uploadCsv(small.app, "wm3", fixture("watermelon-3.0.csv"))).id;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await small.app.inject({
        method: "POST",
        url: "/v1/searches",
        payload: { dataset_id: ds, algorithm: "cart", target: "好瓜", features, param_grid: { max_depth: [1, 2, 3, 4] }, validation: { method: "loo" }, refit: false, seed: i },
      });
      assert.equal(res.statusCode, 202, res.body);
      ids.unshift(res.json().id);
      assert.equal((await small.app.inject({ method: "POST", url: `/v1/searches/${res.json().id}/cancel` })).statusCode, 202);
    }
    const first = (await small.app.inject({ url: "/v1/searches?limit=50" })).json();
    assert.equal(first.items.length, 5, "20 results fit, a sixth search's 4 do not");
    assert.ok(first.next_cursor);
    const second = (await small.app.inject({ url: `/v1/searches?limit=50&cursor=${first.next_cursor}` })).json();
    assert.equal(second.next_cursor, null);
    assert.deepEqual([...first.items, ...second.items].map((s: { id: string }) => s.id), ids);
    const limited = (await small.app.inject({ url: "/v1/searches?limit=2" })).json();
    assert.deepEqual(limited.items.map((s: { id: string }) => s.id), ids.slice(0, 2));
    assert.ok(limited.next_cursor);
  } finally {
    await small.close();
  }
});
