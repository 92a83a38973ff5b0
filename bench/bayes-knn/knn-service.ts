/**
 * kNN batch predict through the service: the real server (bench/serving/server-xigua.ts),
 * POST /v1/models/{id}/predict with the 25,000 test rows as JSON, against the 75,000 × 20
 * training rows uploaded as CSV (knn-sklearn_bench.py's files; run knn-run.sh first, which
 * also times scikit-learn). Two servers in turn: XIGUA_COMPUTE_WORKERS=1 (the batch on one
 * compute thread) and =2 (cut into two row ranges, one per thread: compute/pool.ts).
 * Each: one untimed request (loads the model into the compute threads), then the best of
 * three, wall time and the server process's CPU time (all threads, /proc), and the answers'
 * labels against scikit-learn's.
 *   node --import tsx bench/bayes-knn/knn-service.ts /tmp/xigua-bench-knn
 */
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { loadavg, tmpdir } from "node:os";
import { processCpuMicros, startServer, stopServer, trainModel, uploadDataset } from "../serving/harness.js";

const D = 20;
const dir = process.argv[2] ?? "/tmp/xigua-bench-knn";
const f64 = (name: string) => {
  const b = readFileSync(join(dir, name));
  return new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
};
const i32 = (name: string) => {
  const b = readFileSync(join(dir, name));
  return new Int32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
};
const Xtr = f64("knn_X_train.f64");
const ytr = i32("knn_y_train.i32");
const Xte = f64("knn_X_test.f64");
const skPred = i32("knn_sklearn_pred.i32");
const sk = JSON.parse(readFileSync(join(dir, "knn_sklearn.json"), "utf8")) as Record<string, number | string>;
const names = Array.from({ length: D }, (_, j) => `x${j}`);
// Classes as text ("c0", "c1"): a 0/1 column would be read as numeric, and knn would regress.
// Shortest round-trip text of each double, so the server reads back exactly the bits scikit-learn used.
const csv = [[...names, "y"].join(","), ...Array.from({ length: ytr.length }, (_, i) => [...Xtr.subarray(i * D, (i + 1) * D), `c${ytr[i]}`].join(","))].join("\n") + "\n";
const m = Xte.length / D;
const body = JSON.stringify({ rows: Array.from({ length: m }, (_, i) => Object.fromEntries(names.map((n, j) => [n, Xte[i * D + j]]))) });

async function measure(computeWorkers: number, port: number) {
  const db = mkdtempSync(join(tmpdir(), "xigua-bench-knn-service-"));
  const server = await startServer("bench/serving/server-xigua.ts", port, { XIGUA_DB: join(db, "bench.db"), XIGUA_COMPUTE_WORKERS: String(computeWorkers) });
  try {
    const base = `http://127.0.0.1:${port}`;
    const datasetId = await uploadDataset(base, "knn", csv);
    const model = await trainModel(base, { dataset_id: datasetId, algorithm: "knn", target: "y", params: { n_neighbors: 5 }, validation: { method: "none" }, seed: 0 }, 100);
    const predict = async () => {
      const res = await fetch(`${base}/v1/models/${model.id}/predict`, { method: "POST", headers: { "content-type": "application/json" }, body });
      if (res.status !== 200) throw new Error(await res.text());
      return (await res.json()) as { predictions: string[] };
    };
    await predict(); // loads the artifact into the compute threads' caches
    let best = { wall: Infinity, cpu: Infinity, agree: 0 };
    for (let r = 0; r < 3; r++) {
      const cpu0 = processCpuMicros(server.pid!);
      const t0 = performance.now();
      const answer = await predict();
      const wall = (performance.now() - t0) / 1000;
      const cpu = (processCpuMicros(server.pid!) - cpu0) / 1e6;
      const agree = answer.predictions.reduce((a, p, i) => a + (p === `c${skPred[i]}` ? 1 : 0), 0);
      if (wall < best.wall) best = { wall, cpu, agree };
    }
    return best;
  } finally {
    await stopServer(server);
    rmSync(db, { recursive: true, force: true });
  }
}

const load0 = loadavg().map((v) => v.toFixed(2)).join(" ");
const one = await measure(1, 18110);
const two = await measure(2, 18111);
const load1 = loadavg().map((v) => v.toFixed(2)).join(" ");
const skWall = Number(sk.batch_s);
const skCpu = Number(sk.batch_cpu_s);
const f = (v: number) => v.toFixed(2);
console.log(`| POST /predict, 25,000 rows vs 75,000 × 20 (k = 5) | wall | server CPU | wall / scikit-learn's | labels = scikit-learn's |`);
console.log(`| --- | --- | --- | --- | --- |`);
console.log(`| scikit-learn ${sk.sklearn} (${sk.algorithm}, 1 thread, in process) | ${f(skWall)} s | ${f(skCpu)} s | 1 | |`);
console.log(`| xigua, 1 compute thread | ${f(one.wall)} s | ${f(one.cpu)} s | ${f(one.wall / skWall)}× | ${one.agree} / ${m} |`);
console.log(`| xigua, 2 compute threads (split) | ${f(two.wall)} s | ${f(two.cpu)} s | ${f(two.wall / skWall)}× | ${two.agree} / ${m} |`);
console.log(`\nload average ${load0} before, ${load1} after (scikit-learn's run: ${Number(sk.load_before).toFixed(1)} → ${Number(sk.load_after).toFixed(1)}); Node ${process.version}`);
