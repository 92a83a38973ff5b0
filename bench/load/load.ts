/**
 * Mixed traffic against one server (issue 14, "Tests and load"): the real server as
 * `npm start` runs it (from source under tsx), in a child process, on the embedded
 * defaults (SQLite, in-process training pool). For `--duration` seconds at once:
 *
 *   - single-row predicts on a CART model, 20 connections (autocannon)
 *   - CSV uploads of breast cancer (569 × 31, 120 KB), each deleted after, one client
 *   - training jobs (cart on breast cancer): POST, poll until done, delete, one client
 *   - evaluation list polls with If-None-Match (304 while nothing changed), two clients
 *
 * Then, with `--soak S`, the same mix for S more seconds, and the server's RSS (read
 * from its own GET /metrics: process_resident_memory_bytes) before and after. Reports
 * per route: requests, throughput, p50/p99, and errors (anything but 2xx/304, with 429
 * and 503 counted apart: they are the server saying "later", not failing).
 *
 *   node --import tsx bench/load/load.ts [--duration 60] [--soak 600] [--port 18480]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "60" },
    soak: { type: "string", default: "0" },
    port: { type: "string", default: "18480" },
  },
});
const DURATION_S = Number(args.duration);
const SOAK_S = Number(args.soak);
const PORT = Number(args.port);
const BASE = `http://127.0.0.1:${PORT}`;
const root = new URL("../../", import.meta.url);
const csv = readFileSync(new URL("../../test/fixtures/breast-cancer.csv", import.meta.url));

interface RouteStats {
  latencies: number[];
  byStatus: Map<number, number>;
  /** Requests that failed below HTTP (connection refused, reset). */
  failures: number;
}

const stats = new Map<string, RouteStats>();

function record(route: string, status: number | null, ms: number): void {
  let s = stats.get(route);
  if (!s) stats.set(route, (s = { latencies: [], byStatus: new Map(), failures: 0 }));
  if (status === null) s.failures++;
  else {
    s.latencies.push(ms);
    s.byStatus.set(status, (s.byStatus.get(status) ?? 0) + 1);
  }
}

/** One request, timed and recorded under `route`; the response, or null when it failed below HTTP. */
async function timed(route: string, url: string, init: RequestInit = {}): Promise<Response | null> {
  const start = performance.now();
  try {
    const res = await fetch(url, init);
    const body = await res.arrayBuffer();
    record(route, res.status, performance.now() - start);
    return Object.assign(res, { bodyBytes: body });
  } catch {
    record(route, null, performance.now() - start);
    return null;
  }
}

const json = async (res: Response | null): Promise<Record<string, unknown>> => JSON.parse(Buffer.from((res as unknown as { bodyBytes: ArrayBuffer }).bodyBytes).toString());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startServer(dbPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", XIGUA_DB: dbPath, LOG_LEVEL: "warn", XIGUA_RATE_PER_MINUTE: process.env.XIGUA_RATE_PER_MINUTE ?? "1000000000" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${BASE}/health/ready`)).ok) return child;
    } catch {
      /* not listening yet */
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error("server did not become ready");
    await sleep(100);
  }
}

async function rssMiB(): Promise<number> {
  const text = await (await fetch(`${BASE}/metrics`)).text();
  const m = /^process_resident_memory_bytes (\S+)$/m.exec(text);
  return Number(m![1]) / 1024 / 1024;
}

async function until(done: () => boolean, body: () => Promise<void>): Promise<void> {
  while (!done()) await body();
}

async function waitForJob(url: string, route: string): Promise<Record<string, unknown>> {
  for (;;) {
    const body = await json(await timed(route, url));
    if (body.status !== "queued" && body.status !== "running") return body;
    await sleep(100);
  }
}

/** Everything but the autocannon predicts, until `stop()` is true. */
function mixedClients(stop: () => boolean, datasetId: string): Promise<unknown>[] {
  const uploads = until(stop, async () => {
    const res = await timed("POST /v1/datasets (CSV)", `${BASE}/v1/datasets?name=load`, { method: "POST", headers: { "content-type": "text/csv" }, body: csv });
    if (res?.status === 201) await timed("DELETE /v1/datasets/:id", `${BASE}/v1/datasets/${(await json(res)).id}`, { method: "DELETE" });
    else await sleep(200);
  });
  const training = until(stop, async () => {
    const res = await timed("POST /v1/models", `${BASE}/v1/models`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ dataset_id: datasetId, algorithm: "cart", target: "target", seed: 0 }),
    });
    if (res?.status !== 202) return void (await sleep(200));
    const id = (await json(res)).id as string;
    await waitForJob(`${BASE}/v1/models/${id}`, "GET /v1/models/:id");
    await timed("DELETE /v1/models/:id", `${BASE}/v1/models/${id}`, { method: "DELETE" });
  });
  const poll = async () => {
    let etag: string | null = null;
    await until(stop, async () => {
      const res = await timed("GET /v1/evaluations (ETag)", `${BASE}/v1/evaluations?dataset_id=${datasetId}&limit=20`, { headers: etag ? { "if-none-match": etag } : {} });
      etag = res?.headers.get("etag") ?? etag;
      await sleep(50);
    });
  };
  return [uploads, training, poll(), poll()];
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

interface Row {
  route: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: string;
  busy: number;
  errors: number;
}

