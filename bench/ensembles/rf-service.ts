/**
 * random_forest through the service at issue 12's anchor: 100 trees on 100,000 × 20
 * (make_classification, rf-ada-sklearn.py with TRAIN=100000 RF_ONLY=1, which times
 * scikit-learn's single-threaded fit first on the same bytes), trained by POST /v1/models on
 * the real server (bench/serving/server-xigua.ts) with XIGUA_WORKERS=1 and then 2 (the
 * forest's trees spread over both threads: src/training/member-spread.ts). Reports the
 * job's wall time (queued → succeeded), its fit_seconds, the server's CPU (all threads),
 * whether both servers stored the same forest, and its accuracy on the 25,000 rows the script
 * also generates (POST /predict of them as JSON, after the timings) beside scikit-learn's.
 *   node --import tsx bench/ensembles/rf-service.ts
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { processCpuMicros, startServer, stopServer, trainModel, uploadDataset } from "../serving/harness.js";

const dir = mkdtempSync(join(tmpdir(), "xigua-bench-rf-service-"));
const load = () => loadavg().map((v) => v.toFixed(2)).join(" ");
const loadBefore = load();
console.error(`load ${loadBefore}; scikit-learn: RandomForestClassifier, 100 trees, 100,000 × 20 …`);
const py = spawnSync("/usr/bin/python3", [fileURLToPath(new URL("./rf-ada-sklearn.py", import.meta.url)), dir], { encoding: "utf8", env: { ...process.env, TRAIN: "100000", RF_ONLY: "1", OMP_NUM_THREADS: "1" } });
if (py.status !== 0) throw new Error(py.stderr);
const sk = JSON.parse(py.stdout.trim().split("\n").pop() as string) as Record<string, number>;
const loadAfterSk = load();
const raw = (name: string) => {
  const b = readFileSync(join(dir, name));
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
};
const X = new Float64Array(raw("X.f64"));
const y = new Int32Array(raw("y.i32"));
const d = sk.features;
const n = sk.train_rows;
// The training rows only; shortest round-trip text of each double; classes as text so the target is categorical.
const names = Array.from({ length: d }, (_, j) => `x${j}`);
const yTest = y.subarray(n);
const predictBody = JSON.stringify({ rows: Array.from({ length: yTest.length }, (_, i) => Object.fromEntries(names.map((name, j) => [name, X[(n + i) * d + j]]))) });
const csv = [[...Array.from({ length: d }, (_, j) => `x${j}`), "y"].join(","), ...Array.from({ length: n }, (_, i) => [...X.subarray(i * d, (i + 1) * d), `c${y[i]}`].join(","))].join("\n") + "\n";

async function measure(workers: number, port: number) {
  const db = mkdtempSync(join(tmpdir(), "xigua-bench-rf-db-"));
  const server = await startServer("bench/serving/server-xigua.ts", port, { XIGUA_DB: join(db, "bench.db"), XIGUA_WORKERS: String(workers) });
  try {
    const base = `http://127.0.0.1:${port}`;
    const datasetId = await uploadDataset(base, "rf", csv);
    const spec = { dataset_id: datasetId, algorithm: "random_forest", target: "y", params: { n_estimators: 100, oob_score: false }, validation: { method: "none" }, seed: 0 };
    const cpu0 = processCpuMicros(server.pid!);
    const t0 = performance.now();
    const model = await trainModel(base, spec, 100);
    const wall = (performance.now() - t0) / 1000;
    const cpu = (processCpuMicros(server.pid!) - cpu0) / 1e6;
    const artifact = (await (await fetch(`${base}/v1/models/${model.id}/artifact`)).json()) as Record<string, unknown>;
    const { trained_at: _t, sha256: _s, ...forest } = artifact;
    const loadAfter = load();
    const res = await fetch(`${base}/v1/models/${model.id}/predict`, { method: "POST", headers: { "content-type": "application/json" }, body: predictBody });
    if (!res.ok) throw new Error(`predict: ${res.status} ${await res.text()}`);
    const { predictions } = (await res.json()) as { predictions: string[] };
    const accuracy = predictions.reduce((a, p, i) => a + (p === `c${yTest[i]}` ? 1 : 0), 0) / yTest.length;
    return { wall, cpu, fit: model.fit_seconds ?? NaN, forest: JSON.stringify(forest), loadAfter, accuracy };
  } finally {
    await stopServer(server);
    rmSync(db, { recursive: true, force: true });
  }
}

const one = await measure(1, 18120);
const two = await measure(2, 18121);
rmSync(dir, { recursive: true, force: true });
const f = (v: number) => v.toFixed(2);
console.log(`| random_forest, 100 trees, 100,000 × 20, POST /v1/models | job wall | fit_seconds | CPU | job wall / scikit-learn's fit | load after |`);
console.log(`| --- | --- | --- | --- | --- | --- |`);
console.log(`| scikit-learn 1.2 fit, n_jobs=1 (in process) | ${f(sk.rf_fit_s)} s | | ${f(sk.rf_fit_cpu_s)} s | 1 | ${loadAfterSk} |`);
console.log(`| xigua, XIGUA_WORKERS=1 | ${f(one.wall)} s | ${f(one.fit)} s | ${f(one.cpu)} s (server) | ${f(one.wall / sk.rf_fit_s)} | ${one.loadAfter} |`);
console.log(`| xigua, XIGUA_WORKERS=2 (trees on both threads) | ${f(two.wall)} s | ${f(two.fit)} s | ${f(two.cpu)} s (server) | ${f(two.wall / sk.rf_fit_s)} | ${two.loadAfter} |`);
console.log(`\naccuracy on the other ${yTest.length} rows: xigua ${two.accuracy.toFixed(4)}, scikit-learn ${sk.rf_accuracy.toFixed(4)} (difference ${(two.accuracy - sk.rf_accuracy).toFixed(4)})`);
console.log(`same forest on both servers: ${one.forest === two.forest}; ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), Node ${process.version}; load average ${loadBefore} before`);
