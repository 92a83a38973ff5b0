/**
 * Feature scores are O(data) (relief on 900k rows froze the server for 28 s): they
 * run on the compute pool, so the server keeps answering while one is computed.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ComputePool } from "../../src/server/compute/pool.js";
import { DEFAULTS, storeLocator } from "../../src/server/config.js";
import { testApp, uploadCsv, type TestApp } from "../helpers/app.js";

let t: TestApp;
let big: string;
before(async () => {
  t = await testApp();
  // Large enough that relief takes a good while (every probe row against every row).
  const n = 60_000;
  const lines = Array.from({ length: n }, (_, i) => `${(i * 7919) % 1000},${(i * 104729) % 997},${(i * 31) % 101},${(i * 13) % 7},${i % 3 === 0 ? "a" : i % 3 === 1 ? "b" : "c"}`);
  big = (await uploadCsv(t.app, "big", `x1,x2,x3,x4,y\n${lines.join("\n")}\n`)).id;
});
after(() => t.close());

test("/health/live answers while a large feature score is being computed", async () => {
  let scored = false;
  const scores = t.app.inject({ method: "POST", url: `/v1/datasets/${big}/feature-scores`, payload: { method: "relief", target: "y" } }).then((res) => {
    scored = true;
    return res;
  });
  // Were the scoring on this thread, this timer could fire only after it had finished.
  await new Promise((r) => setTimeout(r, 50));
  const live = await t.app.inject({ url: "/health/live" });
  assert.equal(live.statusCode, 200);
  assert.equal(scored, false, "the health check answered before the feature scores were done");
  const res = await scores;
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json().scores.map((s: { feature: string }) => s.feature).sort(), ["x1", "x2", "x3", "x4"]);
  assert.ok(t.app.services.compute.threadCount > 0);
});

test("errors found on the pool are the same problems as before", async () => {
  const res = await t.app.inject({ method: "POST", url: `/v1/datasets/${big}/feature-scores`, payload: { method: "pearson", target: "y" } });
  assert.equal(res.statusCode, 422, res.body);
  assert.equal(res.json().code, "unusable_request");
  assert.deepEqual(res.json().errors.map((e: { path: string }) => e.path), ["target"]);
});

test("past its queue, the compute pool refuses with 503 instead of queueing without end", async () => {
  const pool = new ComputePool({ store: storeLocator(t.app.services.config), threads: 1, maxHeapMb: 512, cache: { maxModels: 1, maxBytes: 1 << 20 }, maxQueue: 1, splitUnits: DEFAULTS.predictSplitUnits });
  try {
    const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => pool.featureScores(big, { method: "variance", target: null, features: ["x1", "x2"] })));
    const refused = outcomes.filter((o) => o.status === "rejected");
    assert.ok(refused.length >= 2, "one task runs, one waits, the rest are refused");
    for (const o of refused) assert.equal((o as PromiseRejectedResult).reason.status, 503);
    assert.ok(outcomes.some((o) => o.status === "fulfilled"));
  } finally {
    await pool.destroy();
  }
});
