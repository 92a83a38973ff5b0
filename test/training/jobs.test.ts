/** Job failure modes: a worker killed mid-job, a time limit, and recovery after a crash of the whole process. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/store.js";
import { appStoreLocator, fixture, testApp, uploadCsv, waitFor } from "../helpers/app.js";

function bigCsv(n: number): string {
  const lines = Array.from({ length: n }, (_, i) => `${(i * 7919) % 1000},${(i * 104729) % 997},${(i * 31) % 3 === 0 ? "a" : "b"}`);
  return `x1,x2,y\n${lines.join("\n")}\n`;
}

async function waitForStatus(get: () => Promise<Record<string, unknown>>, status: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await get();
    if (body.status === status) return body;
    if (Date.now() > deadline) throw new Error(`still ${body.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test("a worker killed mid-job fails that job with a problem object; the server keeps serving", async () => {
  const t = await testApp({ workers: 1 });
  try {
    const ds = (await uploadCsv(t.app, "big", bigCsv(20000))).id;
    const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds, algorithm: "cart", target: "y", validation: { method: "kfold", k: 30 } } });
    const url = `/v1/models/${res.json().id}`;
    await waitForStatus(async () => (await t.app.inject({ url })).json(), "running");
    const threads = t.app.services.pool!.threads;
    assert.equal(threads.length, 1);
    await threads[0].terminate();
    const failed = await waitFor(t.app, url);
    assert.equal(failed.status, "failed");
    const error = failed.error as { code: string; status: number; detail: string };
    assert.equal(error.code, "worker_crashed", JSON.stringify(error));
    assert.doesNotMatch(error.detail, /at .*\.ts:\d+/, "no stack trace leaks");
    assert.equal((await t.app.inject({ url: "/health/ready" })).statusCode, 200);
    const next = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds, algorithm: "baseline", target: "y" } });
    assert.equal((await waitFor(t.app, `/v1/models/${next.json().id}`)).status, "succeeded");
  } finally {
    await t.close();
  }
});

test("a job over its time limit fails with code timeout", async () => {
  const t = await testApp({ workers: 1, jobTimeoutMs: 300 });
  try {
    const ds = (await uploadCsv(t.app, "big", bigCsv(20000))).id;
    const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds, algorithm: "cart", target: "y", validation: { method: "kfold", k: 30 } } });
    const failed = await waitFor(t.app, `/v1/models/${res.json().id}`);
    assert.equal(failed.status, "failed");
    assert.equal((failed.error as { code: string }).code, "timeout");
  } finally {
    await t.close();
  }
});

test("start-up: jobs left running become failed (interrupted), queued ones run again", async () => {
  const dir = mkdtempSync(join(tmpdir(), "xigua-recover-"));
  const first = await testApp({}, dir);
  const ds = (await uploadCsv(first.app, "wm3", fixture("watermelon-3.0.csv"))).id;
  await first.app.close();

  // Simulate a process that died with one job running and one queued.
  const store = await openStore(appStoreLocator(first));
  const spec = { algorithm: "cart", params: {}, task: "classification", dataset_id: ds, target: "好瓜", features: ["纹理", "密度"], preprocessing: [], validation: { method: "none" }, seed: 1, positive_class: "是", name: null };
  const running = await store.models.insert(spec);
  await store.models.markRunning(running.id);
  const queued = await store.models.insert(spec);
  await store.close();

  const second = await testApp({}, dir);
  try {
    const interrupted = (await second.app.inject({ url: `/v1/models/${running.id}` })).json();
    assert.equal(interrupted.status, "failed");
    assert.equal(interrupted.error.code, "interrupted");
    const requeued = await waitFor(second.app, `/v1/models/${queued.id}`);
    assert.equal(requeued.status, "succeeded", JSON.stringify(requeued));
  } finally {
    await second.close();
  }
});

test("past XIGUA_MAX_JOBS queued or running jobs, new training requests get 503 with Retry-After", async () => {
  const t = await testApp({ workers: 1, maxJobs: 1 });
  try {
    const ds = (await uploadCsv(t.app, "big", bigCsv(20000))).id;
    const slow = { dataset_id: ds, algorithm: "cart", target: "y", validation: { method: "kfold", k: 30 } };
    const first = await t.app.inject({ method: "POST", url: "/v1/models", payload: slow });
    assert.equal(first.statusCode, 202);
    const second = await t.app.inject({ method: "POST", url: "/v1/models", payload: slow });
    assert.equal(second.statusCode, 503);
    assert.equal(second.headers["retry-after"], "5");
    assert.equal(second.json().code, "unavailable");
    const evaluation = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { ...slow, validation: { method: "kfold", k: 3 } } });
    assert.equal(evaluation.statusCode, 503);
    await t.app.inject({ method: "POST", url: `/v1/models/${first.json().id}/cancel` });
    await waitFor(t.app, `/v1/models/${first.json().id}`);
    await new Promise((r) => setTimeout(r, 50));
    const third = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds, algorithm: "baseline", target: "y" } });
    assert.equal(third.statusCode, 202, "capacity frees when a job ends");
    await waitFor(t.app, `/v1/models/${third.json().id}`);
  } finally {
    await t.close();
  }
});
