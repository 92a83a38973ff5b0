/**
 * Issue 10 item 9: p99 of concurrent single-row predicts while 100k-row batches run.
 * CART on breast cancer; autocannon sends single rows (20 connections) for
 * --duration seconds, first alone, then while another process posts 100k-row
 * batches (75 MB bodies) back to back. Reports the single-row latencies, the
 * server's event-loop delay (monitorEventLoopDelay, in the server process) and
 * the batches' own times.
 *
 *   node --import tsx bench/serving/batch-under-load.ts [--duration 20] [--rows 100000]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { breastCancerRows, eventLoopDelay, load, startServer, stopServer, trainCart } from "./harness.js";

const arg = (name: string, fallback: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) || fallback;
const duration = arg("duration", 20);
const batchRows = arg("rows", 100_000);
const dir = mkdtempSync(join(tmpdir(), "xigua-bench-"));
const single = JSON.stringify({ rows: breastCancerRows(1) });
const batchFile = join(dir, "batch.json");
writeFileSync(batchFile, JSON.stringify({ rows: breastCancerRows(batchRows) }));

console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
const server = await startServer("bench/serving/server-xigua.ts", 18082, { XIGUA_DB: join(dir, "bench.db") });
const url = await trainCart("http://127.0.0.1:18082");

// The batch client is its own process, so its sending and reading do not slow autocannon's loop.
const clientCode = `
const body = require("node:fs").readFileSync(process.env.BATCH_FILE);
(async () => {
  for (;;) {
    const t0 = performance.now();
    const res = await fetch(process.env.URL, { method: "POST", headers: { "content-type": "application/json" }, body });
    const bytes = (await res.arrayBuffer()).byteLength;
    if (res.status !== 200) { console.error("batch", res.status, new TextDecoder().decode(bytes)); process.exit(1); }
    console.log("batch", (performance.now() - t0).toFixed(0), bytes);
  }
})();`;

await load(url, single, 5); // warm-up, not reported
await eventLoopDelay(server);
const alone = await load(url, single, duration);
const aloneDelay = await eventLoopDelay(server);

const batches: number[] = [];
const client = spawn(process.execPath, ["-e", clientCode], { env: { ...process.env, URL: url, BATCH_FILE: batchFile }, stdio: ["ignore", "pipe", "inherit"] });
client.stdout.on("data", (d: Buffer) => {
  for (const m of d.toString().matchAll(/batch (\d+)/g)) batches.push(Number(m[1]));
});
// Let the first batch reach the server (and the compute thread start) before measuring.
while (batches.length === 0) await new Promise((r) => setTimeout(r, 100));
await eventLoopDelay(server);
const during = await load(url, single, duration);
const duringDelay = await eventLoopDelay(server);
client.kill();
await stopServer(server);
rmSync(dir, { recursive: true, force: true });

const table = [
  ["single-row predicts (20 connections)", "req/s", "p50 ms", "p99 ms", "max ms", "loop p99", "loop max"],
  ["alone", alone.rps.toFixed(0), alone.p50, alone.p99, alone.max, aloneDelay.p99, aloneDelay.max],
  [`while ${batchRows}-row batches run`, during.rps.toFixed(0), during.p50, during.p99, during.max, duringDelay.p99, duringDelay.max],
];
for (const r of table) console.log(r.map((c, i) => (i === 0 ? String(c).padEnd(38) : String(c).padStart(9))).join(""));
const measured = batches.slice(1);
console.log(`${batchRows}-row batches: ${batches.length} done, ${measured.length ? (measured.reduce((a, b) => a + b, 0) / measured.length).toFixed(0) : "?"} ms each (client round trip, 75 MB body); ${duration} s per phase`);
console.log(`load average at end: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
