/**
 * xigua as several processes (issue 16): 2 API processes and 2 trainer processes
 * on loopback, sharing one store and one BullMQ queue (test/helpers/cluster.ts).
 * The tests run in order on one cluster and each leaves it as the next expects:
 * 100 jobs through both APIs → a trainer killed mid-job (one trainer left) →
 * a cancel, which must free that one trainer → an API killed.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Cluster, call, type ClusterProcess } from "../helpers/cluster.js";

const WATERMELON = readFileSync(new URL("../fixtures/watermelon-3.0.csv", import.meta.url), "utf8");
const TARGET = "好瓜";
const ROW = { 色泽: "青绿", 根蒂: "蜷缩", 敲声: "浊响", 纹理: "清晰", 脐部: "凹陷", 触感: "硬滑", 密度: 0.697, 含糖率: 0.46 };
const JOBS = 100;
/** Bound on any one wait: a dead trainer's job is retried after about 2 × XIGUA_JOB_LOCK_S (2 s here). */
const WAIT_MS = 60_000;

interface Model {
  id: string;
  status: string;
  evaluation_id?: string;
  finished_at?: string;
  error?: { code: string };
}

/** A network of 2 × 256 units fitted row by row for `epochs` epochs on watermelon: slow enough to be caught running. */
const slowMlp = (datasetId: string, epochs: number) => ({
  dataset_id: datasetId,
  algorithm: "mlp",
  target: TARGET,
  params: { hidden_layer_sizes: [256, 256], bp: "standard", max_iter: epochs, tol: 0, n_iter_no_change: epochs },
  validation: { method: "none" },
  seed: 1,
});

const ended = (status: string) => status !== "queued" && status !== "running";

