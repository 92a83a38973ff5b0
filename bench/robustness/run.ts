/**
 * Robustness bench (issue 10): the server's largest event-loop delay, and the p99
 * of concurrent single-row predicts, while each heavy request runs against it.
 *
 *   run.ts ──fork──▶ server.ts (buildApp + listen on 127.0.0.1, temp SQLite; loop delay over IPC)
 *          ──fork──▶ prober.ts (4 paced single-row predict loops, own process)
 *          ──fetch──▶ one load at a time: idle, 100 MB CSV upload, a page of its rows,
 *                     100k-row predict, explain of a ~25k-node tree, 1000-candidate search
 *
 *   node --import tsx bench/robustness/run.ts [--upload-mb 100] [--only idle,upload,rows,predict,explain,search] [--profile DIR]
 *
 * Loopback only; every loop is bounded, and a watchdog ends the run after 10 minutes.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, totalmem, tmpdir } from "node:os";
import { join } from "node:path";

const TARGET_MS = 50;
const WATCHDOG_MS = 10 * 60_000;
const uploadMb = Number(process.argv[process.argv.indexOf("--upload-mb") + 1]) || 100;
const profileArg = process.argv.indexOf("--profile");
/** Where the server writes its CPU profile (--cpu-prof), to see what held its loop. */
const profileDir = profileArg > 0 ? process.argv[profileArg + 1] : null;
const LOADS = ["idle", "upload", "rows", "predict", "explain", "search"];

type Json = Record<string, unknown>;
interface Row {
  load: string;
  seconds: number;
  loopMaxMs: number;
  loopP99Ms: number;
  predicts: number;
  failures: number;
  p50: number;
  p99: number;
  loadavg: string;
}

const began = performance.now();
const dir = mkdtempSync(join(tmpdir(), "xigua-robustness-"));
const watchdog = setTimeout(() => {
  console.error("robustness bench: watchdog fired after 10 minutes");
  process.exit(2);
}, WATCHDOG_MS);

function ask<T extends Json>(child: ChildProcess, type: string, reply: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (m: Json) => {
      if (m.type !== reply) return;
      child.off("message", onMessage);
      resolve(m as T);
    };
    child.on("message", onMessage);
    child.send({ type });
  });
}

const children: ChildProcess[] = [];
process.on("exit", () => children.forEach((c) => c.kill("SIGKILL")));

function start(script: string, env: Record<string, string>, flags: string[] = []): { child: ChildProcess; ready: Promise<Json> } {
  const child = fork(new URL(script, import.meta.url), [], { execArgv: ["--import", "tsx", ...flags], env: { ...process.env, ...env } });
  children.push(child);
  const ready = new Promise<Json>((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`${script} exited ${code}`)));
  });
  return { child, ready };
}

const started = start("./server.ts", { XIGUA_DB: join(dir, "bench.db") }, profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []);
const server = started.child;
const { port, workers } = (await started.ready) as { port: number; workers: number };
const base = `http://127.0.0.1:${port}/v1`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function call(method: string, path: string, body?: string | Buffer, type = "application/json"): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${base}${path}`, { method, ...(body !== undefined ? { body, headers: { "content-type": type } } : {}) });
  const text = await res.text();
  return { status: res.status, json: text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : { text } };
}

async function expect(status: number, what: string, p: Promise<{ status: number; json: Json }>): Promise<Json> {
  const res = await p;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`);
  return res.json;
}

async function settled(path: string): Promise<Json> {
  for (let i = 0; i < 1200; i++) {
    const r = await expect(200, path, call("GET", path));
    if (r.status !== "queued" && r.status !== "running") return r;
    await sleep(50);
  }
  throw new Error(`${path} did not settle in 60 s`);
}

