/**
 * bench/bayes-knn, Bayes part: xigua's naive_bayes against scikit-learn 1.2's GaussianNB on
 * make_classification(100,000 × 20, n_informative=10, random_state=0), and the fit times of
 * aode, tan, spode and bayes_net (BIC hill climbing) on the same table cut into 5 equal-frequency bins per column (categorical,
 * 100,000 × 20; CategoricalNB on the same codes for scale).
 *
 *   node --import tsx bench/bayes-knn/bayes-bench.ts
 *
 * scikit-learn writes the data (bayes_sklearn_bench.py) and times itself on the same bytes; this
 * script times xigua in one process (best of several runs), then scikit-learn runs again and each
 * side keeps its best, since the machine is shared. naive_bayes runs with GaussianNB's conventions
 * (variance "population", class_prior "empirical"), so both compute the same model.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Frame } from "../../src/data/frame.js";
import { takeRows } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import { aode } from "../../src/models/bayes/aode.js";
import { bayesNet } from "../../src/models/bayes/bayes-net.js";
import { naiveBayes } from "../../src/models/bayes/naive-bayes.js";
import { spode } from "../../src/models/bayes/spode.js";
import { tan } from "../../src/models/bayes/tan.js";
import type { Algorithm, TrainingSet } from "../../src/models/contract.js";

const dir = mkdtempSync(join(tmpdir(), "xigua-bench-bayes-"));
const script = fileURLToPath(new URL("./bayes_sklearn_bench.py", import.meta.url));
const env = { ...process.env, OMP_NUM_THREADS: "1", OPENBLAS_NUM_THREADS: "1", MKL_NUM_THREADS: "1" };
const python = (...args: string[]) => {
  const py = spawnSync("/usr/bin/python3", [script, dir, ...args], { encoding: "utf8", env });
  if (py.status !== 0) throw new Error(py.stderr);
  return JSON.parse(py.stdout.trim().split("\n").pop() as string);
};
console.error("scikit-learn: generating the data, timing GaussianNB and CategoricalNB …");
const loadBefore = loadavg();
const sk1 = python();

const read = (name: string): ArrayBuffer => {
  const b = readFileSync(join(dir, name));
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};
const Xflat = new Float64Array(read("X.f64"));
const y = new Int32Array(read("y.i32"));
const Cflat = new Int32Array(read("C.i32"));
const n = y.length;
const d = Xflat.length / n;
const X: Frame = { rowCount: n, columns: Array.from({ length: d }, (_, j) => ({ type: "numeric" as const, name: `x${j}`, values: Float64Array.from({ length: n }, (_, i) => Xflat[i * d + j]) })) };
const levels = ["0", "1", "2", "3", "4"];
const C: Frame = { rowCount: n, columns: Array.from({ length: d }, (_, j) => ({ type: "categorical" as const, name: `x${j}`, levels, codes: Int32Array.from({ length: n }, (_, i) => Cflat[i * d + j]) })) };
const target = { task: "classification" as const, y, classes: ["0", "1"] };
const ctx = () => ({ rng: createRng(0), progress: () => {} });

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

console.error("xigua naive_bayes …");
const nbParams = naiveBayes.params.parse({ variance: "population", class_prior: "empirical" });
const numeric: TrainingSet = { X, target };
const [nbFit, nbModel] = best(10, () => naiveBayes.fit(numeric, nbParams, ctx()));
const [nbPredict, nbPred] = best(10, () => naiveBayes.predict(nbModel, X));
const [nbBoth] = best(10, () => naiveBayes.predict(naiveBayes.fit(numeric, nbParams, ctx()), X));
const labels = (nbPred as { labels: Int32Array }).labels;
let ok = 0;
for (let i = 0; i < n; i++) if (labels[i] === y[i]) ok++;
const singles = Array.from({ length: 1000 }, (_, i) => takeRows(X, [i]));
let sink = 0;
const t0 = performance.now();
for (let i = 0; i < 100_000; i++) sink += (naiveBayes.predict(nbModel, singles[i % 1000]) as { labels: Int32Array }).labels[0];
const nbSingleUs = ((performance.now() - t0) * 1000) / 100_000;

const categorical: TrainingSet = { X: C, target };
function timeCategorical(alg: Algorithm, params: object, fitReps: number) {
  console.error(`xigua ${alg.name} ${JSON.stringify(params)} …`);
  const p = alg.params.parse(params);
  const [fit, model] = best(fitReps, () => alg.fit(categorical, p, ctx()));
  const [predict, pred] = best(2, () => alg.predict(model, C));
  const l = (pred as { labels: Int32Array }).labels;
  let good = 0;
  for (let i = 0; i < n; i++) if (l[i] === y[i]) good++;
  return { params, fit_s: fit, predict_s: predict, training_accuracy: good / n };
}
const categoricalResults = [
  timeCategorical(naiveBayes, {}, 5),
  timeCategorical(aode, {}, 3),
  timeCategorical(tan, {}, 3),
  timeCategorical(spode, { super_parent: "x0" }, 3),
  timeCategorical(spode, {}, 1),
  timeCategorical(bayesNet, {}, 1),
];

console.error("scikit-learn, second round …");
const sk2 = python("again");
rmSync(dir, { recursive: true });
const min = (a: number, b: number) => Math.min(a, b);
const sk = {
  gaussian_nb: { fit_s: min(sk1.gaussian_nb.fit_s, sk2.gaussian_nb.fit_s), predict_proba_s: min(sk1.gaussian_nb.predict_proba_s, sk2.gaussian_nb.predict_proba_s), fit_predict_s: min(sk1.gaussian_nb.fit_predict_s, sk2.gaussian_nb.fit_predict_s), accuracy: sk1.gaussian_nb.accuracy },
  categorical_nb: { fit_s: min(sk1.categorical_nb.fit_s, sk2.categorical_nb.fit_s), predict_proba_s: min(sk1.categorical_nb.predict_proba_s, sk2.categorical_nb.predict_proba_s) },
};

console.log(
  JSON.stringify(
    {
      machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, load_before: loadBefore, load_after: loadavg() },
      data: { rows: n, features: d, categorical_levels: levels.length },
      naive_bayes: { fit_s: nbFit, predict_proba_s: nbPredict, fit_predict_s: nbBoth, accuracy: ok / n, single_row_us: nbSingleUs },
      sklearn: sk,
      ratios: { nb_fit: nbFit / sk.gaussian_nb.fit_s, nb_predict: nbPredict / sk.gaussian_nb.predict_proba_s, nb_fit_predict: nbBoth / sk.gaussian_nb.fit_predict_s },
      categorical: categoricalResults,
      sink,
    },
    null,
    1,
  ),
);
