/**
 * bench/ensembles (rf-/ada-): xigua's random_forest and adaboost against scikit-learn 1.2 on
 * make_classification(45,000 × 20, n_informative=10, random_state=0): the first 20,000 rows
 * train, the other 25,000 are predicted.
 *
 *   node --import tsx bench/ensembles/rf-ada-bench.ts
 *   ADA_ONLY=1 TRAIN=75000 node --import tsx bench/ensembles/rf-ada-bench.ts   # AdaBoost alone at issue 12's 75,000 rows
 *
 * scikit-learn writes the data (rf-ada-sklearn.py) and times itself on the same bytes first;
 * then, in this process, one fit each (a forest fit is long: best-of-n would not fit a shared
 * machine's budget), batch predict of the 25,000 rows (best of 3), single-row predict (median
 * of 1,000 one-row Frames, as the serving path calls it), and the artifact size of the forest's
 * state (encodeState as JSON, as it is stored). Both single-threaded: xigua grows the trees of
 * one forest in one loop in this process (the service spreads them over its training threads: rf-service.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Frame } from "../../src/data/frame.js";
import { takeRows } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import { adaboost } from "../../src/models/ensemble/adaboost.js";
import { randomForest } from "../../src/models/ensemble/random-forest.js";
import { encodeState } from "../../src/models/state-codec.js";

const dir = mkdtempSync(join(tmpdir(), "xigua-bench-ensembles-"));
const load = () => loadavg().map((v) => v.toFixed(2)).join(" ");
const loadBefore = load();
console.error(`load ${loadBefore}; scikit-learn: generating the data, timing RandomForestClassifier and AdaBoostClassifier …`);
const py = spawnSync("/usr/bin/python3", [fileURLToPath(new URL("./rf-ada-sklearn.py", import.meta.url)), dir], { encoding: "utf8" });
if (py.status !== 0) throw new Error(py.stderr);
const sk = JSON.parse(py.stdout.trim().split("\n").pop() as string);

const read = (name: string): ArrayBuffer => {
  const b = readFileSync(join(dir, name));
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};
const Xflat = new Float64Array(read("X.f64"));
const y = new Int32Array(read("y.i32"));
rmSync(dir, { recursive: true, force: true });
const n = y.length;
const d = Xflat.length / n;
const X: Frame = { rowCount: n, columns: Array.from({ length: d }, (_, j) => ({ type: "numeric" as const, name: `x${j}`, values: Float64Array.from({ length: n }, (_, i) => Xflat[i * d + j]) })) };
const trainRows = Int32Array.from({ length: sk.train_rows }, (_, i) => i);
const testRows = Int32Array.from({ length: n - sk.train_rows }, (_, i) => sk.train_rows + i);
const Xtr = takeRows(X, trainRows);
const Xte = takeRows(X, testRows);
const ytr = Int32Array.from(trainRows, (r) => y[r]);
const yte = Int32Array.from(testRows, (r) => y[r]);
const train = { X: Xtr, target: { task: "classification" as const, y: ytr, classes: ["0", "1"] } };
const ctx = () => ({ rng: createRng(0), progress: () => {} });
const accuracy = (labels: Int32Array) => labels.reduce((a, l, i) => a + (l === yte[i] ? 1 : 0), 0) / yte.length;
const time = <T>(f: () => T): [number, T] => {
  const t0 = performance.now();
  const r = f();
  return [(performance.now() - t0) / 1000, r];
};

const ratio = (a: number, b: number) => (a / b).toPrecision(2);
const size = `${ytr.length.toLocaleString("en")} × ${d}`;

function forestRows(): string[][] {
  console.error("xigua: random_forest fit …");
  const [rfFit, forest] = time(() => randomForest.fit(train, randomForest.params.parse({ n_estimators: 100, oob_score: false }), ctx()));
  const rfAccuracy = accuracy((randomForest.predict(forest, Xte) as { labels: Int32Array }).labels);
  let batch = Infinity;
  for (let r = 0; r < 3; r++) batch = Math.min(batch, time(() => randomForest.predict(forest, Xte))[0]);
  const rows = Array.from({ length: 1000 }, (_, i) => takeRows(Xte, [i]));
  for (const row of rows.slice(0, 100)) randomForest.predict(forest, row);
  const single = rows.map((row) => time(() => randomForest.predict(forest, row))[0] * 1e6).sort((a, b) => a - b)[500];
  const artifactBytes = Buffer.byteLength(JSON.stringify(encodeState(forest)));
  const nodes = forest.trees.reduce((a, t) => a + t.kind.length, 0);
  return [
  ["random_forest fit, 100 trees, " + size, `${rfFit.toFixed(2)} s`, `${sk.rf_fit_s.toFixed(2)} s`, ratio(rfFit, sk.rf_fit_s)],
  ["random_forest accuracy (25,000 rows)", rfAccuracy.toFixed(4), sk.rf_accuracy.toFixed(4), (rfAccuracy - sk.rf_accuracy).toFixed(4)],
  ["batch predict, 25,000 rows, 100 trees", `${(batch * 1000).toFixed(0)} ms`, `${(sk.rf_predict_batch_s * 1000).toFixed(0)} ms`, ratio(batch, sk.rf_predict_batch_s)],
  ["single-row predict (median)", `${single.toFixed(1)} µs`, `${sk.rf_predict_single_us.toFixed(0)} µs`, ratio(single, sk.rf_predict_single_us)],
  ["forest artifact (state JSON / pickle)", `${(artifactBytes / 1e6).toFixed(1)} MB (${nodes.toLocaleString("en")} nodes)`, `${(sk.rf_pickle_bytes / 1e6).toFixed(1)} MB`, ratio(artifactBytes, sk.rf_pickle_bytes)],
  ];
}

function adaRows(): string[][] {
  console.error("xigua: adaboost fit …");
  const cpu0 = process.cpuUsage();
  const [adaFit, boosted] = time(() => adaboost.fit(train, adaboost.params.parse({ n_estimators: 100 }), ctx()));
  const cpu = process.cpuUsage(cpu0);
  const adaCpu = (cpu.user + cpu.system) / 1e6;
  const adaAccuracy = accuracy((adaboost.predict(boosted, Xte) as { labels: Int32Array }).labels);
  return [
    ["adaboost fit, 100 stumps (SAMME), " + size + " (wall)", `${adaFit.toFixed(2)} s (${boosted.members.length} rounds)`, `${sk.ada_fit_s.toFixed(2)} s (${sk.ada_rounds} rounds)`, ratio(adaFit, sk.ada_fit_s)],
    ["adaboost fit (CPU)", `${adaCpu.toFixed(2)} s`, `${sk.ada_fit_cpu_s.toFixed(2)} s`, ratio(adaCpu, sk.ada_fit_cpu_s)],
    ["adaboost accuracy", adaAccuracy.toFixed(4), sk.ada_accuracy.toFixed(4), (adaAccuracy - sk.ada_accuracy).toFixed(4)],
  ];
}

const rowsOut = [...(process.env.ADA_ONLY === "1" ? [] : forestRows()), ...adaRows()];
console.log(`| measure | xigua | scikit-learn 1.2 | xigua / sklearn (or difference) |\n|---|---|---|---|\n${rowsOut.map((r) => `| ${r.join(" | ")} |`).join("\n")}`);
console.log(`\n${cpus().length} cores (${cpus()[0]?.model ?? "?"}), Node ${process.version}; load average ${loadBefore} before, ${load()} after.`);
