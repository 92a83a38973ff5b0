/**
 * Scale benchmark (issue 16): xigua as separate API and trainer processes
 * (test/helpers/cluster.ts), each under tsx, on loopback, Redis at 127.0.0.1:6379.
 *
 *   jobs     500 small cart jobs (watermelon 3.0) through 1 and through 2 trainer
 *            processes (XIGUA_WORKERS=1 each). The queue is paused while the jobs are
 *            submitted and resumed at once, so the figure is the trainers' rate, not the
 *            submitting client's: jobs / (last finished_at − resume).
 *   predict  single-row predict (cart on breast cancer) with autocannon, 20 connections
 *            per API process for --duration s, against 1 and then 2 API processes on the
 *            same store (one autocannon per process, at the same time; req/s summed).
 *   miss     time to the first predict of a model not in the API's cache: an API process
 *            with XIGUA_MODEL_CACHE=1 and single-row predicts alternating between two models,
 *            so every request loads its artifact from the store, against a second API process
 *            with both cached, requests interleaved. Per store (--stores sqlite,postgres).
 *
 *   node --import tsx bench/scale/scale.ts [--parts jobs,predict,miss] [--stores sqlite] [--duration 10] [--jobs 500]
 */
import { loadavg } from "node:os";
import { readFileSync } from "node:fs";
import { Queue } from "bullmq";
import { Cluster, REDIS_URL, call, type StoreKind } from "../../test/helpers/cluster.js";
import { redisConnection } from "../../src/training/queue/bullmq-queue.js";
import { breastCancerCsv, breastCancerRows, load } from "../serving/harness.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const parts = arg("parts", "jobs,predict,miss").split(",");
const stores = arg("stores", "sqlite").split(",") as StoreKind[];
const duration = Number(arg("duration", "10"));
const jobCount = Number(arg("jobs", "500"));

