/**
 * bench/ensembles, gradient boosting: xigua's gradient_boosting against scikit-learn 1.2's
 * HistGradientBoostingClassifier, single-threaded (OMP_NUM_THREADS=1), on
 * make_classification(100,000 × 20, n_informative=10, random_state=0): 100 iterations,
 * default leaves (31), early stopping off on both sides.
 *
 *   node --import tsx bench/ensembles/gb-bench.ts
 *
 * scikit-learn writes the data (gb_sklearn_bench.py) and times itself on the same bytes
 * before and after xigua's timings (the machine is shared: each side keeps its best), wall
 * and CPU time (the CPU time of one thread suffers less from other processes' load).
 * xigua: fit on all 100,000 rows (best of 2), fit on the 75,000 training rows and accuracy
 * on the 25,000 test rows. XGBoost (hist, 100 rounds, single thread, its own defaults otherwise)
 * is timed beside scikit-learn when Debian's python3-xgboost is installed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Frame } from "../../src/data/frame.js";
import { takeRows } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import { gradientBoosting } from "../../src/models/ensemble/gradient-boosting/gradient-boosting.js";

const dir = mkdtempSync(join(tmpdir(), "xigua-bench-gb-"));
const script = fileURLToPath(new URL("./gb_sklearn_bench.py", import.meta.url));
const python = (mode: string) => {
  const r = spawnSync("/usr/bin/python3", [script, dir, mode], { encoding: "utf8", env: { ...process.env, OMP_NUM_THREADS: "1" } });
  if (r.status !== 0) throw new Error(r.stderr);
  return mode === "data" ? null : (JSON.parse(r.stdout.trim().split("\n").pop() as string) as { version: string; fit_full_s: number; fit_full_runs_s: number[]; fit_full_cpu_s: number; fit_train_s: number; accuracy: number; xgboost: XgbTiming | null });
};
interface XgbTiming {
  version: string;
  fit_full_s: number;
  fit_full_runs_s: number[];
  fit_full_cpu_s: number;
  accuracy: number;
}
const loads: number[][] = [loadavg()];
python("data");
console.error("scikit-learn HistGradientBoostingClassifier, first round …");
const sk1 = python("fit")!;
loads.push(loadavg());

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
const params = gradientBoosting.params.parse({ max_iter: 100, early_stopping: false });
const ctx = () => ({ rng: createRng(0), progress: () => {} });
const cpuTimes: number[] = [];
const time = <T>(f: () => T): [number, T] => {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = f();
  cpuTimes.push(process.cpuUsage(c0).user / 1e6);
  return [(performance.now() - t0) / 1000, r];
};

console.error("xigua gradient_boosting …");
const fullTimes: number[] = [];
for (let rep = 0; rep < 2; rep++) fullTimes.push(time(() => gradientBoosting.fit({ X, target: { task: "classification", y, classes } }, params, ctx()))[0]);
const [fitTrain, model] = time(() => gradientBoosting.fit({ X: Xtr, target: { task: "classification", y: ytr, classes } }, params, ctx()));
const [predictS, pred] = time(() => gradientBoosting.predict(model, Xte));
const labels = (pred as { labels: Int32Array }).labels;
let ok = 0;
for (let i = 0; i < yte.length; i++) if (labels[i] === yte[i]) ok++;
loads.push(loadavg());
console.error("scikit-learn, second round …");
const sk2 = python("fit")!;
loads.push(loadavg());
rmSync(dir, { recursive: true, force: true });

const skFull = Math.min(sk1.fit_full_s, sk2.fit_full_s);
const xgFull = Math.min(...fullTimes);
const result = {
  machine: `${cpus().length} × ${cpus()[0]?.model ?? "?"}, node ${process.version}, scikit-learn ${sk1.version} (OMP_NUM_THREADS=1)`,
  load_average_1m: loads.map((l) => Number(l[0].toFixed(2))),
  xigua: { fit_full_s: xgFull, fit_full_runs_s: fullTimes, fit_full_cpu_s: Math.min(cpuTimes[0], cpuTimes[1]), fit_train_s: fitTrain, accuracy: ok / yte.length, predict_25k_s: predictS, trees: model.iterations, nodes: model.feature.length },
  sklearn: { fit_full_s: skFull, fit_full_runs_s: [...sk1.fit_full_runs_s, ...sk2.fit_full_runs_s], fit_full_cpu_s: Math.min(sk1.fit_full_cpu_s, sk2.fit_full_cpu_s), fit_train_s: Math.min(sk1.fit_train_s, sk2.fit_train_s), accuracy: sk1.accuracy },
  fit_ratio_xigua_over_sklearn: xgFull / skFull,
  fit_cpu_ratio_xigua_over_sklearn: Math.min(cpuTimes[0], cpuTimes[1]) / Math.min(sk1.fit_full_cpu_s, sk2.fit_full_cpu_s),
  accuracy_difference: ok / yte.length - sk1.accuracy,
  xgboost:
    sk1.xgboost && sk2.xgboost
      ? {
          version: sk1.xgboost.version,
          fit_full_s: Math.min(sk1.xgboost.fit_full_s, sk2.xgboost.fit_full_s),
          fit_full_runs_s: [...sk1.xgboost.fit_full_runs_s, ...sk2.xgboost.fit_full_runs_s],
          fit_full_cpu_s: Math.min(sk1.xgboost.fit_full_cpu_s, sk2.xgboost.fit_full_cpu_s),
          accuracy: sk1.xgboost.accuracy,
          xigua_fit_ratio: xgFull / Math.min(sk1.xgboost.fit_full_s, sk2.xgboost.fit_full_s),
        }
      : "python3-xgboost is not installed: not timed",
};
console.log(JSON.stringify(result, null, 1));
