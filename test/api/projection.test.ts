/**
 * Projection models through the service: train pca (and isomap) without a target,
 * /predict answers projections, /explain lists components and variance ratios, and
 * POST /v1/models/{id}/transform writes a new dataset of the projections plus the
 * source's other columns, with its lineage, on which a classifier then trains. Every
 * documented error of /transform: 404 (model, dataset), 409 (not succeeded), 422 (not
 * a projection, missing feature columns, a kept column clashing with an output).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

const FEATURES = ["sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"];

let t: TestApp;
let iris: string;
let pcaModel: Record<string, unknown>;
before(async () => {
  t = await testApp({ workers: 1 });
  iris = (await uploadCsv(t.app, "iris", fixture("iris.csv"))).id;
  pcaModel = await train({ dataset_id: iris, algorithm: "pca", features: FEATURES, params: { n_components: 2 }, auto_scale: false, seed: 1 });
});
after(() => t.close());

async function train(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: "POST", url: "/v1/models", payload });
  assert.equal(res.statusCode, 202, res.body);
  return waitFor(t.app, `/v1/models/${res.json().id}`, 60_000);
}

const transform = (model: unknown, payload: Record<string, unknown>) => t.app.inject({ method: "POST", url: `/v1/models/${model}/transform`, payload });

test("pca trains without a target; /predict gives projections; /explain gives components and variance ratios", async () => {
  assert.equal(pcaModel.status, "succeeded", JSON.stringify(pcaModel.error));
  assert.equal(pcaModel.task, "projection");
  assert.equal(pcaModel.target, null);
  const rows = [{ "sepal length (cm)": 5.1, "sepal width (cm)": 3.5, "petal length (cm)": 1.4, "petal width (cm)": 0.2 }, { "sepal length (cm)": 6.3 }];
  const res = await t.app.inject({ method: "POST", url: `/v1/models/${pcaModel.id}/predict`, payload: { rows } });
  assert.equal(res.statusCode, 200, res.body);
  const projections = res.json().projections as number[][];
  assert.equal(projections.length, 2);
  for (const p of projections) assert.ok(p.length === 2 && p.every(Number.isFinite));
  // Iris' first principal component separates setosa (small petals): the first row lies on its negative side.
  assert.ok(projections[0][0] < -2, `${projections[0][0]}`);
  const explain = (await t.app.inject({ url: `/v1/models/${pcaModel.id}/explain` })).json();
  assert.deepEqual(Object.keys(explain.components), ["pc1", "pc2"]);
  assert.deepEqual(Object.keys(explain.components.pc1), FEATURES);
  assert.ok(explain.explained_variance_ratio.pc1 > 0.9 && explain.explained_variance_ratio.pc1 < 0.95, JSON.stringify(explain.explained_variance_ratio));
});

test("transform → a new dataset: the projections, then the other columns; lineage shown; its pc values are /predict's; a classifier trains on it", async () => {
  const res = await transform(pcaModel.id, { dataset_id: iris });
  assert.equal(res.statusCode, 201, res.body);
  const made = res.json();
  assert.equal(res.headers.location, `/v1/datasets/${made.id}`);
  assert.equal(made.name, "iris-pca");
  assert.equal(made.row_count, 150);
  assert.deepEqual(made.source, { model_id: pcaModel.id, dataset_id: iris });
  assert.deepEqual(
    made.columns.map((c: { name: string; type: string }) => [c.name, c.type]),
    [["pc1", "numeric"], ["pc2", "numeric"], ["target", "categorical"]],
  );
  const shown = (await t.app.inject({ url: `/v1/datasets/${made.id}` })).json();
  assert.deepEqual(shown.source, { model_id: pcaModel.id, dataset_id: iris });
  assert.equal((await t.app.inject({ url: `/v1/datasets/${iris}` })).json().source, undefined, "an upload has no lineage");

  const source = (await t.app.inject({ url: `/v1/datasets/${iris}/rows?offset=0&limit=5` })).json().items as Record<string, unknown>[];
  const projected = (await t.app.inject({ url: `/v1/datasets/${made.id}/rows?offset=0&limit=5` })).json().items as Record<string, number | string>[];
  const predicted = (await t.app.inject({ method: "POST", url: `/v1/models/${pcaModel.id}/predict`, payload: { rows: source.map(({ target: _target, ...row }) => row) } })).json().projections as number[][];
  projected.forEach((row, i) => {
    assert.equal(row.target, source[i].target);
    assert.ok(Math.abs((row.pc1 as number) - predicted[i][0]) < 1e-12 && Math.abs((row.pc2 as number) - predicted[i][1]) < 1e-12, `row ${i}`);
  });

  const classifier = await train({ dataset_id: made.id, algorithm: "cart", target: "target", seed: 1 });
  assert.equal(classifier.status, "succeeded", JSON.stringify(classifier.error));
  assert.deepEqual(classifier.features, ["pc1", "pc2"]);
  assert.ok((classifier.metrics as Record<string, number>).accuracy > 0.8);
});

test("transform names the dataset as asked; isomap names its outputs iso1, iso2", async () => {
  const model = await train({ dataset_id: iris, algorithm: "isomap", features: FEATURES, params: { n_neighbors: 10 }, seed: 1 });
  assert.equal(model.status, "succeeded", JSON.stringify(model.error));
  const res = await transform(model.id, { dataset_id: iris, name: "iris on a manifold" });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(res.json().name, "iris on a manifold");
  assert.deepEqual(res.json().columns.map((c: { name: string }) => c.name), ["iso1", "iso2", "target"]);
});

test("transform errors: 404 unknown model or dataset, 422 not a projection / missing features / clashing column, 409 not succeeded", async () => {
  const unknownModel = await transform("md_0000000000000000", { dataset_id: iris });
  assert.equal(unknownModel.statusCode, 404, unknownModel.body);
  assert.equal((await transform("no-such-model", { dataset_id: iris })).statusCode, 404);

  const unknownDataset = await transform(pcaModel.id, { dataset_id: "ds_0000000000000000" });
  assert.equal(unknownDataset.statusCode, 404);
  assert.equal(unknownDataset.json().errors[0].path, "dataset_id");

  const classifier = await train({ dataset_id: iris, algorithm: "cart", target: "target", seed: 1 });
  const notProjection = await transform(classifier.id, { dataset_id: iris });
  assert.equal(notProjection.statusCode, 422);
  assert.equal(notProjection.json().type.endsWith("unsupported_task"), true, notProjection.body);

  const partial = (await uploadCsv(t.app, "partial", "sepal length (cm),petal width (cm)\n5.1,0.2\n6.3,1.8\n")).id;
  const missing = await transform(pcaModel.id, { dataset_id: partial });
  assert.equal(missing.statusCode, 422);
  assert.ok(missing.json().type.endsWith("unknown_column"));
  assert.match(missing.json().detail, /sepal width \(cm\)/);

  const clashing = (await uploadCsv(t.app, "clash", `${FEATURES.join(",")},pc1\n5.1,3.5,1.4,0.2,x\n6.3,3.3,6.0,2.5,y\n`)).id;
  const clash = await transform(pcaModel.id, { dataset_id: clashing });
  assert.equal(clash.statusCode, 422);
  assert.match(clash.json().detail, /"pc1"/);

  // Four features give at most four components: the fit fails, and a failed model transforms nothing.
  const failed = await train({ dataset_id: iris, algorithm: "pca", features: FEATURES, params: { n_components: 5 } });
  assert.equal(failed.status, "failed");
  assert.equal((await transform(failed.id, { dataset_id: iris })).statusCode, 409);

  const malformed = await transform(pcaModel.id, { dataset: iris });
  assert.equal(malformed.statusCode, 400);
});