function summarise(seconds: number, predict: autocannon.Result): Row[] {
  const rows: Row[] = [];
  const predictBusy = (predict.statusCodeStats as Record<string, { count: number }>)["429"]?.count ?? 0;
  const predict503 = (predict.statusCodeStats as Record<string, { count: number }>)["503"]?.count ?? 0;
  rows.push({
    route: "POST /v1/models/:id/predict (1 row, 20 conn.)",
    requests: predict.requests.total,
    rps: predict.requests.total / seconds,
    p50: predict.latency.p50,
    p99: predict.latency.p99,
    statuses: Object.entries(predict.statusCodeStats as Record<string, { count: number }>)
      .map(([code, s]) => `${code}×${s.count}`)
      .join(" "),
    busy: predictBusy + predict503,
    errors: predict.non2xx - predictBusy - predict503 + predict.errors,
  });
  for (const [route, s] of stats) {
    const sorted = [...s.latencies].sort((a, b) => a - b);
    const count = (code: number) => s.byStatus.get(code) ?? 0;
    const busy = count(429) + count(503);
    const ok = [...s.byStatus].filter(([code]) => (code >= 200 && code < 300) || code === 304).reduce((a, [, n]) => a + n, 0);
    rows.push({
      route,
      requests: sorted.length + s.failures,
      rps: (sorted.length + s.failures) / seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      statuses: [...s.byStatus].map(([code, n]) => `${code}×${n}`).join(" "),
      busy,
      errors: sorted.length - ok - busy + s.failures,
    });
  }
  return rows;
}

function table(rows: Row[]): string {
  const lines = ["| route | requests | req/s | p50 ms | p99 ms | statuses | 429/503 | errors |", "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |"];
  for (const r of rows) lines.push(`| ${r.route} | ${r.requests} | ${r.rps.toFixed(1)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.statuses} | ${r.busy} | ${r.errors} |`);
  return lines.join("\n");
}

/** One phase of mixed traffic: the predicts at 20 connections and the other clients, for `seconds`. */
async function phase(seconds: number, predictUrl: string, datasetId: string): Promise<Row[]> {
  stats.clear();
  let stopped = false;
  const others = mixedClients(() => stopped, datasetId);
  const predict = await autocannon({ url: predictUrl, method: "POST", connections: 20, duration: seconds, headers: { "content-type": "application/json" }, body: JSON.stringify({ rows: [predictRow] }) });
  stopped = true;
  await Promise.all(others);
  return summarise(seconds, predict);
}

let predictRow: Record<string, number> = {};

const dir = mkdtempSync(join(tmpdir(), "xigua-load-"));
const load = () => loadavg().map((l) => l.toFixed(2)).join(", ");
console.log(`load average before: ${load()}`);
const server = await startServer(join(dir, "xigua.db"));
try {
  const ds = await json(await timed("setup", `${BASE}/v1/datasets?name=bc`, { method: "POST", headers: { "content-type": "text/csv" }, body: csv }));
  const model = await json(
    await timed("setup", `${BASE}/v1/models`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ dataset_id: ds.id, algorithm: "cart", target: "target", seed: 0 }) }),
  );
  if ((await waitForJob(`${BASE}/v1/models/${model.id}`, "setup")).status !== "succeeded") throw new Error("the setup model did not train");
  // An evaluation for the pollers to watch (cross-validated, so there is something to list).
  await timed("setup", `${BASE}/v1/evaluations`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ dataset_id: ds.id, algorithm: "cart", target: "target", validation: { method: "kfold", k: 5 } }) });
  const lines = csv.toString().trim().split("\n");
  const header = lines[0].split(",").slice(0, 30);
  predictRow = Object.fromEntries(header.map((h, j) => [h, Number(lines[1].split(",")[j])]));
  const predictUrl = `${BASE}/v1/models/${model.id}/predict`;

  const rssStart = await rssMiB();
  const main = await phase(DURATION_S, predictUrl, ds.id as string);
  const rssAfterMain = await rssMiB();
  console.log(`\n## ${DURATION_S} s of mixed traffic (load average after: ${load()})\n`);
  console.log(table(main));
  console.log(`\nRSS: ${rssStart.toFixed(1)} MiB idle after setup → ${rssAfterMain.toFixed(1)} MiB after the run`);
  const errors = main.reduce((a, r) => a + r.errors, 0);
  console.log(`errors other than 429/503: ${errors}`);

  if (SOAK_S > 0) {
    // RSS every 30 s of the soak: growth that levels off is warm-up, growth that keeps its slope is a leak.
    const samples: string[] = [];
    const sampler = setInterval(() => void rssMiB().then((mib) => samples.push(mib.toFixed(1)), () => undefined), 30_000);
    const soak = await phase(SOAK_S, predictUrl, ds.id as string);
    clearInterval(sampler);
    const rssAfterSoak = await rssMiB();
    console.log(`\n## soak: ${SOAK_S} s more of the same mix (load average after: ${load()})\n`);
    console.log(table(soak));
    const growth = ((rssAfterSoak - rssAfterMain) / rssAfterMain) * 100;
    console.log(`\nRSS before the soak ${rssAfterMain.toFixed(1)} MiB → after ${rssAfterSoak.toFixed(1)} MiB: ${growth >= 0 ? "+" : ""}${growth.toFixed(1)} %`);
    console.log(`RSS every 30 s of the soak, MiB: ${samples.join(", ")}`);
    console.log(`errors other than 429/503 during the soak: ${soak.reduce((a, r) => a + r.errors, 0)}`);
  }
} finally {
  await new Promise((r) => {
    server.once("exit", r);
    server.kill("SIGTERM");
  });
  rmSync(dir, { recursive: true, force: true });
}
