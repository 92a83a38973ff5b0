/**
 * bench/ensembles rf-parallel: issue 12's anchor, random_forest with 100 trees on
 * make_classification(100,000 × 20) against scikit-learn 1.2's single-threaded fit, and what
 * growing the forest's trees in chunks on two threads gives.
 *
 *   node --import tsx bench/ensembles/rf-parallel-bench.ts [train rows, default 100000]
 *
 * Three fits on the same bytes, sides interleaved in one run: scikit-learn (n_jobs=1), xigua's
 * fit on this thread (one worker's work), then xigua's trees [0, 50) and [50, 100) grown on two
 * worker threads at once. The two threads read the data from SharedArrayBuffers (the dataset
 * reaches each thread once, not copied), each presorts it and grows its chunk with the plan
 * forestPlan draws (random-forest.ts); the bench checks that the chunks' trees are the one-thread
 * forest's trees, bit for bit. This is the model-level split the training layer would dispatch
 * over the pool: the service itself still grows one forest on one worker (see README).
 * Wall and process CPU time (all threads) beside each figure, load average before and after.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import type { Frame } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import { forestPlan, randomForest } from "../../src/models/ensemble/random-forest.js";
import { growTrees, presort } from "../../src/models/ensemble/forest-grow.js";
import type { TreeState } from "../../src/models/tree/tree-state.js";

const TREES = 100;
const params = () => randomForest.params.parse({ n_estimators: TREES, oob_score: false });
const ctx = () => ({ rng: createRng(0), progress: () => {} });

interface Shared {
  columns: SharedArrayBuffer[];
  y: SharedArrayBuffer;
  rows: number;
}

function trainingSet(shared: Shared) {
  const X: Frame = { rowCount: shared.rows, columns: shared.columns.map((b, j) => ({ type: "numeric" as const, name: `x${j}`, values: new Float64Array(b) as unknown as Float64Array<ArrayBuffer> })) };
  return { X, target: { task: "classification" as const, y: new Int32Array(shared.y) as unknown as Int32Array<ArrayBuffer>, classes: ["0", "1"] } };
}

/** A tree's fingerprint: its structure and leaf values. */
function treeHash(t: TreeState): string {
  const h = createHash("sha256");
  for (const a of [t.kind, t.feature, t.threshold, t.childStart, t.value, t.samples]) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return h.digest("hex");
}

if (!isMainThread) {
  // Warm first, as a pool thread is: the code is loaded before the chunk is handed over.
  const { shared } = workerData as { shared: Shared };
  parentPort?.once("message", ({ from, to }: { from: number; to: number }) => {
    const train = trainingSet(shared);
    const plan = forestPlan(train, params(), createRng(0));
    const trees = growTrees(train, plan, presort(train), from, to, ctx(), null);
    parentPort?.postMessage(trees.map(treeHash));
  });
  parentPort?.postMessage("ready");
} else {
  const TRAIN = Number(process.argv[2] ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), "xigua-bench-rf-parallel-"));
  const load = () => loadavg().map((v) => v.toFixed(2)).join(" ");
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const loadBefore = load();
  console.error(`load ${loadBefore}; scikit-learn: RandomForestClassifier on ${TRAIN} rows …`);
  const py = spawnSync("/usr/bin/python3", [fileURLToPath(new URL("./rf-ada-sklearn.py", import.meta.url)), dir], {
    encoding: "utf8",
    env: { ...process.env, TRAIN: String(TRAIN), RF_ONLY: "1", OMP_NUM_THREADS: "1", OPENBLAS_NUM_THREADS: "1" },
  });
  if (py.status !== 0) throw new Error(py.stderr);
  const sk = JSON.parse(py.stdout.trim().split("\n").pop() as string);
  const loadAfterSk = load();
  const Xb = readFileSync(join(dir, "X.f64"));
  const yb = readFileSync(join(dir, "y.i32"));
  rmSync(dir, { recursive: true, force: true });
  const Xflat = new Float64Array(Xb.buffer, Xb.byteOffset, Xb.byteLength / 8);
  const yAll = new Int32Array(yb.buffer, yb.byteOffset, yb.byteLength / 4);
  const d = Xflat.length / yAll.length;
  // The training rows into shared memory, column by column.
  const shared: Shared = { columns: [], y: new SharedArrayBuffer(TRAIN * 4), rows: TRAIN };
  for (let j = 0; j < d; j++) {
    const b = new SharedArrayBuffer(TRAIN * 8);
    const v = new Float64Array(b);
    for (let i = 0; i < TRAIN; i++) v[i] = Xflat[i * d + j];
    shared.columns.push(b);
  }
  new Int32Array(shared.y).set(yAll.subarray(0, TRAIN));
  const train = trainingSet(shared);

  console.error(`load ${load()}; xigua: one thread …`);
  let w0 = performance.now();
  let c0 = cpu();
  const forest = randomForest.fit(train, params(), ctx());
  const oneWall = (performance.now() - w0) / 1000;
  const oneCpu = cpu() - c0;
  const loadAfterOne = load();

  console.error(`load ${loadAfterOne}; xigua: two threads, ${TREES / 2} trees each …`);
  const start = () =>
    new Promise<Worker>((resolve, reject) => {
      // bench/bayes-knn's shim registers tsx in the thread (Node 20 workers do not inherit --import), then imports this file.
      const w = new Worker(new URL("../bayes-knn/knn-worker.mjs", import.meta.url), { workerData: { module: import.meta.url, shared } });
      w.once("message", () => resolve(w));
      w.once("error", reject);
    });
  const grow = (w: Worker, from: number, to: number) =>
    new Promise<string[]>((resolve, reject) => {
      w.once("message", (hashes: string[]) => {
        resolve(hashes);
        void w.terminate();
      });
      w.once("error", reject);
      w.postMessage({ from, to });
    });
  const threads = await Promise.all([start(), start()]);
  w0 = performance.now();
  c0 = cpu();
  const chunks = await Promise.all([grow(threads[0], 0, TREES / 2), grow(threads[1], TREES / 2, TREES)]);
  const twoWall = (performance.now() - w0) / 1000;
  const twoCpu = cpu() - c0;
  const loadAfterTwo = load();
  const identical = JSON.stringify(chunks.flat()) === JSON.stringify(forest.trees.map(treeHash));

  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  console.log(`| measure (100 trees, ${TRAIN.toLocaleString("en")} × ${d}) | wall | CPU (all threads) | wall / scikit-learn's | load average after |`);
  console.log("|---|---|---|---|---|");
  console.log(`| scikit-learn 1.2, n_jobs=1 | ${sk.rf_fit_s.toFixed(1)} s | ${sk.rf_fit_cpu_s.toFixed(1)} s | 1 | ${loadAfterSk} |`);
  console.log(`| xigua, one thread | ${oneWall.toFixed(1)} s | ${oneCpu.toFixed(1)} s | ${ratio(oneWall, sk.rf_fit_s)} | ${loadAfterOne} |`);
  console.log(`| xigua, two threads × 50 trees (warm threads; each presorts the shared columns) | ${twoWall.toFixed(1)} s | ${twoCpu.toFixed(1)} s | ${ratio(twoWall, sk.rf_fit_s)} | ${loadAfterTwo} |`);
  console.log(`\nchunked trees identical to the one-thread forest: ${identical}; two threads' speed-up over one: ${(oneWall / twoWall).toFixed(2)} ×`);
  console.log(`${cpus().length} cores (${cpus()[0]?.model ?? "?"}), Node ${process.version}; load average ${loadBefore} before.`);
}
