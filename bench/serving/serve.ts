/**
 * Serving benchmark: single-row POST /v1/models/{id}/predict on a CART model
 * trained on breast cancer (569 × 30), autocannon with 20 connections for 10 s
 * on loopback, against a bare Fastify route that parses the same body and
 * returns a constant, in the same run. Each server runs in its own process.
 *
 *   node --import tsx bench/serving/serve.ts [--duration 10]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { breastCancerRows, load, loadWithCpu, startServer, stopServer, trainCart } from "./harness.js";

const duration = Number(process.argv[process.argv.indexOf("--duration") + 1]) || 10;
const dir = mkdtempSync(join(tmpdir(), "xigua-bench-"));
const body = JSON.stringify({ rows: breastCancerRows(1) });

const xigua = await startServer("bench/serving/server-xigua.ts", 18080, { XIGUA_DB: join(dir, "bench.db") });
const predictUrl = await trainCart("http://127.0.0.1:18080");
await load(predictUrl, body, duration); // warm-up pass is not reported
const x = await loadWithCpu(xigua, predictUrl, body, duration);
await stopServer(xigua);

const bare = await startServer("bench/serving/server-bare.ts", 18081);
await load("http://127.0.0.1:18081/predict", body, duration);
const b = await loadWithCpu(bare, "http://127.0.0.1:18081/predict", body, duration);
await stopServer(bare);
rmSync(dir, { recursive: true, force: true });

const table = [
  ["server", "req/s", "p50 ms", "p99 ms", "CPU µs/req"],
  ["bare Fastify (parse body, constant)", b.rps.toFixed(0), String(b.p50), String(b.p99), b.cpuMicros.toFixed(1)],
  ["xigua predict (cart, 1 row)", x.rps.toFixed(0), String(x.p50), String(x.p99), x.cpuMicros.toFixed(1)],
];
for (const r of table) console.log(r.map((c, i) => (i === 0 ? c.padEnd(38) : c.padStart(i === 4 ? 12 : 8))).join(""));
console.log(`xigua / bare = ${(x.rps / b.rps).toFixed(2)} by rate, ${(b.cpuMicros / x.cpuMicros).toFixed(2)} by server CPU per request (target ≥ 0.75), ${duration} s each, 20 connections`);
console.log(`load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
