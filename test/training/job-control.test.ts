/**
 * Job control: the time limit counts from the start, a stop reaches the fit through
 * shared memory (the thread survives and the queue moves on), a job that passes its
 * memory budget fails alone, and failures read as catalogue problems.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { MessagePort } from "node:worker_threads";
import { TrainingPool } from "../../src/training/pool.js";
import { JobRunner, type JobLogger } from "../../src/training/jobs.js";
import type { Store } from "../../src/store/store.js";
import type { WorkerTask } from "../../src/training/worker.js";
import { appStoreLocator, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

const quiet: JobLogger = { info() {}, warn() {}, error() {} };

function numericCsv(n: number): string {
  const lines = Array.from({ length: n }, (_, i) => `${(i * 7919) % 1000},${(i * 104729) % 997},${(i * 31) % 3 === 0 ? "a" : "b"}`);
  return `x1,x2,y\n${lines.join("\n")}\n`;
}

function modelSpec(datasetId: string, algorithm: string, params: Record<string, unknown> = {}) {
  return { algorithm, params, task: "classification", dataset_id: datasetId, target: "y", features: ["x1", "x2"], preprocessing: [], validation: { method: "none" }, seed: 1, positive_class: null, name: null };
}

/** An mlp that would run for minutes: only a stop ends it early. */
const endless = { hidden_layer_sizes: [64, 64], max_iter: 10_000, tol: 0, n_iter_no_change: 10_000 };

/** Polls `check` (it may read the async store) until it holds. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const threadIds = (pool: TrainingPool) => pool.threads.map((w) => w.threadId).sort();

/**
 * One thread whose "fit" holds it for a fixed wall time, polling the stop flag as a
 * real fit polls ctx.signal: time limits can be tested without CPU-bound timing.
 */
class SleepingPool {
  readonly size = 1;
  private busy = false;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly holdMs: Map<string, number>) {}

  run(task: WorkerTask, signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const start = () => {
        this.busy = true;
        (task.port as MessagePort).postMessage({ type: "started" });
        const began = Date.now();
        const tick = setInterval(() => {
          const stopped = Atomics.load(task.stop, 0) !== 0;
          if (!stopped && Date.now() - began < this.holdMs.get((task as { modelId: string }).modelId)!) return;
          clearInterval(tick);
          this.busy = false;
          this.waiting.shift()?.();
          if (stopped) reject(new Error("stopped"));
          else resolve({ kind: "train", artifact: new Uint8Array([1]), sha256: "0".repeat(64), classes: ["a", "b"], evaluation: null, warnings: [], fitSeconds: 0, pipeline: [] });
        }, 10);
      };
      if (!this.busy) return start();
      this.waiting.push(start);
      signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
    });
  }
}

test("the time limit counts from the start of each job: three 300 ms jobs under a 500 ms limit all succeed on one thread", { timeout: 60_000 }, async () => {
  const t = await testApp({ workers: 1 });
  try {
    const ds = (await uploadCsv(t.app, "small", numericCsv(50))).id;
    const store: Store = t.app.services.store;
    const hold = new Map<string, number>();
    const runner = new JobRunner(store, new SleepingPool(hold) as unknown as TrainingPool, { store: appStoreLocator(t), timeoutMs: 500, memoryMb: 4096, heapMb: 4096 }, quiet);
    const ids: string[] = [];
    for (const ms of [300, 300, 300, 900]) {
      const id = (await store.models.insert(modelSpec(ds, "baseline"))).id;
      hold.set(id, ms);
      runner.submitTraining(id);
      ids.push(id);
    }
    await Promise.all(ids.map((id) => runner.whenDone(id)));
    const [a, b, c, slow] = (await Promise.all(ids.map((id) => store.models.get(id)))).map((m) => m!);
    assert.deepEqual([a.status, b.status, c.status], ["succeeded", "succeeded", "succeeded"], JSON.stringify([a.error, b.error, c.error]));
    assert.equal(slow.status, "failed", "a job longer than the limit still times out");
    assert.equal(slow.error?.code, "timeout");
  } finally {
    await t.close();
  }
});

test("a cancelled long fit stops within a second on the same thread, and the queued job then runs on it", { timeout: 60_000 }, async () => {
  const t = await testApp({ workers: 1 });
  const pool = new TrainingPool({ workers: 1, maxHeapMb: 1024 });
  // A one-second grace: a fit that ignored its signal would lose its thread to piscina's abort.
  const runner = new JobRunner(t.app.services.store, pool, { store: appStoreLocator(t), timeoutMs: 600_000, memoryMb: 4096, heapMb: 1024, killGraceMs: 1000 }, quiet);
  try {
    const ds = (await uploadCsv(t.app, "numbers", numericCsv(2000))).id;
    const store: Store = t.app.services.store;
    const long = (await store.models.insert(modelSpec(ds, "mlp", endless))).id;
    const next = (await store.models.insert(modelSpec(ds, "baseline"))).id;
    runner.submitTraining(long);
    runner.submitTraining(next);
    await until(async () => (await store.models.get(long))?.status === "running", "the long fit to start");
    await until(async () => ((await store.models.get(long))?.progress ?? 0) > 0, "the long fit to report progress");
    const before = threadIds(pool);
    assert.equal(await runner.cancel(long), true);
    await runner.whenDone(long);
    await runner.whenDone(next);
    assert.equal((await store.models.get(long))?.status, "cancelled");
    assert.equal((await store.models.get(next))?.status, "succeeded", JSON.stringify((await store.models.get(next))?.error));
    assert.deepEqual(threadIds(pool), before, "the thread that ran the cancelled fit was kept and ran the next job");
  } finally {
    await runner.close(0);
    await pool.destroy();
    await t.close();
  }
});

