/**
 * Times xigua's knn predict on the data written by knn-sklearn_bench.py: 25,000 rows
 * against 75,000 × 20 training rows (k = 5, uniform, euclidean, algorithm auto →
 * brute force), on this thread and split over two worker threads, plus single-row
 * latency; prints the README's kNN table.
 *   node --import tsx bench/bayes-knn/knn-bench.ts /tmp/xigua-bench-knn
 * The two-worker figure splits the batch in halves, one per worker thread holding
 * its own copy of the model (what the service's compute pool does inside one
 * large predict request: knn-service.ts measures that).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadavg } from "node:os";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { makeFrame, type Frame } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import { knn, knnIndex } from "../../src/models/neighbors/knn.js";
import type { KnnState } from "../../src/models/neighbors/knn-state.js";

const D = 20;

function frame(X: Float64Array): Frame {
  const n = X.length / D;
  return makeFrame(Array.from({ length: D }, (_, j) => ({ type: "numeric" as const, name: `x${j}`, values: Float64Array.from({ length: n }, (_, i) => X[i * D + j]) })));
}

function read(dir: string, name: string): ArrayBuffer {
  const buf = readFileSync(join(dir, name));
  const copy = new ArrayBuffer(buf.length);
  new Uint8Array(copy).set(buf);
  return copy;
}

function fitModel(dir: string, algorithm: "auto" | "kd_tree" = "auto"): KnnState {
  const X = new Float64Array(read(dir, "knn_X_train.f64"));
  const y = new Int32Array(read(dir, "knn_y_train.i32"));
  return knn.fit({ X: frame(X), target: { task: "classification", y, classes: ["0", "1"] } }, knn.params.parse({ n_neighbors: 5, algorithm }), { rng: createRng(0), progress: () => {} });
}

const seconds = (t0: number) => (performance.now() - t0) / 1000;

if (!isMainThread) {
  // Worker: fit its own copy, warm the index, then predict its half when asked.
  const { dir, from, to } = workerData as { dir: string; from: number; to: number };
  const state = fitModel(dir);
  const Xte = new Float64Array(read(dir, "knn_X_test.f64"));
  const part = frame(Xte.subarray(from * D, to * D));
  knnIndex(state);
  knn.predict(state, frame(Xte.subarray(0, 4 * D)));
  parentPort!.postMessage("ready");
  parentPort!.once("message", () => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const p = knn.predict(state, part);
    const cpu = process.cpuUsage(c0);
    parentPort!.postMessage({ seconds: seconds(t0), cpu: (cpu.user + cpu.system) / 1e6, labels: p.task === "classification" ? p.labels : null });
  });
} else {
  const dir = process.argv[2] ?? "/tmp/xigua-bench-knn";
  const sk = JSON.parse(readFileSync(join(dir, "knn_sklearn.json"), "utf8")) as Record<string, number | string>;
  const skPred = new Int32Array(read(dir, "knn_sklearn_pred.i32"));
  const Xte = new Float64Array(read(dir, "knn_X_test.f64"));
  const m = Xte.length / D;
  const test = frame(Xte);
  const load0 = loadavg()[0];

  const t0 = performance.now();
  const state = fitModel(dir);
  const fitS = seconds(t0);
  knn.predict(state, frame(Xte.subarray(0, 4 * D))); // builds the index, compiles the kernel
  const c0 = process.cpuUsage();
  const t1 = performance.now();
  const pred = knn.predict(state, test);
  const batchS = seconds(t1);
  const cpu = process.cpuUsage(c0);
  const labels = pred.task === "classification" ? pred.labels : new Int32Array(0);
  let agree = 0;
  for (let i = 0; i < m; i++) if (labels[i] === skPred[i]) agree++;

  // Two workers, half the batch each; timed from the go message to the last answer.
  const half = m >> 1;
  const workers = [
    [0, half],
    [half, m],
  ].map(([from, to]) => new Worker(new URL("./knn-worker.mjs", import.meta.url), { workerData: { module: import.meta.url, dir, from, to } }));
  // Each worker fits and warms up first; the clock starts when both are ready.
  await Promise.all(workers.map((w) => new Promise<void>((resolve, reject) => (w.once("message", () => resolve()), w.once("error", reject)))));
  const t2 = performance.now();
  const results = await Promise.all(
    workers.map(
      (w) =>
        new Promise<{ seconds: number; cpu: number; labels: Int32Array }>((resolve) => {
          w.once("message", resolve);
          w.postMessage("go");
        }),
    ),
  );
  const twoS = seconds(t2);
  workers.forEach((w) => void w.terminate());
  const twoLabels = new Int32Array(m);
  twoLabels.set(results[0].labels, 0);
  twoLabels.set(results[1].labels, half);
  const sameSplit = twoLabels.every((v, i) => v === labels[i]);

  // Single-row latency: 200 rows one at a time, median; brute force (auto) and kd-tree.
  const single = (s: KnnState) => {
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const row = frame(Xte.subarray(i * D, (i + 1) * D));
      const t = performance.now();
      knn.predict(s, row);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return times[100];
  };
  const singleBrute = single(state);
  const kd = fitModel(dir, "kd_tree");
  knn.predict(kd, frame(Xte.subarray(0, D)));
  const singleKd = single(kd);
  const load1 = loadavg()[0];

  const skBatch = Number(sk.batch_s);
  const fmt = (v: number) => v.toFixed(2);
  console.log(`load average ${load0.toFixed(1)} → ${load1.toFixed(1)} (scikit-learn's run: ${Number(sk.load_before).toFixed(1)} → ${Number(sk.load_after).toFixed(1)})`);
  console.log(`| knn k=5, 25,000 rows vs 75,000 × 20 | scikit-learn ${sk.sklearn} (${sk.algorithm}, 1 thread) | xigua | ratio |`);
  console.log(`| --- | --- | --- | --- |`);
  console.log(`| batch predict, 1 thread: wall / CPU | ${fmt(skBatch)} s / ${fmt(Number(sk.batch_cpu_s))} s | ${fmt(batchS)} s / ${fmt((cpu.user + cpu.system) / 1e6)} s | ${fmt(batchS / skBatch)}× / ${fmt((cpu.user + cpu.system) / 1e6 / Number(sk.batch_cpu_s))}× |`);
  console.log(`| batch predict, 2 worker threads (halves): wall | — | ${fmt(twoS)} s (worker CPU ${fmt(results[0].cpu)} + ${fmt(results[1].cpu)} s) | ${fmt(twoS / skBatch)}× |`);
  console.log(`| single-row predict, median of 200 | ${Number(sk.single_row_ms).toFixed(2)} ms | ${singleBrute.toFixed(2)} ms (brute), ${singleKd.toFixed(2)} ms (kd_tree) | ${fmt(singleBrute / Number(sk.single_row_ms))}× |`);
  console.log(`fit (stores the rows) ${fmt(fitS)} s; labels equal to scikit-learn's on ${agree} of ${m} rows; 2-worker labels ${sameSplit ? "equal" : "DIFFER from"} 1-thread labels`);
}
