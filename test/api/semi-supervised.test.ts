/**
 * Semi-supervised learners through the service (API.md "Unsupervised and semi-supervised
 * models"): rows whose target is blank are kept as unlabelled data by algorithms that
 * declare accepts.unlabelled, the model reports labelled_rows / unlabelled_rows, and
 * validation scores labelled rows only (every fold also trains on the unlabelled rows).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let iris: string;
const LABELLED = 30;
before(async () => {
  t = await testApp({ workers: 1 });
  // Iris with the species of all but every fifth row blanked: 30 labelled rows, 120 unlabelled.
  const lines = fixture("iris.csv").toString().trim().split("\n");
  const blanked = lines.map((line, i) => (i === 0 || (i - 1) % 5 === 0 ? line : line.replace(/,[^,]*$/, ",")));
  iris = (await uploadCsv(t.app, "iris-partly-labelled", blanked.join("\n"))).id;
});
after(() => t.close());

async function train(payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: iris, target: "target", ...payload } });
  assert.equal(res.statusCode, 202, res.body);
  const model = await waitFor(t.app, `/v1/models/${res.json().id}`, 60_000);
  assert.equal(model.status, "succeeded", JSON.stringify(model.error));
  return model;
}

test("label_spreading keeps the unlabelled rows, says how many, and is validated on labelled rows only", async () => {
  const model = await train({ algorithm: "label_spreading", params: { kernel: { kind: "knn", n_neighbors: 7 } }, validation: { method: "kfold", k: 5 } });
  assert.equal(model.labelled_rows, LABELLED);
  assert.equal(model.unlabelled_rows, 120);
  assert.equal(((model.warnings as string[] | undefined) ?? []).some((w) => w.includes("left out")), false, "no row is dropped");
  const evaluation = (await t.app.inject({ url: `/v1/evaluations/${model.evaluation_id}` })).json();
  assert.equal(evaluation.folds.length, 5);
  // Each labelled row is tested once; the unlabelled ones never are.
  const confusion = evaluation.confusion_matrix.matrix as number[][];
  assert.equal(confusion.flat().reduce((a, b) => a + b, 0), LABELLED);
  assert.ok(evaluation.metrics.accuracy >= 0.8, `accuracy ${evaluation.metrics.accuracy}`);

  const res = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows: [{ "sepal length (cm)": 5.1, "sepal width (cm)": 3.5, "petal length (cm)": 1.4, "petal width (cm)": 0.2 }], probabilities: true } });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().predictions[0], "setosa");
});

test("self_training around a nested learner: its params checked at their path; the model labels the unlabelled rows", async () => {
  const bad = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: iris, target: "target", algorithm: "self_training", params: { base: { algorithm: "cart", params: { max_depth: -1 } } } } });
  assert.equal(bad.statusCode, 422, bad.body);
  assert.equal(bad.json().errors[0].path, "params.base.params.max_depth");
  const model = await train({ algorithm: "self_training", params: { base: { algorithm: "cart", params: { max_depth: 3 } }, criterion: { kind: "k_best", k_best: 20 } }, validation: { method: "holdout", test_size: 0.3 } });
  assert.equal(model.labelled_rows, LABELLED);
  const explained = (await t.app.inject({ url: `/v1/models/${model.id}/explain` })).json();
  assert.equal(explained.base, "cart");
  assert.ok(explained.iterations >= 1);
});

test("a supervised learner on the same table drops the unlabelled rows, as before", async () => {
  const model = await train({ algorithm: "cart", validation: { method: "none" } });
  assert.ok((model.warnings as string[]).some((w) => w.startsWith("120 rows with a missing target were left out")));
  assert.equal("labelled_rows" in model, false);
});

test("a resampling step cannot run on a fit that keeps unlabelled rows: 422 at the step", async () => {
  const res = await t.app.inject({
    method: "POST",
    url: "/v1/models",
    payload: { dataset_id: iris, target: "target", algorithm: "label_propagation", preprocessing: [{ step: "resample", method: "undersample" }] },
  });
  assert.equal(res.statusCode, 422, res.body);
  assert.equal(res.json().code, "invalid_step");
  assert.equal(res.json().errors[0].path, "preprocessing[0].step");
});

test("GET /v1/algorithms says which algorithms take unlabelled rows", async () => {
  const items = (await t.app.inject({ url: "/v1/algorithms" })).json().items as { name: string; accepts: { unlabelled: boolean } }[];
  const byName = new Map(items.map((a) => [a.name, a]));
  assert.equal(byName.get("label_propagation")?.accepts.unlabelled, true);
  assert.equal(byName.get("label_spreading")?.accepts.unlabelled, true);
  assert.equal(byName.get("self_training")?.accepts.unlabelled, true);
  for (const name of ["seeded_kmeans", "semi_supervised_gmm", "tsvm"]) assert.equal(byName.get(name)?.accepts.unlabelled, true, name);
  assert.equal(byName.get("constrained_kmeans")?.accepts.unlabelled, false, "constraints, not labels");
  assert.equal(byName.get("cart")?.accepts.unlabelled, false);
});

test("seeded_kmeans and semi_supervised_gmm keep the unlabelled rows and are scored on the labelled ones; tsvm refuses three classes", async () => {
  for (const algorithm of ["seeded_kmeans", "semi_supervised_gmm"]) {
    const model = await train({ algorithm, validation: { method: "kfold", k: 5 } });
    assert.equal(model.labelled_rows, LABELLED, algorithm);
    assert.equal(model.unlabelled_rows, 120, algorithm);
    const evaluation = (await t.app.inject({ url: `/v1/evaluations/${model.evaluation_id}` })).json();
    const confusion = evaluation.confusion_matrix.matrix as number[][];
    assert.equal(confusion.flat().reduce((a, b) => a + b, 0), LABELLED, algorithm);
    assert.ok(evaluation.metrics.accuracy >= 0.8, `${algorithm}: accuracy ${evaluation.metrics.accuracy}`);
  }
  // Refused when the request is read (accepts.max_classes), not as a failed job.
  const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: iris, target: "target", algorithm: "tsvm" } });
  assert.equal(res.statusCode, 422, res.body);
  assert.equal(res.json().errors[0].path, "target");
  assert.match(res.json().detail, /at most 2 classes/);
  const listed = (await t.app.inject({ url: "/v1/algorithms" })).json().items.find((a: { name: string }) => a.name === "tsvm");
  assert.equal(listed.accepts.max_classes, 2);
});
