/**
 * Serving benchmark: single-row POST /v1/models/{id}/predict on a CART model
 * trained on breast cancer (569 × 30), autocannon with 20 connections for 10 s
 * on loopback, against a bare Fastify route that parses the same body and
 * returns a constant, in the same run. Each server runs in its own process.
 *
 *   node --import tsx bench/serving/serve.ts [--duration 10]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";

const duration = Number(process.argv[process.argv.indexOf("--duration") + 1]) || 10;
const root = new URL("../../", import.meta.url);

function startServer(script: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: root, env: { ...process.env, PORT: String(port), ...env }, stdio: ["ignore", "pipe", "inherit"] });
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("ready") && resolve(child));
    child.once("exit", (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

async function stopServer(child: ChildProcess) {
  await new Promise((r) => {
    child.removeAllListeners("exit");
    child.once("exit", r);
    child.kill("SIGTERM");
  });
}

async function load(url: string, body: string) {
  const result = await autocannon({ url, method: "POST", connections: 20, duration, headers: { "content-type": "application/json" }, body });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}

const dir = mkdtempSync(join(tmpdir(), "xigua-bench-"));
const csv = readFileSync(new URL("../../test/fixtures/breast-cancer.csv", import.meta.url));
const header = csv.toString().split("\n")[0].split(",");
const firstRow = csv.toString().split("\n")[1].split(",");
const row = Object.fromEntries(header.slice(0, 30).map((h, i) => [h, Number(firstRow[i])]));
const body = JSON.stringify({ rows: [row] });

const xigua = await startServer("bench/serving/server-xigua.ts", 18080, { XIGUA_DB: join(dir, "bench.db") });
const base = "http://127.0.0.1:18080";
const ds = (await (await fetch(`${base}/v1/datasets?name=bc`, { method: "POST", headers: { "content-type": "text/csv" }, body: csv })).json()) as { id: string };
type Model = { id: string; status: string };
let model = (await (
  await fetch(`${base}/v1/models`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ dataset_id: ds.id, algorithm: "cart", target: "target", seed: 0 }) })
).json()) as Model;
while (model.status === "queued" || model.status === "running") {
  await new Promise((r) => setTimeout(r, 50));
  model = (await (await fetch(`${base}/v1/models/${model.id}`)).json()) as Model;
}
if (model.status !== "succeeded") throw new Error(JSON.stringify(model));
const predictUrl = `${base}/v1/models/${model.id}/predict`;
await load(predictUrl, body); // warm-up pass is not reported
const x = await load(predictUrl, body);
await stopServer(xigua);

const bare = await startServer("bench/serving/server-bare.ts", 18081);
await load("http://127.0.0.1:18081/predict", body);
const b = await load("http://127.0.0.1:18081/predict", body);
await stopServer(bare);
rmSync(dir, { recursive: true, force: true });

const table = [
  ["server", "req/s", "p50 ms", "p99 ms"],
  ["bare Fastify (parse body, constant)", b.rps.toFixed(0), String(b.p50), String(b.p99)],
  ["xigua predict (cart, 1 row)", x.rps.toFixed(0), String(x.p50), String(x.p99)],
];
for (const r of table) console.log(r.map((c, i) => (i === 0 ? c.padEnd(38) : c.padStart(8))).join(""));
console.log(`xigua / bare = ${(x.rps / b.rps).toFixed(2)} (target ≥ 0.5), ${duration} s each, 20 connections`);