/** A deterministic generator, so every run uploads the same bytes. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function csv(header: string[], rows: number, row: (i: number) => (string | number)[]): string {
  const lines = [header.join(",")];
  for (let i = 0; i < rows; i++) lines.push(row(i).join(","));
  return lines.join("\n") + "\n";
}

async function trainedModel(name: string, text: string, spec: Json): Promise<string> {
  console.error(`setup: ${name}`);
  const ds = await expect(201, `upload ${name}`, call("POST", `/datasets?name=${name}`, text, "text/csv"));
  const model = await expect(202, `train ${name}`, call("POST", "/models", JSON.stringify({ dataset_id: ds.id, ...spec })));
  const done = await settled(`/models/${model.id}`);
  if (done.status !== "succeeded") throw new Error(`${name}: ${JSON.stringify(done.error)}`);
  return model.id as string;
}

/** Single-digit cells, so 100 MB carries ≈ 50M cells (the issue's page-of-rows dataset). */
function digitsCsv(megabytes: number): { body: Buffer; cells: number } {
  const columns = 25;
  const header = Buffer.from(Array.from({ length: columns }, (_, j) => `c${j}`).join(",") + "\n");
  const rowBytes = columns * 2;
  const rows = Math.floor((megabytes * 1e6 - header.length) / rowBytes);
  const rnd = lcg(7);
  const patterns = Array.from({ length: 997 }, () => Buffer.from(Array.from({ length: columns }, () => Math.floor(rnd() * 10)).join(",") + "\n"));
  const body = Buffer.allocUnsafe(header.length + rows * rowBytes);
  header.copy(body, 0);
  for (let i = 0; i < rows; i++) patterns[i % patterns.length].copy(body, header.length + i * rowBytes);
  return { body, cells: rows * columns };
}

// ---- setup: a classifier for predicts and searches, a ~25k-node regression tree for explain
const rnd = lcg(1);
const features = Array.from({ length: 10 }, (_, j) => `x${j}`);
const classText = csv([...features, "class"], 2000, () => {
  const x = features.map(() => Math.round(rnd() * 1000) / 100);
  return [...x, x[0] + x[1] + rnd() * 3 > 11.5 ? "yes" : "no"];
});
const classifier = await trainedModel("classifier", classText, { algorithm: "cart", target: "class", params: { max_depth: 8 }, seed: 0 });
const treeRows = 16_700;
const treeText = csv(["a", "b", "c", "y"], treeRows, () => [rnd(), rnd(), rnd(), rnd()]);
const bigTree = await trainedModel("big-tree", treeText, { algorithm: "cart", target: "y", seed: 0 });
const classifierDataset = ((await expect(200, "model", call("GET", `/models/${classifier}`))) as { dataset_id: string }).dataset_id;

const oneRow = JSON.stringify({ rows: [Object.fromEntries(features.map((f, j) => [f, j / 2]))] });
const prober = start("./prober.ts", { PROBE_URL: `${base}/models/${classifier}/predict`, PROBE_BODY: oneRow }).child;

const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

const rows: Row[] = [];
async function measure(load: string, work: () => Promise<void>): Promise<void> {
  await sleep(1000); // let the previous load's tail drain
  await ask(server, "reset", "reset");
  await ask(prober, "start", "started");
  const t0 = performance.now();
  await work();
  const seconds = (performance.now() - t0) / 1000;
  const delay = await ask<{ max: number; p99: number }>(server, "read", "delay");
  const { latencies, failures } = await ask<{ latencies: number[]; failures: number }>(prober, "stop", "stopped");
  const row: Row = {
    load,
    seconds,
    loopMaxMs: delay.max,
    loopP99Ms: delay.p99,
    predicts: latencies.length,
    failures,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    loadavg: loadavg().map((l) => l.toFixed(2)).join(" "),
  };
  rows.push(row);
  console.error(`${load}: ${seconds.toFixed(1)} s, loop max ${delay.max.toFixed(1)} ms, predict p99 ${row.p99.toFixed(1)} ms (${latencies.length}, ${failures} failed), load ${row.loadavg}`);
}

