/**
 * The seed-003 networks through the service: som trained without a target (labels, predict,
 * explain with the U-matrix), som_projection's projections, and rbf_network's 422 for a
 * parameter out of its bounds.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let wm4: string;
before(async () => {
  t = await testApp({ workers: 1 });
  wm4 = (await uploadCsv(t.app, "wm4", fixture("watermelon-4.0.csv").toString().trim())).id;
});
after(() => t.close());

async function train(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: "POST", url: "/v1/models", payload });
  assert.equal(res.statusCode, 202, res.body);
  const model = await waitFor(t.app, `/v1/models/${res.json().id}`);
  assert.equal(model.status, "succeeded", JSON.stringify(model.error));
  return model;
}

const rows = [{ 密度: 0.3, 含糖率: 0.1 }, { 密度: 0.7, 含糖率: 0.4 }];

test("som: clusters are best-matching units; labels, predict and explain (U-matrix)", async () => {
  const model = await train({ dataset_id: wm4, algorithm: "som", features: ["密度", "含糖率"], params: { grid_rows: 2, grid_cols: 3, max_iter: 500 }, seed: 1 });
  assert.equal(model.task, "clustering");
  const labels = (await t.app.inject({ url: `/v1/models/${model.id}/labels?limit=1000` })).json().items.map((it: { label: number }) => it.label);
  assert.equal(labels.length, 30);
  assert.ok(labels.every((l: number) => l >= 0 && l < 6));
  const predicted = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows } });
  assert.equal(predicted.statusCode, 200, predicted.body);
  assert.ok(predicted.json().predictions.every((l: number) => l >= 0 && l < 6));
  const explained = (await t.app.inject({ url: `/v1/models/${model.id}/explain` })).json();
  assert.equal(JSON.stringify(explained).includes("u_matrix"), true);
});

test("som_projection: /predict returns each row's grid position", async () => {
  const model = await train({ dataset_id: wm4, algorithm: "som_projection", features: ["密度", "含糖率"], params: { grid_rows: 1, grid_cols: 4, max_iter: 500 }, seed: 1 });
  assert.equal(model.task, "projection");
  const predicted = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows } });
  assert.equal(predicted.statusCode, 200, predicted.body);
  const projections = predicted.json().projections as number[][];
  assert.equal(projections.length, 2);
  for (const [r, c] of projections) {
    assert.equal(r, 0);
    assert.ok(Number.isInteger(c) && c >= 0 && c < 4);
  }
});

test("out-of-bounds sizes are 422 invalid_params at their path", async () => {
  for (const [algorithm, params, path] of [
    ["rbf_network", { n_centers: 100_000 }, "params.n_centers"],
    ["som", { grid_rows: 1000 }, "params.grid_rows"],
  ] as const) {
    const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: wm4, algorithm, params, ...(algorithm === "rbf_network" ? { target: "含糖率" } : {}) } });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().code, "invalid_params");
    assert.ok(JSON.stringify(res.json()).includes(path), res.body);
  }
});
