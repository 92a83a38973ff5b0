/**
 * Anomaly models through the service: isolation_forest trains without a target (a target or a
 * validation scheme is a 422), /predict answers "outlier" / "inlier" with scores, /explain shows
 * the forest; POST /v1/evaluations scores it against a reference column of known outliers
 * (numeric 1 / 0, or a categorical level), and refuses every other request shape with a 422.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

/** The fixture's Gaussian blob and six far rows (scripts/fixtures/anomaly_sklearn.py). */
const far = (JSON.parse(readFileSync(new URL("../fixtures/anomaly/sklearn.json", import.meta.url), "utf8")) as { sets: { name: string; X: number[][]; outlier: number[] }[] }).sets.find((s) => s.name === "far")!;
const OUTLIERS = far.outlier.reduce((s, o) => s + o, 0);

let t: TestApp;
let dataset: string;
let model: Record<string, unknown>;
before(async () => {
  t = await testApp({ workers: 1 });
  const lines = far.X.map((r, i) => `${r[0]},${r[1]},${far.outlier[i]},${far.outlier[i] ? "outlier" : "normal"},${far.outlier[i] ? "odd" : "usual"},${i % 6}`);
  dataset = (await uploadCsv(t.app, "blob", `x1,x2,is_outlier,kind,other_kind,wide\n${lines.join("\n")}\n`)).id;
  model = await train({ dataset_id: dataset, algorithm: "isolation_forest", features: ["x1", "x2"], params: { contamination: OUTLIERS / far.X.length }, seed: 4 });
});
after(() => t.close());

async function train(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: "POST", url: "/v1/models", payload });
  assert.equal(res.statusCode, 202, res.body);
  return waitFor(t.app, `/v1/models/${res.json().id}`, 60_000);
}

const evaluate = (payload: Record<string, unknown>) => t.app.inject({ method: "POST", url: "/v1/evaluations", payload });

test("isolation_forest trains without a target; /predict flags a far row an outlier and a central one an inlier, with scores; /explain shows the forest", async () => {
  assert.equal(model.status, "succeeded", JSON.stringify(model.error));
  assert.equal(model.task, "anomaly");
  assert.equal(model.target, null);
  assert.equal(model.outlier_count, OUTLIERS, "contamination = the outliers' share flags that many training rows");
  const res = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows: [{ x1: 12, x2: -12 }, { x1: 0, x2: 0 }] } });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.deepEqual(body.predictions, ["outlier", "inlier"]);
  assert.ok(body.scores[0] > body.scores[1] && body.scores[0] <= 1 && body.scores[1] > 0, JSON.stringify(body.scores));
  const proba = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows: [{ x1: 0, x2: 0 }], probabilities: true } });
  assert.equal(proba.statusCode, 422, proba.body);
  const explain = (await t.app.inject({ url: `/v1/models/${model.id}/explain` })).json();
  assert.equal(explain.n_estimators, 100);
  assert.equal(explain.sample_size, 256);
  assert.equal(explain.offset, -explain.threshold);
  assert.ok(explain.mean_depth > 0);
});

test("a target or a validation scheme is a 422; so are cross-validating the algorithm and searching its params", async () => {
  const withTarget = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: dataset, algorithm: "isolation_forest", target: "kind", features: ["x1", "x2"] } });
  assert.equal(withTarget.statusCode, 422, withTarget.body);
  assert.equal(withTarget.json().code, "unsupported_task");
  const holdout = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: dataset, algorithm: "isolation_forest", features: ["x1", "x2"], validation: { method: "holdout" } } });
  assert.equal(holdout.statusCode, 422, holdout.body);
  assert.equal(holdout.json().code, "invalid_validation");
  const spec = await evaluate({ dataset_id: dataset, algorithm: "isolation_forest", features: ["x1", "x2"] });
  assert.equal(spec.statusCode, 422, spec.body);
  assert.equal(spec.json().code, "unsupported_task");
  const search = await t.app.inject({ method: "POST", url: "/v1/searches", payload: { dataset_id: dataset, algorithm: "isolation_forest", features: ["x1", "x2"], param_grid: { n_estimators: [10, 20] } } });
  assert.equal(search.statusCode, 422, search.body);
  assert.equal(search.json().code, "unsupported_task");
});

