/**
 * Ingestion over HTTP: POST /v1/datasets of a 100,000 × 20 numeric CSV (six
 * decimals) to the compiled server (`npm run build` first), time to 201, and the
 * server's peak RSS (VmHWM) before and after, beside pandas.read_csv of the same file.
 *
 *   npm run build && node --import tsx bench/ingestion/http.ts
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROWS = 100_000;
const COLS = 20;
const dir = mkdtempSync(join(tmpdir(), "xigua-ingest-http-"));
const csvPath = join(dir, "data.csv");

// The same fixed pseudo-random sequence every run.
let state = 12345;
const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
const lines = [Array.from({ length: COLS }, (_, j) => `x${j}`).join(",")];
for (let i = 0; i < ROWS; i++) lines.push(Array.from({ length: COLS }, () => (next() * 200 - 100).toFixed(6)).join(","));
writeFileSync(csvPath, lines.join("\n") + "\n");
const csv = readFileSync(csvPath);
const mib = (b: number) => b / 1024 / 1024;

function vmHwm(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

const port = 18090;
const server = spawn(process.execPath, ["dist/server/main.js"], {
  cwd: new URL("../../", import.meta.url),
  env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", XIGUA_DB: join(dir, "x.db"), LOG_LEVEL: "warn", XIGUA_WORKERS: "1", XIGUA_RATE_PER_MINUTE: "1000000000" },
  stdio: "inherit",
});
for (;;) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/health/ready`)).ok) break;
  } catch {
    /* starting */
  }
  await new Promise((r) => setTimeout(r, 100));
}
const atRest = vmHwm(server.pid!);
const times: number[] = [];
for (let i = 0; i < Number(process.env.UPLOADS ?? 3); i++) {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/v1/datasets?name=bench${i}`, { method: "POST", headers: { "content-type": "text/csv" }, body: csv });
  if (res.status !== 201) throw new Error(`${res.status} ${await res.text()}`);
  times.push(performance.now() - started);
}
const peak = vmHwm(server.pid!);
server.kill("SIGTERM");

const py = spawnSync("/usr/bin/python3", ["-c", `import time,pandas\nbest=9e9\nfor _ in range(3):\n  t=time.perf_counter(); pandas.read_csv(${JSON.stringify(csvPath)}); best=min(best,time.perf_counter()-t)\nprint(best*1000)`], { encoding: "utf8" });
const pandasMs = py.status === 0 ? Number(py.stdout.trim()) : NaN;
rmSync(dir, { recursive: true, force: true });

const best = Math.min(...times);
console.log(`CSV ${mib(csv.length).toFixed(1)} MiB, ${ROWS} × ${COLS}`);
console.log(`POST /v1/datasets → 201: best ${best.toFixed(0)} ms of ${times.length} (${times.map((t) => t.toFixed(0)).join(", ")})`);
console.log(`pandas.read_csv: ${Number.isNaN(pandasMs) ? "n/a" : pandasMs.toFixed(0) + " ms"}; ratio ${(best / pandasMs).toFixed(2)} (target ≤ 2)`);
console.log(`server peak RSS ${mib(peak).toFixed(0)} MiB = ${(peak / csv.length).toFixed(2)} × CSV (target ≤ 4); at rest ${mib(atRest).toFixed(0)} MiB; upload adds ${mib(peak - atRest).toFixed(0)} MiB = ${((peak - atRest) / csv.length).toFixed(2)} × CSV`);
