/**
 * Clustering through the service (API.md "Unsupervised and semi-supervised models"):
 * train without a target, the model's n_clusters / noise_count, the training rows'
 * labels, predict (and 422 transductive_model), and evaluations of a clustering model
 * with internal indices and, against a reference column, external ones.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

// SEEDS.md: k-means on watermelon 4.0 from rows 6, 12, 27 (1-based) ends in these clusters.
const SEED_CLUSTERS = [
  [5, 6, 7, 8, 9, 10, 13, 14, 15, 17, 18, 19, 20, 23],
  [11, 12, 16],
  [1, 2, 3, 4, 21, 22, 24, 25, 26, 27, 28, 29, 30],
];
const groupOf = (row1: number) => SEED_CLUSTERS.findIndex((c) => c.includes(row1));

let t: TestApp;
let wm4: string;
let wm4WithGroups: string;
let other: string;
let supervisedModel: string;
before(async () => {
  t = await testApp({ workers: 1 });
  const csv = fixture("watermelon-4.0.csv").toString().trim();
  wm4 = (await uploadCsv(t.app, "wm4", csv)).id;
  // The same rows with the seed's k-means clusters as a reference column (as letters, so it is categorical).
  const lines = csv.split("\n");
  const grouped = [`${lines[0]},组`, ...lines.slice(1).map((line, i) => `${line},${"abc"[groupOf(i + 1)]}`)].join("\n");
  wm4WithGroups = (await uploadCsv(t.app, "wm4-groups", grouped)).id;
  other = (await uploadCsv(t.app, "other", "密度,含糖率\n0.3,0.1\n0.7,0.4\n0.5,0.2\n")).id;
  const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: wm4WithGroups, algorithm: "cart", target: "组", features: ["密度", "含糖率"], validation: { method: "none" } } });
  supervisedModel = (await waitFor(t.app, `/v1/models/${res.json().id}`)).id as string;
});
after(() => t.close());

async function train(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: "POST", url: "/v1/models", payload });
  assert.equal(res.statusCode, 202, res.body);
  const model = await waitFor(t.app, `/v1/models/${res.json().id}`);
  assert.equal(model.status, "succeeded", JSON.stringify(model.error));
  return model;
}

async function evaluate(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload });
  assert.equal(res.statusCode, 202, res.body);
  const evaluation = await waitFor(t.app, `/v1/evaluations/${res.json().id}`);
  assert.equal(evaluation.status, "succeeded", JSON.stringify(evaluation.error));
  return evaluation;
}

const kmeansBody = (dataset: string) => ({
  dataset_id: dataset,
  algorithm: "kmeans",
  features: ["密度", "含糖率"],
  params: { n_clusters: 3, init: { kind: "rows", rows: [5, 11, 26] } },
  auto_scale: false,
});

describe("kmeans through the API", () => {
  let model: Record<string, unknown>;
  before(async () => {
    model = await train(kmeansBody(wm4));
  });

  test("the model reports the clusters it found", async () => {
    assert.equal(model.task, "clustering");
    assert.equal(model.target, null);
    assert.equal(model.n_clusters, 3);
    assert.equal(model.noise_count, 0);
  });

  test("GET /labels gives the seed's clusters for every training row, a page at a time", async () => {
    const res = await t.app.inject({ url: `/v1/models/${model.id}/labels?limit=1000` });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.total, 30);
    const labels: number[] = body.items.map((it: { row: number; label: number }, i: number) => (assert.equal(it.row, i), it.label));
    // Cluster c grows from the c-th initial row, so the numbering is the seed's order.
    assert.deepEqual(labels, Array.from({ length: 30 }, (_, i) => groupOf(i + 1)));
    const page = (await t.app.inject({ url: `/v1/models/${model.id}/labels?offset=28&limit=5` })).json();
    assert.deepEqual(page, { items: [{ row: 28, label: labels[28] }, { row: 29, label: labels[29] }], total: 30 });
    const bad = await t.app.inject({ url: `/v1/models/${model.id}/labels?limit=0` });
    assert.equal(bad.statusCode, 400);
  });

  test("predict puts new rows in the nearest cluster; kmeans has no membership probabilities", async () => {
    const res = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows: [{ 密度: 0.697, 含糖率: 0.46 }, { 密度: 0.245, 含糖率: 0.057 }] } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().predictions, [groupOf(1), groupOf(11)]);
    const proba = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows: [{ 密度: 0.5, 含糖率: 0.2 }], probabilities: true } });
    assert.equal(proba.statusCode, 422, proba.body);
  });

  test("an evaluation on the training rows: internal indices, and external ones against a reference column", async () => {
    const own = await evaluate({ model_id: model.id });
    const metrics = own.metrics as Record<string, number>;
    assert.equal(own.dataset_id, wm4);
    assert.equal(own.task, "clustering");
    for (const name of ["sse", "silhouette", "davies_bouldin", "calinski_harabasz", "dunn"]) assert.ok(Number.isFinite(metrics[name]), name);
    assert.equal(metrics.n_clusters, 3);
    assert.equal("adjusted_rand_index" in metrics, false);

    // The same clustering scored against the seed's partition: a perfect match.
    const grouped = await train(kmeansBody(wm4WithGroups));
    const scored = await evaluate({ model_id: grouped.id, reference: "组" });
    const m = scored.metrics as Record<string, number>;
    for (const name of ["jaccard", "fowlkes_mallows", "rand_index", "adjusted_rand_index", "normalized_mutual_info"]) assert.ok(Math.abs(m[name] - 1) < 1e-12, `${name} = ${m[name]}`);
    assert.ok(Math.abs(m.sse - metrics.sse) < 1e-12, "same rows, same clusters, same SSE");

    const elsewhere = await evaluate({ model_id: model.id, dataset_id: other });
    assert.equal((elsewhere.metrics as Record<string, number>).n_clusters <= 3, true);
    assert.equal(elsewhere.test_rows, 3);
  });

  test("documented errors: a target, a validation scheme, a reference column that does not exist, classifier fields", async () => {
    const withTarget = await t.app.inject({ method: "POST", url: "/v1/models", payload: { ...kmeansBody(wm4WithGroups), target: "组" } });
    assert.equal(withTarget.statusCode, 422, withTarget.body);
    assert.equal(withTarget.json().code, "unsupported_task");
    const holdout = await t.app.inject({ method: "POST", url: "/v1/models", payload: { ...kmeansBody(wm4), validation: { method: "holdout" } } });
    assert.equal(holdout.statusCode, 422, holdout.body);
    assert.equal(holdout.json().code, "invalid_validation");
    const noColumn = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { model_id: model.id, reference: "nope" } });
    assert.equal(noColumn.statusCode, 422, noColumn.body);
    assert.equal(noColumn.json().errors[0].path, "reference");
    const classifierField = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { model_id: model.id, positive_class: "a" } });
    assert.equal(classifierField.statusCode, 422, classifierField.body);
  });
});

describe("a transductive method (agnes)", () => {
  let model: Record<string, unknown>;
  before(async () => {
    model = await train({ dataset_id: wm4, algorithm: "agnes", features: ["密度", "含糖率"], params: { linkage: "complete", cut: { kind: "n_clusters", n_clusters: 4 } }, auto_scale: false });
  });

  test("labels its training rows; predict is 422 transductive_model", async () => {
    assert.equal(model.n_clusters, 4);
    const labels = (await t.app.inject({ url: `/v1/models/${model.id}/labels` })).json();
    assert.equal(labels.total, 30);
    assert.equal(new Set(labels.items.map((it: { label: number }) => it.label)).size, 4);
    const res = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows: [{ 密度: 0.5, 含糖率: 0.2 }] } });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().code, "transductive_model");
  });

  test("is scored on its training rows only", async () => {
    const own = await evaluate({ model_id: model.id });
    assert.equal((own.metrics as Record<string, number>).n_clusters, 4);
    const elsewhere = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { model_id: model.id, dataset_id: other } });
    assert.equal(elsewhere.statusCode, 422, elsewhere.body);
    assert.equal(elsewhere.json().code, "transductive_model");
  });
});

describe("diana and optics (transductive), lvq (a classifier with prototypes)", () => {
  test("diana: n_clusters, the training rows' labels, explain's dendrogram, predict 422", async () => {
    const model = await train({ dataset_id: wm4, algorithm: "diana", features: ["密度", "含糖率"], params: { cut: { kind: "n_clusters", n_clusters: 3 } }, auto_scale: false });
    assert.equal(model.n_clusters, 3);
    const labels = (await t.app.inject({ url: `/v1/models/${model.id}/labels` })).json();
    assert.equal(new Set(labels.items.map((it: { label: number }) => it.label)).size, 3);
    const explain = (await t.app.inject({ url: `/v1/models/${model.id}/explain` })).json();
    assert.equal(JSON.stringify(explain).includes("merges"), true);
    const res = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows: [{ 密度: 0.5, 含糖率: 0.2 }] } });
    assert.equal(res.json().code, "transductive_model");
  });

  test("optics: noise_count on the model, the labels endpoint, predict 422", async () => {
    const model = await train({ dataset_id: wm4, algorithm: "optics", features: ["密度", "含糖率"], params: { min_samples: 5, cluster_method: { kind: "dbscan", eps: 0.11 } }, auto_scale: false });
    const labels = (await t.app.inject({ url: `/v1/models/${model.id}/labels` })).json();
    const noise = labels.items.filter((it: { label: number }) => it.label === -1).length;
    assert.equal(model.noise_count, noise);
    assert.ok(noise > 0 && (model.n_clusters as number) >= 1);
    const res = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows: [{ 密度: 0.5, 含糖率: 0.2 }] } });
    assert.equal(res.json().code, "transductive_model");
  });

  test("lvq trains with a categorical target and predicts classes", async () => {
    const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: wm4WithGroups, algorithm: "lvq", target: "组", features: ["密度", "含糖率"], params: { prototypes_per_class: 2 }, validation: { method: "none" } } });
    assert.equal(res.statusCode, 202, res.body);
    const model = await waitFor(t.app, `/v1/models/${res.json().id}`);
    const predicted = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows: [{ 密度: 0.5, 含糖率: 0.2 }] } });
    assert.equal(predicted.statusCode, 200, predicted.body);
    assert.ok(["a", "b", "c"].includes(predicted.json().predictions[0]), predicted.body);
  });
});

describe("the evaluation body's rules around model_id", () => {
  test("a supervised model needs dataset_id and takes no reference; a clustering spec's reference must be a column", async () => {
    const noDataset = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { model_id: supervisedModel } });
    assert.equal(noDataset.statusCode, 400, noDataset.body);
    assert.equal(noDataset.json().errors[0].path, "dataset_id");
    const reference = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { model_id: supervisedModel, dataset_id: wm4WithGroups, reference: "组" } });
    assert.equal(reference.statusCode, 422, reference.body);
    // Without a model, reference goes with a clustering spec (test/api/clustering-search.test.ts); wm4 has no 组.
    const noModel = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: wm4, algorithm: "kmeans", reference: "组" } });
    assert.equal(noModel.statusCode, 422, noModel.body);
    assert.equal(noModel.json().code, "unknown_column");
  });

  test("labels of a model that does not cluster is 422", async () => {
    const res = await t.app.inject({ url: `/v1/models/${supervisedModel}/labels` });
    assert.equal(res.statusCode, 422, res.body);
  });
});