test("scored against the known outliers (numeric 1 / 0, or a categorical level): AUC 1 and the flag finds exactly them", async () => {
  for (const payload of [{ reference: "is_outlier" }, { reference: "kind" }, { reference: "other_kind", positive_class: "odd" }]) {
    const res = await evaluate({ model_id: model.id, ...payload });
    assert.equal(res.statusCode, 202, res.body);
    const done = await waitFor(t.app, `/v1/evaluations/${res.json().id}`, 60_000);
    assert.equal(done.status, "succeeded", JSON.stringify(done.error));
    assert.equal(done.task, "anomaly");
    const m = done.metrics as Record<string, number>;
    assert.equal(m.roc_auc, 1);
    assert.equal(m.average_precision, 1);
    assert.equal(m.precision, 1);
    assert.equal(m.recall, 1);
    assert.equal(m.reference_outlier_rate, OUTLIERS / far.X.length);
    assert.equal(done.test_rows, far.X.length);
  }
});

test("every refused scoring request is a 422 naming the field", async () => {
  const cases: [Record<string, unknown>, string, string][] = [
    [{}, "invalid_request", "reference"],
    [{ reference: "nope" }, "unknown_column", "reference"],
    [{ reference: "x1" }, "invalid_request", "reference"],
    [{ reference: "is_outlier", positive_class: "1" }, "invalid_request", "positive_class"],
    [{ reference: "other_kind" }, "unusable_request", "reference"],
    [{ reference: "kind", positive_class: "strange" }, "unusable_request", "positive_class"],
    [{ reference: "wide" }, "unusable_request", "reference"],
    [{ reference: "is_outlier", beta: 2 }, "invalid_request", "beta"],
  ];
  for (const [payload, code, path] of cases) {
    const res = await evaluate({ model_id: model.id, ...payload });
    assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`);
    assert.equal(res.json().code, code, `${JSON.stringify(payload)}: ${res.body}`);
    assert.equal(res.json().errors?.[0]?.path, path, `${JSON.stringify(payload)}: ${res.body}`);
  }
});

test("CSV predict answers a prediction and a score column; OIP infer answers label and score tensors", async () => {
  const rows = [{ x1: 12, x2: -12 }, { x1: 0, x2: 0 }];
  const json = (await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows } })).json();
  const csv = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, headers: { "content-type": "text/csv", accept: "text/csv" }, payload: "x1,x2\n12,-12\n0,0\n" });
  assert.equal(csv.statusCode, 200, csv.body);
  const lines = csv.body.trim().split(/\r?\n/);
  assert.equal(lines[0], "x1,x2,prediction,score");
  assert.deepEqual(lines.slice(1).map((l) => l.split(",").slice(2)), json.predictions.map((p: string, i: number) => [p, String(json.scores[i])]));
  const meta = (await t.app.inject({ url: `/v2/models/${model.id}` })).json();
  assert.deepEqual(meta.outputs.map((o: { name: string }) => o.name), ["label", "score"]);
  const infer = await t.app.inject({
    method: "POST",
    url: `/v2/models/${model.id}/infer`,
    headers: { "content-type": "application/json" },
    payload: JSON.stringify({ inputs: [{ name: "x1", shape: [2], datatype: "FP64", data: [12, 0] }, { name: "x2", shape: [2], datatype: "FP64", data: [-12, 0] }] }),
  });
  assert.equal(infer.statusCode, 200, infer.body);
  const outputs = Object.fromEntries(infer.json().outputs.map((o: { name: string; data: unknown[] }) => [o.name, o.data]));
  assert.deepEqual(outputs, { label: json.predictions, score: json.scores });
});
