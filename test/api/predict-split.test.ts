/**
 * A large predict batch on the compute pool is cut into row ranges predicted on several compute
 * threads at once (compute/pool.ts, XIGUA_PREDICT_SPLIT_UNITS), and the response is the same,
 * byte for byte, as the unsplit batch's. Two servers train the same kNN models (same data, same
 * seed): one splits every pool batch (two compute threads, a split cost of 1), the other never
 * does (one compute thread). Both bodies the request thread parses and bodies it hands over
 * unparsed (over 256 KiB) are compared, with probabilities, a decision threshold and regression;
 * a bad row is the same 4xx on both; the split server counts its split batches in /metrics.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { FastifyInstance } from "fastify";
import { testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let split: TestApp;
let plain: TestApp;
const models = new Map<FastifyInstance, Record<string, string>>();

const table = (() => {
  const lines = ["x0,x1,x2,x3,x4,y,r"];
  for (let i = 0; i < 600; i++) {
    const x = Array.from({ length: 5 }, (_, j) => (((i + 1) * (j + 3) * 7919) % 1000) / 100);
    lines.push([...x, x[0] + x[1] > 10 ? "a" : "b", (x[2] * 2 - x[3]).toFixed(3)].join(","));
  }
  return `${lines.join("\n")}\n`;
})();

/** n rows with four decimals per cell, every 97th with a blank (imputed). */
const rowsOf = (n: number) => Array.from({ length: n }, (_, i) => Object.fromEntries(Array.from({ length: 5 }, (_, j) => [`x${j}`, i % 97 === 5 && j === 2 ? null : (((i + 11) * (j + 5) * 104729) % 100000) / 10000])));

async function train(app: FastifyInstance, dataset: string, target: string): Promise<string> {
  const res = await app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: dataset, algorithm: "knn", target, features: ["x0", "x1", "x2", "x3", "x4"], params: { n_neighbors: 7, weights: "distance" }, validation: { method: "none" }, seed: 3 } });
  assert.equal(res.statusCode, 202, res.body);
  const model = await waitFor(app, `/v1/models/${res.json().id}`);
  assert.equal(model.status, "succeeded", JSON.stringify(model));
  return model.id as string;
}

before(async () => {
  split = await testApp({ computeWorkers: 2, predictSplitUnits: 1 });
  plain = await testApp({ computeWorkers: 1 });
  for (const t of [split, plain]) {
    const dataset = (await uploadCsv(t.app, "points", table)).id;
    models.set(t.app, { classifier: await train(t.app, dataset, "y"), regressor: await train(t.app, dataset, "r") });
  }
});
after(async () => {
  await split.close();
  await plain.close();
});

async function predictOn(t: TestApp, model: "classifier" | "regressor", body: Record<string, unknown>) {
  const id = models.get(t.app)![model];
  const res = await t.app.inject({ method: "POST", url: `/v1/models/${id}/predict`, headers: { "content-type": "application/json" }, payload: JSON.stringify(body) });
  // The model ids differ between the two servers; everything after them must not.
  return { status: res.statusCode, body: res.body.replace(id, "<id>") };
}

async function splitBatches(t: TestApp): Promise<number> {
  const text = (await t.app.inject({ url: "/metrics" })).body;
  const line = text.split("\n").find((l) => l.startsWith("xigua_predict_split_batches_total "));
  assert.ok(line, "the counter is exported");
  return Number(line.split(" ")[1]);
}

const CASES: { name: string; model: "classifier" | "regressor"; body: Record<string, unknown> }[] = [
  // 1,500 rows ≈ 110 KiB: parsed on the request thread, then sent to the pool as a parsed body.
  { name: "classification with probabilities, a body parsed on the request thread", model: "classifier", body: { rows: rowsOf(1500), probabilities: true } },
  // 5,000 rows ≈ 370 KiB: its bytes go to the pool unparsed.
  { name: "classification with probabilities, an unparsed body", model: "classifier", body: { rows: rowsOf(5000), probabilities: true } },
  { name: "a decision threshold on the joined output", model: "classifier", body: { rows: rowsOf(5000), probabilities: true, decision_threshold: 0.3 } },
  { name: "regression", model: "regressor", body: { rows: rowsOf(5000) } },
];

for (const c of CASES) {
  test(`split and unsplit batches answer the same bytes: ${c.name}`, async () => {
    const before = await splitBatches(split);
    const a = await predictOn(split, c.model, c.body);
    const b = await predictOn(plain, c.model, c.body);
    assert.equal(a.status, 200, a.body.slice(0, 500));
    assert.equal(b.status, 200, b.body.slice(0, 500));
    assert.equal(a.body, b.body);
    assert.equal(await splitBatches(split), before + 1, "the split server cut this batch");
  });
}

test("the unsplit server never splits; a bad cell is the same 4xx on both", async () => {
  assert.equal(await splitBatches(plain), 0);
  const rows = rowsOf(5000);
  (rows[4321] as Record<string, unknown>).x3 = "not a number";
  const a = await predictOn(split, "classifier", { rows });
  const b = await predictOn(plain, "classifier", { rows });
  assert.ok(a.status >= 400 && a.status < 500, a.body);
  assert.equal(a.status, b.status);
  assert.deepEqual(JSON.parse(a.body).errors, JSON.parse(b.body).errors);
});