async function stallCheck(t: TestApp, stop: (url: string) => Promise<number>): Promise<void> {
  const ds = (await uploadCsv(t.app, "numbers", numericCsv(2000))).id;
  const long = (await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds, algorithm: "mlp", target: "y", params: endless, validation: { method: "none" } } })).json().id;
  const queued = (await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds, algorithm: "baseline", target: "y" } })).json().id;
  const store: Store = t.app.services.store;
  await until(async () => (await store.models.get(long))?.status === "running", "the long fit to start");
  assert.equal((await store.models.get(queued))?.status, "queued");
  assert.ok([200, 202, 204].includes(await stop(`/v1/models/${long}`)));
  // Nothing else is submitted: the queued job must start on its own.
  const done = await waitFor(t.app, `/v1/models/${queued}`);
  assert.equal(done.status, "succeeded", JSON.stringify(done.error));
}

test("cancelling a running job starts the queued one at once", { timeout: 60_000 }, async () => {
  const t = await testApp({ workers: 1 });
  try {
    await stallCheck(t, async (url) => (await t.app.inject({ method: "POST", url: `${url}/cancel` })).statusCode);
  } finally {
    await t.close();
  }
});

test("deleting a running job starts the queued one at once", { timeout: 60_000 }, async () => {
  const t = await testApp({ workers: 1 });
  try {
    await stallCheck(t, async (url) => (await t.app.inject({ method: "DELETE", url })).statusCode);
  } finally {
    await t.close();
  }
});

test("a thread killed mid-job is replaced and the queued job runs without another submission", { timeout: 60_000 }, async () => {
  const t = await testApp({ workers: 1 });
  try {
    await stallCheck(t, async () => {
      await t.app.services.pool!.threads[0].terminate();
      return 204;
    });
  } finally {
    await t.close();
  }
});

test("a job that passes its memory budget at run time fails alone with memory_limit_exceeded; the server stays ready and the next job succeeds", { timeout: 60_000 }, async () => {
  const t = await testApp({ workers: 1, jobMemoryMb: 64 });
  try {
    // One-hot of 500 levels over 20,000 rows is 80 MB of columns once a learner reads their cells (perceptron's
    // row-major design does; the linear solvers read one_hot's codes and never write them): past 64 MB once the fit runs.
    // Queued through the store, not the route: this is the run-time check, not the estimate before queueing.
    const rows = Array.from({ length: 20_000 }, (_, i) => `c${(i * 7919) % 500},${i % 3 === 0 ? "a" : "b"}`);
    const ds = (await uploadCsv(t.app, "levels", `x,y\n${rows.join("\n")}\n`)).id;
    const store: Store = t.app.services.store;
    const big = (await store.models.insert({ ...modelSpec(ds, "perceptron"), features: ["x"] })).id;
    t.app.services.jobs.submitTraining(big);
    let ready = true;
    while (["queued", "running"].includes((await store.models.get(big))!.status)) {
      ready &&= (await t.app.inject({ url: "/health/ready" })).statusCode === 200;
      await new Promise((r) => setTimeout(r, 20));
    }
    const failed = (await store.models.get(big))!;
    assert.equal(failed.status, "failed");
    assert.equal(failed.error?.code, "memory_limit_exceeded", JSON.stringify(failed.error));
    assert.equal(failed.error?.status, 422);
    assert.match(failed.error?.detail ?? "", /64 MiB/);
    assert.ok(ready, "/health/ready answered 200 while the job ran");
    const small = (await uploadCsv(t.app, "small", numericCsv(200))).id;
    const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: small, algorithm: "logistic_regression", target: "y" } });
    const next = await waitFor(t.app, `/v1/models/${res.json().id}`);
    assert.equal(next.status, "succeeded", JSON.stringify(next.error));
  } finally {
    await t.close();
  }
});

test("a dataset deleted before its job starts fails the job with dataset_deleted (409), not a 500", { timeout: 60_000 }, async () => {
  const t = await testApp({ workers: 1 });
  try {
    const ds = (await uploadCsv(t.app, "numbers", numericCsv(2000))).id;
    const doomed = (await uploadCsv(t.app, "doomed", numericCsv(50))).id;
    const long = (await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds, algorithm: "mlp", target: "y", params: endless, validation: { method: "none" } } })).json().id;
    const victim = (await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: doomed, algorithm: "baseline", target: "y" } })).json().id;
    const store: Store = t.app.services.store;
    await until(async () => (await store.models.get(long))?.status === "running", "the long fit to start");
    assert.equal((await t.app.inject({ method: "DELETE", url: `/v1/datasets/${doomed}` })).statusCode, 204);
    await t.app.inject({ method: "POST", url: `/v1/models/${long}/cancel` });
    const failed = await waitFor(t.app, `/v1/models/${victim}`);
    assert.equal(failed.status, "failed");
    const error = failed.error as { code: string; status: number };
    assert.equal(error.code, "dataset_deleted", JSON.stringify(error));
    assert.equal(error.status, 409);
  } finally {
    await t.close();
  }
});
