/**
 * Ingestion over HTTP: POST /v1/datasets of a 100,000 × 20 numeric CSV (six
 * decimals) to the compiled server (`npm run build` first), time to 201, and the
 * server's peak RSS (VmHWM) at rest and after one upload, beside pandas.read_csv of
 * the same file, interleaved in one run.
 *
 *   npm run build && node --import tsx bench/ingestion/http.ts
 *   DISTS=dist-before,dist ROUNDS=5 node --import tsx bench/ingestion/http.ts   # compare two builds
 *   DISTS=dist,dist+--max-semi-space-size=2 node --import tsx bench/ingestion/http.ts   # node flags after a +
 *
 * Each round starts a fresh server per build (so every peak belongs to one upload),
 * waits for it to settle, reads VmRSS/VmHWM at rest, posts the file once, reads VmHWM.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";

const ROWS = 100_000;
const COLS = 20;
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const DISTS = (process.env.DISTS ?? "dist").split(",");
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
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ")[0];

function status(pid: number, field: string): number {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)![1]) * 1024;
}
/** utime + stime of a process, ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

let port = 18090;
/** A build's folder, optionally with node flags after a "+" (dist+--max-semi-space-size=2). */
async function start(variant: string): Promise<{ server: ChildProcess; port: number }> {
  port++;
  const [dist, ...flags] = variant.split("+");
  const server = spawn(process.execPath, [...flags, `${dist}/server/main.js`], {
    cwd: new URL("../../", import.meta.url),
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", XIGUA_DB: join(dir, `${port}.db`), LOG_LEVEL: "warn", XIGUA_WORKERS: "1", XIGUA_RATE_PER_MINUTE: "1000000000" },
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
  // Let start-up garbage and lazy timers settle before reading the resting RSS.
  await new Promise((r) => setTimeout(r, 1500));
  return { server, port };
}

interface Sample {
  ms: number;
  cpu: number;
  rest: number;
  restHwm: number;
  peak: number;
  load: string;
}
const samples = new Map<string, Sample[]>(DISTS.map((d) => [d, []]));
const pandas: { ms: number; cpu: number; load: string }[] = [];

for (let round = 0; round < ROUNDS; round++) {
  for (const dist of DISTS) {
    const { server, port } = await start(dist);
    const pid = server.pid!;
    const rest = status(pid, "VmRSS");
    const restHwm = status(pid, "VmHWM");
    const cpu0 = cpuMs(pid);
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/v1/datasets?name=bench`, { method: "POST", headers: { "content-type": "text/csv" }, body: csv });
    if (res.status !== 201) throw new Error(`${res.status} ${await res.text()}`);
    const ms = performance.now() - started;
    const cpu = cpuMs(pid) - cpu0;
    const peak = status(pid, "VmHWM");
    samples.get(dist)!.push({ ms, cpu, rest, restHwm, peak, load: load() });
    await new Promise<void>((resolve) => {
      server.once("exit", () => resolve());
      server.kill("SIGTERM");
    });
  }
  const py = spawnSync(
    "/usr/bin/python3",
    ["-c", `import time,pandas\nt=time.perf_counter(); c=time.process_time(); pandas.read_csv(${JSON.stringify(csvPath)}); print((time.perf_counter()-t)*1000, (time.process_time()-c)*1000)`],
    { encoding: "utf8" },
  );
  if (py.status === 0) {
    const [ms, cpu] = py.stdout.trim().split(" ").map(Number);
    pandas.push({ ms, cpu, load: load() });
  }
}
rmSync(dir, { recursive: true, force: true });

const best = <T>(xs: T[], key: (x: T) => number) => xs.reduce((a, b) => (key(b) < key(a) ? b : a));
const pandasBest = pandas.length ? best(pandas, (p) => p.ms) : undefined;
console.log(`${new Date().toISOString()}, ${cpus().length} cores, Node ${process.version}; CSV ${mib(csv.length).toFixed(1)} MiB, ${ROWS} × ${COLS}, ${ROUNDS} rounds (fresh server per upload)`);
console.log(`pandas.read_csv: ${pandas.map((p) => `${p.ms.toFixed(0)}/${p.cpu.toFixed(0)} ms @${p.load}`).join(", ")}`);
for (const [dist, xs] of samples) {
  const b = best(xs, (x) => x.ms);
  console.log(`\n${dist}:`);
  for (const x of xs) {
    console.log(
      `  201 in ${x.ms.toFixed(0)} ms (server CPU ${x.cpu.toFixed(0)} ms); rest ${mib(x.rest).toFixed(0)} MiB (HWM ${mib(x.restHwm).toFixed(0)}); peak ${mib(x.peak).toFixed(0)} MiB; added ${mib(x.peak - x.rest).toFixed(0)} MiB = ${((x.peak - x.rest) / csv.length).toFixed(2)} × CSV; load ${x.load}`,
    );
  }
  if (pandasBest) console.log(`  best ${b.ms.toFixed(0)} ms → ${(b.ms / pandasBest.ms).toFixed(2)} × pandas best (${pandasBest.ms.toFixed(0)} ms); median added ${mib(median(xs.map((x) => x.peak - x.rest))).toFixed(0)} MiB; median rest ${mib(median(xs.map((x) => x.rest))).toFixed(0)} MiB`);
}
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
