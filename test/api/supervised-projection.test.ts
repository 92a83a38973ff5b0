/**
 * The supervised projections through the service: lda_projection, nca_projection and lmnn_projection train
 * WITH a categorical target and are still projection models — task "projection", /predict
 * answers projections (lda_projection's are scikit-learn's transform up to sign), and
 * POST /v1/models/{id}/transform writes ld1…/nca1… plus the other columns. Refused when
 * the request is read: no target, a numeric target, a validation scheme; pca with a
 * target stays refused as before.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

const FEATURES = ["sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"];
const sklearn = JSON.parse(readFileSync(new URL("../fixtures/linear/iris_lda.json", import.meta.url), "utf8")) as { X: number[][]; transform: number[][] };

let t: TestApp;
let iris: string;
before(async () => {
  t = await testApp({ workers: 1 });
  iris = (await uploadCsv(t.app, "iris", fixture("iris.csv"))).id;
});
after(() => t.close());

const post = (payload: Record<string, unknown>) => t.app.inject({ method: "POST", url: "/v1/models", payload });

async function train(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await post(payload);
  assert.equal(res.statusCode, 202, res.body);
  return waitFor(t.app, `/v1/models/${res.json().id}`, 60_000);
}

test("lda_projection trains with the classes as a projection; /predict is scikit-learn's transform up to sign; /explain; /transform writes ld1, ld2 and the target", async () => {
  const model = await train({ dataset_id: iris, algorithm: "lda_projection", target: "target", features: FEATURES, seed: 1 });
  assert.equal(model.status, "succeeded", JSON.stringify(model.error));
  assert.equal(model.task, "projection");
  assert.equal(model.target, "target");
  const rows = sklearn.X.slice(0, 3).map((r) => Object.fromEntries(FEATURES.map((f, j) => [f, r[j]])));
  const res = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows } });
  assert.equal(res.statusCode, 200, res.body);
  const projections = res.json().projections as number[][];
  for (const k of [0, 1]) {
    const sign = Math.sign(projections[0][k] * sklearn.transform[0][k]);
    projections.forEach((p, i) => assert.ok(Math.abs(sign * p[k] - sklearn.transform[i][k]) <= 1e-8 * (1 + Math.abs(sklearn.transform[i][k])), `row ${i} ld${k + 1}: ${p[k]} vs ${sklearn.transform[i][k]}`));
  }
  const explain = (await t.app.inject({ url: `/v1/models/${model.id}/explain` })).json();
  assert.deepEqual(Object.keys(explain.scalings), ["ld1", "ld2"]);
  assert.deepEqual(Object.keys(explain.scalings.ld1), FEATURES);

  const made = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/transform`, payload: { dataset_id: iris } });
  assert.equal(made.statusCode, 201, made.body);
  assert.deepEqual(
    made.json().columns.map((c: { name: string }) => c.name),
    ["ld1", "ld2", "target"],
  );
});

test("nca_projection trains with the classes; /transform writes nca1, nca2", async () => {
  const model = await train({ dataset_id: iris, algorithm: "nca_projection", target: "target", features: FEATURES, params: { n_components: 2, max_iter: 10 }, seed: 1 });
  assert.equal(model.status, "succeeded", JSON.stringify(model.error));
  assert.equal(model.task, "projection");
  const made = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/transform`, payload: { dataset_id: iris, name: "iris-nca" } });
  assert.equal(made.statusCode, 201, made.body);
  assert.deepEqual(
    made.json().columns.map((c: { name: string }) => c.name),
    ["nca1", "nca2", "target"],
  );
});

test("lmnn_projection trains with the classes; /predict gives one lmnn1 value per row", async () => {
  const model = await train({ dataset_id: iris, algorithm: "lmnn_projection", target: "target", features: FEATURES, params: { n_components: 1, max_iter: 5 }, seed: 1 });
  assert.equal(model.status, "succeeded", JSON.stringify(model.error));
  const res = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows: [{ "sepal length (cm)": 5.1, "sepal width (cm)": 3.5, "petal length (cm)": 1.4, "petal width (cm)": 0.2 }] } });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().projections[0].length, 1);
});

test("refused when the request is read: no target (422 target_required), a numeric target (422 unsupported_task), a validation scheme; pca with a target as before", async () => {
  const cases: [Record<string, unknown>, string, string][] = [
    [{ algorithm: "lda_projection" }, "target_required", "target"],
    [{ algorithm: "nca_projection", target: "petal width (cm)" }, "unsupported_task", "target"],
    [{ algorithm: "lda_projection", target: "target", validation: { method: "kfold", k: 3 } }, "invalid_validation", "validation.method"],
    [{ algorithm: "pca", target: "target" }, "unsupported_task", "target"],
  ];
  for (const [extra, code, path] of cases) {
    const res = await post({ dataset_id: iris, ...extra });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().code, code, res.body);
    assert.equal(res.json().errors?.[0]?.path, path, res.body);
  }
});
