/**
 * 10-fold cross-validation of `cart` on a 10,000 × 20 classification set through
 * POST /v1/evaluations, with the worker pool at 1 and at 2 threads (issue 4).
 * With 2 workers the folds are cut into one chunk per worker.
 *
 *   node --import tsx bench/evaluation/cv-workers.ts
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../../src/server/app.js";
import { createRng } from "../../src/data/random.js";

/** CPU ms of each thread of this process so far (/proc/self/task; 10 ms ticks): the pool's workers, V8's platform threads (GC, compilers), the main thread. */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(tid, (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

const ROWS = 10_000;
const FEATURES = 20;
const rng = createRng(0);
const header = [...Array.from({ length: FEATURES }, (_, j) => `x${j}`), "y"].join(",");
const lines = [header];
for (let i = 0; i < ROWS; i++) {
  const x = Array.from({ length: FEATURES }, () => rng.normal());
  // Ten informative features, as make_classification(n_informative=10) has.
  const score = x.slice(0, 10).reduce((s, v, j) => s + (j % 2 ? v : -v) * (1 + j / 10), 0) + rng.normal();
  lines.push([...x.map((v) => v.toFixed(6)), score > 0 ? "a" : "b"].join(","));
}
const csv = lines.join("\n") + "\n";

async function timeCv(workers: number, warmWith: string): Promise<{ seconds: number; cpu: number; accuracy: number; load: string; threads: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), "xigua-cv-"));
  const app = await buildApp({ config: { dbPath: join(dir, "cv.db"), workers }, logger: false });
  try {
    const ds = (await app.inject({ method: "POST", url: "/v1/datasets?name=cv", headers: { "content-type": "text/csv" }, payload: csv })).json();
    // Warm the pool (thread start, module load) outside the measurement. A 2-fold warm-up runs on
    // every thread of a 2-worker pool; with "cart" it also compiles the tree code there (JIT).
    const warm = (await app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: ds.id, algorithm: warmWith, target: "y", validation: { method: "kfold", k: 2 } } })).json();
    while ((await app.inject({ url: `/v1/evaluations/${warm.id}` })).json().status !== "succeeded") await new Promise((r) => setTimeout(r, 20));
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    const threads0 = threadCpu();
    const res = (await app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: ds.id, algorithm: "cart", target: "y", validation: { method: "kfold", k: 10 }, seed: 0 } })).json();
    let e = res;
    while (e.status === "queued" || e.status === "running") {
      await new Promise((r) => setTimeout(r, 10));
      e = (await app.inject({ url: `/v1/evaluations/${res.id}` })).json();
    }
    if (e.status !== "succeeded") throw new Error(JSON.stringify(e));
    const cpu = process.cpuUsage(cpu0);
    const threads = [...threadCpu()].map(([tid, ms]) => ms - (threads0.get(tid) ?? 0)).filter((ms) => ms > 0).sort((a, b) => b - a);
    return { seconds: (performance.now() - started) / 1000, cpu: (cpu.user + cpu.system) / 1e6, accuracy: e.metrics.accuracy, load: loadavg().map((v) => v.toFixed(2)).join(" "), threads };
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Interleaved: both pool sizes after a warm-up with baseline (code of cart cold on the threads), then after one with cart.
for (const warmWith of ["baseline", "cart"]) {
  const one = await timeCv(1, warmWith);
  const two = await timeCv(2, warmWith);
  const f = (r: typeof one) => `${r.seconds.toFixed(2)} s wall, ${r.cpu.toFixed(2)} s CPU (per thread, ms: ${r.threads.join(" ")}; load ${r.load})`;
  console.log(`10-fold CV of cart, ${ROWS} × ${FEATURES}, warmed with ${warmWith}: 1 worker ${f(one)}; 2 workers ${f(two)}; speed-up ${(one.seconds / two.seconds).toFixed(2)}×; accuracy ${one.accuracy.toFixed(4)} / ${two.accuracy.toFixed(4)}`);
}