async function poll<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, cluster: Cluster): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(value).slice(0, 300)} after ${WAIT_MS / 1000} s\n${cluster.report()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function getModel(base: string, id: string): Promise<Model> {
  const res = await call<Model>(base, "GET", `/v1/models/${id}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function train(base: string, spec: object): Promise<Model> {
  const res = await call<Model>(base, "POST", "/v1/models", spec);
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return res.body;
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, work: (item: T, i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map((item, j) => work(item, i + j)));
}

/** "model trained" lines of a trainer, by model id (JobRunner logs one per recorded success). */
function trainedBy(cluster: Cluster, trainer: ClusterProcess): string[] {
  return cluster.logs(trainer).filter((l) => l.msg === "model trained").map((l) => String(l.model));
}

/** The trainers' "model trained" lines, once `count` have arrived: a trainer logs after its write, and its stdout reaches this process later still. */
function trainedLogs(cluster: Cluster, count: number): Promise<string[][]> {
  return poll(`${count} "model trained" log lines`, async () => cluster.trainers.map((t) => trainedBy(cluster, t)), (per) => per.flat().length >= count, cluster);
}

/** The trainer that took a job: trainers log the job id with their pid when they take it. */
function takenBy(cluster: Cluster, id: string): ClusterProcess | undefined {
  return cluster.trainers.find((t) => cluster.logs(t).some((l) => l.job === id));
}

describe("2 API processes and 2 trainer processes", { timeout: 180_000 }, () => {
  let cluster: Cluster;
  let datasetId: string;
  let apiA: string;
  let apiB: string;

  before(async () => {
    cluster = await Cluster.start({ apis: 2, trainers: 2 });
    [apiA, apiB] = cluster.apis.map((a) => a.base);
    const upload = await call<{ id: string }>(apiA, "POST", "/v1/datasets?name=wm3", WATERMELON);
    assert.equal(upload.status, 201, JSON.stringify(upload.body));
    datasetId = upload.body.id;
  });
  after(() => cluster?.stop());

  it(`${JOBS} jobs sent to both APIs each succeed once, on both trainers, and serve from both APIs`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < JOBS; i++) ids.push((await train(i % 2 ? apiB : apiA, { dataset_id: datasetId, algorithm: "cart", target: TARGET, seed: i })).id);

    // The first succeeded state seen of each model, to prove that no later write touched it.
    const first = new Map<string, string>();
    await poll(
      `${JOBS} jobs`,
      async () => {
        const list = await call<{ items: Model[] }>(apiB, "GET", `/v1/models?dataset_id=${datasetId}&limit=500`);
        assert.equal(list.status, 200);
        for (const m of list.body.items) {
          assert.ok(m.status === "queued" || m.status === "running" || m.status === "succeeded", `${m.id} ended ${m.status}: ${JSON.stringify(m.error)}`);
          if (m.status === "succeeded" && !first.has(m.id)) first.set(m.id, JSON.stringify(m));
        }
        return first.size;
      },
      (n) => n === JOBS,
      cluster,
    );
    assert.deepEqual([...first.keys()].sort(), [...ids].sort());

    await inBatches(ids, 10, async (id, i) => {
      for (const base of [apiA, apiB]) assert.equal(JSON.stringify(await getModel(base, id)), first.get(id), `${id} changed after it succeeded`);
      const model = JSON.parse(first.get(id)!) as Model;
      const evaluations = await call<{ items: { id: string; status: string }[] }>(i % 2 ? apiA : apiB, "GET", `/v1/evaluations?model_id=${id}`);
      assert.deepEqual(
        evaluations.body.items.map((e) => [e.id, e.status]),
        [[model.evaluation_id, "succeeded"]],
        `${id} must have exactly its one evaluation`,
      );
      const artifact = await call(i % 2 ? apiB : apiA, "GET", `/v1/models/${id}/artifact`);
      assert.equal(artifact.status, 200);
      for (const base of [apiA, apiB]) {
        const predict = await call<{ predictions: string[] }>(base, "POST", `/v1/models/${id}/predict`, { rows: [ROW] });
        assert.equal(predict.status, 200, JSON.stringify(predict.body));
        assert.equal(predict.body.predictions.length, 1);
      }
    });

    // Each success is recorded (and logged) once, whichever trainer ran the job; both took work.
    const perTrainer = await trainedLogs(cluster, JOBS);
    assert.deepEqual(perTrainer.flat().sort(), [...ids].sort(), "every model trained exactly once");
    for (const [i, trained] of perTrainer.entries()) assert.ok(trained.length > 0, `trainer-${i + 1} trained nothing: ${perTrainer.map((t) => t.length)}`);
  });

  it("a trainer killed mid-job: the job ends on the other one and never stays running", async (t) => {
    const model = await train(apiA, slowMlp(datasetId, 60));
    await poll("the slow job to start", () => getModel(apiB, model.id), (m) => m.status !== "queued", cluster);
    const holder = await poll("a trainer to log the job", async () => takenBy(cluster, model.id), Boolean, cluster);
    const other = cluster.trainers.find((t) => t !== holder)!;
    assert.equal((await getModel(apiB, model.id)).status, "running", "the job must be caught running (make it slower)");
    await cluster.kill(holder!);

    const end = await poll("the killed trainer's job to end", () => getModel(apiA, model.id), (m) => ended(m.status), cluster);
    assert.ok(end.status === "succeeded" || (end.status === "failed" && end.error?.code === "interrupted"), JSON.stringify(end));
    t.diagnostic(`the killed trainer's job ended ${end.status}${end.error ? ` (${end.error.code})` : ""}`);
    if (end.status === "succeeded") {
      const recorded = await poll("the success's log line", async () => cluster.trainers.filter((t) => trainedBy(cluster, t).includes(model.id)), (ts) => ts.length > 0, cluster);
      assert.deepEqual(recorded.map((t) => t.name), [other.name], "the other trainer recorded it (not the killed one, before it died)");
    }
    assert.ok(cluster.alive(other), cluster.report());
  });

  it("a cancel sent to the other API stops the job on the trainer, which then takes the next job", async () => {
    const [trainer] = cluster.trainers.filter((t) => cluster.alive(t));
    const model = await train(apiB, slowMlp(datasetId, 10_000)); // minutes, unless stopped
    await poll("the job to start", () => getModel(apiB, model.id), (m) => m.status === "running", cluster);

    const cancel = await call<Model>(apiA, "POST", `/v1/models/${model.id}/cancel`);
    assert.equal(cancel.status, 202, JSON.stringify(cancel.body));
    for (const base of [apiA, apiB]) assert.equal((await getModel(base, model.id)).status, "cancelled");

    // One trainer left: the next job completes only if the cancelled fit let go of its thread.
    const next = await train(apiA, { dataset_id: datasetId, algorithm: "cart", target: TARGET, seed: 7 });
    const done = await poll("the job after the cancel", () => getModel(apiB, next.id), (m) => ended(m.status), cluster);
    assert.equal(done.status, "succeeded", JSON.stringify(done));
    await poll("the next job's log line", async () => trainedBy(cluster, trainer), (ids) => ids.includes(next.id), cluster);
    assert.equal((await getModel(apiA, model.id)).status, "cancelled", "the cancelled job stays cancelled");
  });

  it("a bayesian search runs on a trainer through the queue: its proposals appended, ranked, the best refitted", async () => {
    const res = await call<{ id: string; results: unknown[] }>(apiA, "POST", "/v1/searches", {
      dataset_id: datasetId,
      algorithm: "cart",
      target: TARGET,
      method: "bayesian",
      n_iter: 5,
      n_initial: 2,
      param_distributions: { min_impurity_decrease: { distribution: "uniform", low: 0, high: 0.3 }, max_depth: { distribution: "randint", low: 1, high: 6 } },
      validation: { method: "kfold", k: 3 },
      seed: 3,
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.results.length, 2);
    type Search = { status: string; results: { rank: number | null; mean_score: number | null }[]; best_score: number | null; model_id?: string };
    const done = await poll("the bayesian search", async () => (await call<Search>(apiB, "GET", `/v1/searches/${res.body.id}`)).body, (s) => ended(s.status), cluster);
    assert.equal(done.status, "succeeded", JSON.stringify(done));
    assert.equal(done.results.length, 5);
    assert.equal(done.best_score, Math.max(...done.results.map((r) => r.mean_score!)));
    assert.equal((await poll("the refit", () => getModel(apiA, done.model_id!), (m) => ended(m.status), cluster)).status, "succeeded");
  });

  it("an API killed: the other answers list, get, predict and train", async () => {
    const [survivor, victim] = cluster.apis;
    await cluster.kill(victim);
    const list = await call<{ items: Model[] }>(survivor.base, "GET", `/v1/models?dataset_id=${datasetId}&status=succeeded&limit=500`);
    assert.equal(list.status, 200);
    assert.ok(list.body.items.length >= JOBS + 1, `${list.body.items.length} succeeded models`);
    const some = list.body.items[0];
    assert.equal((await getModel(survivor.base, some.id)).status, "succeeded");
    const predict = await call<{ predictions: string[] }>(survivor.base, "POST", `/v1/models/${some.id}/predict`, { rows: [ROW] });
    assert.equal(predict.status, 200, JSON.stringify(predict.body));
    const model = await train(survivor.base, { dataset_id: datasetId, algorithm: "cart", target: TARGET, seed: 8 });
    assert.equal((await poll("a job sent to the surviving API", () => getModel(survivor.base, model.id), (m) => ended(m.status), cluster)).status, "succeeded");
  });
});
