/**
 * A random forest's trees grow on several training threads at once when the pool has more
 * than one (src/training/member-spread.ts), and the model is the same, byte for byte, as on a
 * one-thread pool: the same artifact (all but its training time), the same metrics, for a training job (with a holdout
 * validation and with cross-validation, which fits several forests in one task) and for an
 * evaluation. A cancelled spread job ends, helpers included, and the pool serves the next job.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { FastifyInstance } from "fastify";
import { LocalQueue } from "../../src/training/queue/local-queue.js";
import { testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let spread: TestApp;
let single: TestApp;
const datasets = new Map<FastifyInstance, string>();

/** 1,500 rows, 6 numeric features, a three-class target and missing cells. */
const table = (() => {
  const lines = ["a,b,c,d,e,f,y"];
  for (let i = 0; i < 1500; i++) {
    const x = Array.from({ length: 6 }, (_, j) => (((i + 3) * (j + 7) * 7919) % 1000) / 10);
    const y = x[0] + x[1] > 100 ? (x[2] > 50 ? "p" : "q") : "r";
    lines.push([...x.map((v, j) => ((i + j) % 53 === 0 ? "" : v)), y].join(","));
  }
  return `${lines.join("\n")}\n`;
})();

const runner = (t: TestApp) => {
  const jobs = t.app.services.jobs;
  assert.ok(jobs instanceof LocalQueue);
  return jobs.runner;
};

before(async () => {
  spread = await testApp({ workers: 2 });
  single = await testApp({ workers: 1 });
  for (const t of [spread, single]) datasets.set(t.app, (await uploadCsv(t.app, "points", table)).id);
});
after(async () => {
  await spread.close();
  await single.close();
});

/** The trained model's metrics and its artifact without the training time (the only field that differs between two fits). */
async function trained(t: TestApp, body: Record<string, unknown>) {
  const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: datasets.get(t.app), algorithm: "random_forest", target: "y", seed: 4, ...body } });
  assert.equal(res.statusCode, 202, res.body);
  const model = await waitFor(t.app, `/v1/models/${res.json().id}`, 120_000);
  assert.equal(model.status, "succeeded", JSON.stringify(model));
  const artifact = await t.app.inject({ url: `/v1/models/${model.id as string}/artifact` });
  assert.equal(artifact.statusCode, 200, artifact.body.slice(0, 300));
  const { trained_at: _time, sha256: _sha, ...rest } = artifact.json() as Record<string, unknown>;
  assert.ok(JSON.stringify(rest).includes('"trees"'), "the artifact holds the forest's trees");
  return { artifact: JSON.stringify(rest), metrics: model.metrics };
}

for (const [name, body] of [
  ["holdout, out-of-bag estimate", { params: { n_estimators: 24, oob_score: true }, validation: { method: "holdout", test_size: 0.25 } }],
  ["3-fold cross-validation then the final fit, permutation importances", { params: { n_estimators: 12, permutation_n_repeats: 2 }, validation: { method: "kfold", k: 3 } }],
] as const) {
  test(`random_forest (${name}): two training threads give the one-thread model, byte for byte`, async () => {
    const helpers = runner(spread).spreadHelpers;
    const a = await trained(spread, body);
    const b = await trained(single, body);
    assert.equal(a.artifact, b.artifact);
    assert.deepEqual(a.metrics, b.metrics);
    assert.ok(runner(spread).spreadHelpers > helpers, "the two-thread pool started helper tasks");
    assert.equal(runner(single).spreadHelpers, 0, "a one-thread pool never spreads");
  });
}

test("an evaluation's forests spread too, with the same metrics", async () => {
  const body = { dataset_id: "", algorithm: "random_forest", target: "y", seed: 2, params: { n_estimators: 16 }, validation: { method: "holdout", test_size: 0.3 } };
  const metrics = [];
  for (const t of [spread, single]) {
    const res = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { ...body, dataset_id: datasets.get(t.app) } });
    assert.equal(res.statusCode, 202, res.body);
    const done = await waitFor(t.app, `/v1/evaluations/${res.json().id}`, 120_000);
    assert.equal(done.status, "succeeded", JSON.stringify(done));
    metrics.push(done.metrics);
  }
  assert.deepEqual(metrics[0], metrics[1]);
});

test("cancelling a spread forest ends it and its helpers; the pool then trains the next job", async () => {
  const res = await spread.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: datasets.get(spread.app), algorithm: "random_forest", target: "y", params: { n_estimators: 5000 }, validation: { method: "none" } } });
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as string;
  const helpers = runner(spread).spreadHelpers;
  // Up to a minute, as the other waits here: on a loaded machine the fit may take seconds to reach its spread.
  for (let i = 0; i < 2400 && runner(spread).spreadHelpers === helpers; i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(runner(spread).spreadHelpers > helpers, "the job spread its trees");
  assert.equal((await spread.app.inject({ method: "POST", url: `/v1/models/${id}/cancel` })).statusCode < 300, true);
  const cancelled = await waitFor(spread.app, `/v1/models/${id}`, 60_000);
  assert.equal(cancelled.status, "cancelled", JSON.stringify(cancelled));
  await trained(spread, { params: { n_estimators: 4 }, validation: { method: "none" } });
});