const WATERMELON = readFileSync(new URL("../../test/fixtures/watermelon-3.0.csv", import.meta.url), "utf8");
const load1 = () => loadavg()[0].toFixed(1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Model {
  id: string;
  status: string;
  finished_at?: string;
}

async function uploadCsv(base: string, name: string, csv: string | Buffer): Promise<string> {
  const res = await call<{ id: string }>(base, "POST", `/v1/datasets?name=${name}`, csv.toString());
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.id;
}

async function trainAndWait(base: string, spec: object): Promise<string> {
  const { body } = await call<Model>(base, "POST", "/v1/models", spec);
  for (;;) {
    const m = (await call<Model>(base, "GET", `/v1/models/${body.id}`)).body;
    if (m.status === "succeeded") return m.id;
    if (m.status !== "queued" && m.status !== "running") throw new Error(JSON.stringify(m));
    await sleep(50);
  }
}

async function jobThroughput(trainers: number, store: StoreKind): Promise<string> {
  const cluster = await Cluster.start({ apis: 1, trainers, store });
  const connection = redisConnection(REDIS_URL, { failFast: false });
  const queue = new Queue(cluster.queueName, { connection });
  try {
    const base = cluster.apis[0].base;
    const datasetId = await uploadCsv(base, "wm3", WATERMELON);
    await queue.pause();
    const ids: string[] = [];
    for (let i = 0; i < jobCount; i += 20) {
      const batch = Array.from({ length: Math.min(20, jobCount - i) }, (_, j) => call<Model>(base, "POST", "/v1/models", { dataset_id: datasetId, algorithm: "cart", target: "好瓜", seed: i + j }));
      for (const res of await Promise.all(batch)) ids.push(res.body.id);
    }
    const resumed = Date.now();
    await queue.resume();
    let finished: Model[] = [];
    for (;;) {
      finished = (await call<{ items: Model[] }>(base, "GET", `/v1/models?dataset_id=${datasetId}&limit=500`)).body.items;
      // The list holds at most 500: past that, count by status.
      const done = jobCount <= 500 ? finished.filter((m) => m.status === "succeeded").length : await succeededCount(base, datasetId);
      if (done === jobCount) break;
      if (finished.some((m) => m.status === "failed" || m.status === "cancelled")) throw new Error("a job failed");
      await sleep(100);
    }
    const last = Math.max(...finished.map((m) => Date.parse(m.finished_at!)));
    const seconds = (last - resumed) / 1000;
    const perTrainer = cluster.trainers.map((t) => cluster.logs(t).filter((l) => l.msg === "model trained").length);
    return `| ${store} | ${trainers} | ${jobCount} | ${seconds.toFixed(1)} | **${(jobCount / seconds).toFixed(1)}** | ${perTrainer.join(" / ")} | ${load1()} |`;
  } finally {
    await queue.close();
    connection.disconnect();
    await cluster.stop();
  }
}

async function succeededCount(base: string, datasetId: string): Promise<number> {
  let n = 0;
  let cursor: string | null = null;
  do {
    const page: { items: Model[]; next_cursor: string | null } = (await call<{ items: Model[]; next_cursor: string | null }>(base, "GET", `/v1/models?dataset_id=${datasetId}&status=succeeded&limit=500${cursor ? `&cursor=${cursor}` : ""}`)).body;
    n += page.items.length;
    cursor = page.next_cursor;
  } while (cursor);
  return n;
}

async function predictThroughput(store: StoreKind): Promise<string[]> {
  const cluster = await Cluster.start({ apis: 2, trainers: 1, store });
  const rows: string[] = [];
  try {
    const [a, b] = cluster.apis.map((p) => p.base);
    const datasetId = await uploadCsv(a, "bc", breastCancerCsv);
    const modelId = await trainAndWait(a, { dataset_id: datasetId, algorithm: "cart", target: "target", seed: 0 });
    // The trainer has nothing left to do; stopped, it takes no CPU from the APIs.
    await cluster.kill(cluster.trainers[0]);
    const body = JSON.stringify({ rows: breastCancerRows(1) });
    const url = (base: string) => `${base}/v1/models/${modelId}/predict`;
    await Promise.all([load(url(a), body, 3), load(url(b), body, 3)]); // warm-up, not reported
    const one = await load(url(a), body, duration);
    rows.push(`| ${store} | 1 | ${one.rps.toFixed(0)} | ${one.p50} / ${one.p99} | ${load1()} |`);
    const two = await Promise.all([load(url(a), body, duration), load(url(b), body, duration)]);
    const total = two.reduce((s, r) => s + r.rps, 0);
    rows.push(`| ${store} | 2 | ${total.toFixed(0)} (${two.map((r) => r.rps.toFixed(0)).join(" + ")}) | ${two.map((r) => `${r.p50} / ${r.p99}`).join(", ")} | ${load1()} |`);
    return rows;
  } finally {
    await cluster.stop();
  }
}

/**
 * Sequential single-row predicts, alternating between two API processes on the same
 * store and models: one that must load the artifact for every request (cache of one
 * model, two models alternating) and one that has both cached. Interleaved, so both
 * see the same machine load. Medians and p90 in ms.
 */
async function missAndHit(missBase: string, hitBase: string, ids: string[], n: number, body: string) {
  const times = { miss: [] as number[], hit: [] as number[] };
  const once = async (base: string, id: string, into: number[]) => {
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/models/${id}/predict`, { method: "POST", headers: { "content-type": "application/json" }, body });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`predict answered ${res.status}`);
    into.push(performance.now() - t0);
  };
  for (let i = 0; i < n; i++) {
    await once(missBase, ids[i % 2], times.miss);
    await once(hitBase, ids[i % 2], times.hit);
  }
  const stats = (t: number[]) => {
    t.sort((x, y) => x - y);
    return { p50: t[Math.floor(t.length / 2)], p90: t[Math.floor(t.length * 0.9)] };
  };
  return { miss: stats(times.miss), hit: stats(times.hit) };
}

async function cacheMiss(store: StoreKind): Promise<string> {
  const cluster = await Cluster.start({ apis: 1, trainers: 1, store, env: { XIGUA_MODEL_CACHE: "1" } });
  try {
    const missBase = cluster.apis[0].base;
    const hitBase = (await cluster.addApi({ XIGUA_MODEL_CACHE: "64" })).base;
    const datasetId = await uploadCsv(missBase, "bc", breastCancerCsv);
    const ids = [await trainAndWait(missBase, { dataset_id: datasetId, algorithm: "cart", target: "target", seed: 0 }), await trainAndWait(missBase, { dataset_id: datasetId, algorithm: "cart", target: "target", seed: 1 })];
    await cluster.kill(cluster.trainers[0]);
    const body = JSON.stringify({ rows: breastCancerRows(1) });
    await missAndHit(missBase, hitBase, ids, 100, body); // warm-up
    const { miss, hit } = await missAndHit(missBase, hitBase, ids, 2000, body);
    const size = (await (await fetch(`${missBase}/v1/models/${ids[0]}/artifact`)).arrayBuffer()).byteLength;
    return `| ${store} | ${miss.p50.toFixed(2)} / ${miss.p90.toFixed(2)} | ${hit.p50.toFixed(2)} / ${hit.p90.toFixed(2)} | ${(miss.p50 - hit.p50).toFixed(2)} | ${size} | ${load1()} |`;
  } finally {
    await cluster.stop();
  }
}

console.log(`${new Date().toISOString()}, Node ${process.version}, load average at start ${load1()}`);
if (parts.includes("jobs")) {
  console.log("\n| store | trainers | jobs | seconds | jobs/s | per trainer | load (1 min) |\n| --- | ---: | ---: | ---: | ---: | --- | ---: |");
  for (const store of stores) for (const trainers of [1, 2]) console.log(await jobThroughput(trainers, store));
}
if (parts.includes("predict")) {
  console.log(`\n| store | API processes | req/s | p50 / p99 ms | load (1 min) |\n| --- | ---: | ---: | --- | ---: |`);
  for (const store of stores) for (const row of await predictThroughput(store)) console.log(row);
}
if (parts.includes("miss")) {
  console.log("\n| store | miss p50 / p90 ms | hit p50 / p90 ms | miss − hit p50 ms | artifact bytes | load (1 min) |\n| --- | --- | --- | ---: | ---: | ---: |");
  for (const store of stores) console.log(await cacheMiss(store));
}
