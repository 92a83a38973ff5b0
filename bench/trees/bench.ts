/**
 * bench/trees: xigua's cart against scikit-learn 1.2's DecisionTreeClassifier (and ml-cart
 * when installed) on make_classification(100,000 × 20, n_informative=10, random_state=0).
 *
 *   node --import tsx bench/trees/bench.ts
 *
 * scikit-learn writes the data (sklearn_bench.py) and times itself on the same bytes; this
 * script then times, in one process, best of several runs (fit 3, batch predict 2 × 50) each:
 * cart fit on all 100,000 rows, fit on the 75,000 training rows and accuracy on the 25,000 test
 * rows, batch predict of the 25,000 rows, and single-row predict (a one-row Frame per call, as
 * the serving path does). The machine is shared, so both sides' predictions are timed in two
 * rounds (scikit-learn before and after xigua's first round) and each keeps its best.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir, cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cart } from "../../src/models/tree/cart.js";
import { createRng } from "../../src/data/random.js";
import type { Frame } from "../../src/data/frame.js";
import { takeRows } from "../../src/data/frame.js";
import type { Target } from "../../src/models/contract.js";

const dir = mkdtempSync(join(tmpdir(), "xigua-bench-trees-"));
const script = fileURLToPath(new URL("./sklearn_bench.py", import.meta.url));
console.error("scikit-learn: generating the data and timing DecisionTreeClassifier …");
const py = spawnSync("/usr/bin/python3", [script, dir], { encoding: "utf8" });
if (py.status !== 0) throw new Error(py.stderr);
const sk = JSON.parse(py.stdout.trim().split("\n").pop() as string);

const read = (name: string): ArrayBuffer => {
  const b = readFileSync(join(dir, name));
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};
const Xflat = new Float64Array(read("X.f64"));
const y = new Int32Array(read("y.i32"));
const testRows = new Int32Array(read("test.i32"));
const n = y.length;
const d = Xflat.length / n;
const X: Frame = {
  rowCount: n,
  columns: Array.from({ length: d }, (_, j) => ({ type: "numeric" as const, name: `x${j}`, values: Float64Array.from({ length: n }, (_, i) => Xflat[i * d + j]) })),
};
const classes = ["0", "1"];
const isTest = new Uint8Array(n);
for (const r of testRows) isTest[r] = 1;
const trainRows = Int32Array.from([...Array(n).keys()].filter((i) => !isTest[i]));
const Xtr = takeRows(X, trainRows);
const Xte = takeRows(X, testRows);
const ytr = Int32Array.from(trainRows, (r) => y[r]);
const yte = Int32Array.from(testRows, (r) => y[r]);
const ctx = () => ({ rng: createRng(0), progress: () => {} });
const params = cart.params.parse({});

function best<T>(reps: number, f: () => T): [number, T] {
  let t = Infinity;
  let r: T | undefined;
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    r = f();
    t = Math.min(t, performance.now() - t0);
  }
  return [t / 1000, r as T];
}

console.error("xigua cart …");
const [fitFull, full] = best(3, () => cart.fit({ X, target: { task: "classification", y, classes } }, params, ctx()));
const [fitTrain, model] = best(1, () => cart.fit({ X: Xtr, target: { task: "classification", y: ytr, classes } as Target }, params, ctx()));
const [predictBatch, pred] = best(50, () => cart.predict(model, Xte));
const labels = (pred as { labels: Int32Array }).labels;
let ok = 0;
for (let i = 0; i < yte.length; i++) if (labels[i] === yte[i]) ok++;
const accuracy = ok / yte.length;
const singles = Array.from({ length: 1000 }, (_, i) => takeRows(Xte, [i]));
let sink = 0;
const single: number[] = [];
for (let rep = 0; rep < 4; rep++) {
  const N = 100_000;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) sink += (cart.predict(model, singles[i % 1000]) as { labels: Int32Array }).labels[0];
  single.push(((performance.now() - t0) * 1000) / N);
}
const singleUs = Math.min(...single);

interface MlCart {
  DecisionTreeClassifier: new (o?: object) => { train(x: number[][], y: number[]): void; predict(x: number[][]): number[] };
}
async function mlCart(): Promise<Record<string, number | string>> {
  let lib: MlCart;
  try {
    lib = (await import("ml-cart" as string)) as MlCart;
  } catch {
    return { note: "not installed (npm install --no-save ml-cart)" };
  }
  console.error("ml-cart …");
  const rowsOf = (F: Frame, count: number): number[][] =>
    Array.from({ length: count }, (_, i) => F.columns.map((c) => (c as { values: Float64Array }).values[i]));
  // Its split search is quadratic per node: 2,000 training rows already take seconds.
  const m = 2000;
  const xs = rowsOf(Xtr, m);
  const t0 = performance.now();
  const clf = new lib.DecisionTreeClassifier();
  clf.train(xs, Array.from(ytr.subarray(0, m)));
  const fit = (performance.now() - t0) / 1000;
  const te = rowsOf(Xte, Xte.rowCount);
  const [batch, p] = best(3, () => clf.predict(te));
  let good = 0;
  for (let i = 0; i < yte.length; i++) if (p[i] === yte[i]) good++;
  const one = te.slice(0, 1000).map((r) => [r]);
  const t1 = performance.now();
  for (let i = 0; i < 50_000; i++) sink += clf.predict(one[i % 1000])[0];
  const singleMl = ((performance.now() - t1) * 1000) / 50_000;
  return { train_rows: m, fit_s: fit, accuracy: good / yte.length, predict_batch_s: batch, single_row_us: singleMl };
}
const ml = await mlCart();

// scikit-learn's predictions timed again now, and xigua's once more after: each side keeps its best.
console.error("scikit-learn predict, second round …");
const py2 = spawnSync("/usr/bin/python3", [script, dir, "predict"], { encoding: "utf8" });
if (py2.status !== 0) throw new Error(py2.stderr);
const sk2 = JSON.parse(py2.stdout.trim().split("\n").pop() as string);
sk.predict_batch_s = Math.min(sk.predict_batch_s, sk2.predict_batch_s);
sk.single_row_us = Math.min(sk.single_row_us, sk2.single_row_us);
rmSync(dir, { recursive: true });
const [predictBatch2] = best(50, () => cart.predict(model, Xte));
const predictBatchBest = Math.min(predictBatch, predictBatch2);

const result = {
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, load: (await import("node:os")).loadavg() },
  data: { rows: n, features: d, train: trainRows.length, test: testRows.length },
  xigua: { fit_full_s: fitFull, nodes_full: full.kind.length, fit_train_s: fitTrain, accuracy, predict_batch_s: predictBatchBest, single_row_us: singleUs },
  sklearn: sk,
  ml_cart: ml,
  ratios: {
    fit: fitFull / sk.fit_full_s,
    predict_batch: predictBatchBest / sk.predict_batch_s,
    accuracy_diff: accuracy - sk.accuracy,
  },
  sink,
};
console.log(JSON.stringify(result, null, 1));