const only = new Set((process.argv[process.argv.indexOf("--only") + 1] ?? "").split(",").filter((k) => LOADS.includes(k)));
const selected = (key: string) => only.size === 0 || only.has(key);
const notes: string[] = [];

if (selected("idle")) await measure("idle (prober only, 3 s)", () => sleep(3000));

if (selected("upload") || selected("rows")) {
  const upload = digitsCsv(uploadMb);
  let bigDataset = "";
  await measure(`${uploadMb} MB CSV upload (${(upload.cells / 1e6).toFixed(1)}M cells)`, async () => {
    bigDataset = (await expect(201, "upload", call("POST", "/datasets?name=digits", upload.body, "text/csv"))).id as string;
  });
  if (selected("rows")) {
    await measure(`3 pages of 50 rows from that dataset`, async () => {
      const total = upload.cells / 25;
      for (const offset of [0, Math.floor(total / 2), total - 50]) await expect(200, "rows", call("GET", `/datasets/${bigDataset}/rows?offset=${offset}&limit=50`));
    });
  }
}

if (selected("predict")) {
  const batch = JSON.stringify({ rows: Array.from({ length: 100_000 }, (_, i) => Object.fromEntries(features.map((f, j) => [f, ((i * 7 + j * 13) % 1000) / 100]))) });
  await measure("100k-row predict", async () => {
    const r = await expect(200, "batch predict", call("POST", `/models/${classifier}/predict`, batch));
    if ((r.predictions as unknown[]).length !== 100_000) throw new Error("batch predict: wrong length");
  });
}

if (selected("explain")) {
  await measure("explain (json) of the big tree", async () => {
    notes.push(`big tree: ${(await expect(200, "explain", call("GET", `/models/${bigTree}/explain`))).node_count} nodes`);
  });
}

if (selected("search")) {
  let searchId = "";
  await measure("1000-candidate search: submit + 3 s of candidates", async () => {
    const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    const sent = performance.now();
    const body = {
      dataset_id: classifierDataset,
      algorithm: "cart",
      target: "class",
      method: "random",
      n_iter: 1000,
      param_distributions: { max_depth: range(20), min_samples_leaf: range(100) },
      validation: { method: "holdout" },
      refit: false,
      seed: 1,
    };
    searchId = (await expect(202, "search", call("POST", "/searches", JSON.stringify(body)))).id as string;
    notes.push(`search answered 202 in ${(performance.now() - sent).toFixed(0)} ms`);
    await sleep(3000);
  });
  const progress = ((await expect(200, "search", call("GET", `/searches/${searchId}`))) as { progress: number }).progress;
  notes.push(`${(progress * 100).toFixed(1)} % of its candidates done after 3 s`);
  await expect(202, "cancel search", call("POST", `/searches/${searchId}/cancel`));
}

await new Promise((r) => prober.once("exit", r).send({ type: "exit" }));
await new Promise((r) => server.once("exit", r).send({ type: "stop" }));
rmSync(dir, { recursive: true, force: true });
clearTimeout(watchdog);

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "–");
const ok = (x: number) => (x <= TARGET_MS ? "yes" : "**no**");
console.log(`\nNode ${process.version}, ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, server workers ${workers}; ${notes.join("; ")}; whole run ${((performance.now() - began) / 1000).toFixed(0)} s\n`);
console.log("| load | s | max loop delay ms | loop p99 ms | predicts (failed) | predict p50 ms | predict p99 ms | ≤ 50 ms (loop / p99) | loadavg 1/5/15 min |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | :---: | --- |");
for (const r of rows) {
  console.log(`| ${r.load} | ${r.seconds.toFixed(1)} | ${fmt(r.loopMaxMs)} | ${fmt(r.loopP99Ms)} | ${r.predicts} (${r.failures}) | ${fmt(r.p50)} | ${fmt(r.p99)} | ${ok(r.loopMaxMs)} / ${ok(r.p99)} | ${r.loadavg} |`);
}
