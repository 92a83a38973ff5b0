/**
 * Clustering specs as evaluations and searches (issue 13: "searches can tune k/eps by an
 * internal index"): POST /v1/evaluations with a clustering algorithm fits it on every row and
 * reports the internal indices (and the external ones against `reference`, never a default
 * feature); POST /v1/searches over n_clusters or eps ranks the candidates by such an index,
 * lower-is-better ones (davies_bouldin, sse) included, and refits the best.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let wm4: string;
let grouped: string;
before(async () => {
  t = await testApp({ workers: 1 });
  const csv = fixture("watermelon-4.0.csv").toString().trim();
  wm4 = (await uploadCsv(t.app, "wm4", csv)).id;
  // The two features and a reference labelling: the first 15 rows and the last 15 (as letters, so categorical).
  const lines = csv.split("\n").map((l) => l.split(",").slice(1).join(","));
  grouped = (await uploadCsv(t.app, "wm4-ref", [`${lines[0]},组`, ...lines.slice(1).map((l, i) => `${l},${i < 15 ? "a" : "b"}`)].join("\n"))).id;
});
after(() => t.close());

const features = ["密度", "含糖率"];

async function post(url: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: "POST", url, payload });
}

async function finished(url: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await post(url, payload);
  assert.equal(res.statusCode, 202, res.body);
  const done = await waitFor(t.app, `${url}/${res.json().id}`);
  assert.equal(done.status, "succeeded", JSON.stringify(done.error));
  return done;
}

type Result = { params: Record<string, unknown>; mean_score: number | null; rank: number | null; evaluation_id: string; status: string };

describe("clustering specs as evaluations", () => {
  test("a kmeans spec is fitted on every row: internal indices, and external ones against reference", async () => {
    const e = await finished("/v1/evaluations", { dataset_id: grouped, algorithm: "kmeans", params: { n_clusters: 2 }, reference: "组", seed: 3 });
    const metrics = e.metrics as Record<string, number>;
    for (const name of ["silhouette", "davies_bouldin", "calinski_harabasz", "dunn", "sse", "adjusted_rand_index", "normalized_mutual_info"]) assert.equal(typeof metrics[name], "number", name);
    assert.equal(metrics.n_clusters, 2);
    assert.equal(e.method, "none");
    // The reference column stayed out of the default features (kmeans takes no categorical column,
    // so the fit would have failed), and the clustering is the one of a model on the two features.
    const model = await finished("/v1/models", { dataset_id: grouped, algorithm: "kmeans", params: { n_clusters: 2 }, features, seed: 3 });
    const scored = await finished("/v1/evaluations", { model_id: model.id, reference: "组" });
    assert.equal((scored.metrics as Record<string, number>).adjusted_rand_index, metrics.adjusted_rand_index, "the same clustering as a model trained on the two features");
  });

  test("reference must be a column, not a feature, and only for clustering", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ dataset_id: grouped, algorithm: "kmeans", reference: "no such column" }, "unknown_column"],
      [{ dataset_id: grouped, algorithm: "kmeans", features: [...features, "组"], reference: "组" }, "invalid_request"],
      [{ dataset_id: grouped, algorithm: "cart", target: "组", features, reference: "组" }, "invalid_request"],
      [{ dataset_id: grouped, algorithm: "kmeans", features, validation: { method: "kfold", k: 5 } }, "invalid_validation"],
    ];
    for (const [payload, code] of cases) {
      const res = await post("/v1/evaluations", payload);
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, code, res.body);
    }
  });
});

describe("clustering searches", () => {
  test("n_clusters by silhouette: every candidate scored by its evaluation's index, rank 1 the highest, the best refitted", async () => {
    const s = await finished("/v1/searches", { dataset_id: wm4, algorithm: "kmeans", features, param_grid: { n_clusters: [2, 3, 4, 5] }, seed: 1 });
    assert.equal(s.scoring, "silhouette");
    assert.equal(s.target, null);
    const results = s.results as Result[];
    assert.equal(results.length, 4);
    for (const r of results) {
      const e = await waitFor(t.app, `/v1/evaluations/${r.evaluation_id}`);
      assert.equal(r.mean_score, (e.metrics as Record<string, number>).silhouette);
    }
    const best = results.reduce((a, b) => (b.mean_score! > a.mean_score! ? b : a));
    assert.equal(best.rank, 1);
    assert.deepEqual(s.best_params, best.params);
    const model = await waitFor(t.app, `/v1/models/${s.model_id}`);
    assert.equal(model.status, "succeeded");
    assert.equal(model.n_clusters, best.params.n_clusters);
  });

  test("lower-is-better indices rank the smallest first: dbscan's eps by davies_bouldin", async () => {
    const s = await finished("/v1/searches", { dataset_id: wm4, algorithm: "dbscan", features, auto_scale: false, param_grid: { eps: [0.08, 0.11, 0.14], min_samples: [3] }, scoring: "davies_bouldin", refit: false });
    const scored = (s.results as Result[]).filter((r) => r.mean_score !== null);
    assert.ok(scored.length >= 2, JSON.stringify(s.results));
    const best = scored.reduce((a, b) => (b.mean_score! < a.mean_score! ? b : a));
    assert.equal(best.rank, 1);
    assert.equal(s.best_score, best.mean_score);
  });

  test("external indices need a reference; unknown scorings and targets of clustering are 422", async () => {
    const withRef = await finished("/v1/searches", { dataset_id: grouped, algorithm: "kmeans", features, reference: "组", param_grid: { n_clusters: [2, 3] }, scoring: "adjusted_rand_index", refit: false, seed: 2 });
    assert.equal((withRef.results as Result[]).every((r) => typeof r.mean_score === "number"), true);
    for (const payload of [
      { dataset_id: grouped, algorithm: "kmeans", features, param_grid: { n_clusters: [2, 3] }, scoring: "adjusted_rand_index" },
      { dataset_id: grouped, algorithm: "kmeans", features, param_grid: { n_clusters: [2, 3] }, scoring: "accuracy" },
    ]) {
      const res = await post("/v1/searches", payload);
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().errors[0].path, "scoring");
    }
  });
});
