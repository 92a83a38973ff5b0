/**
 * Times xigua's svm and mlp fits (and libsvm-js's, when it is installed) on the data
 * written by sklearn_bench.py, and prints the comparison table of README.md.
 *   node --import tsx bench/svm-mlp/bench.ts /tmp/xigua-bench-svm-mlp
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { makeFrame, type Frame } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import type { Algorithm, FitContext, TrainingSet } from "../../src/models/contract.js";
import { mlp } from "../../src/models/neural/mlp.js";
import { mlpParams } from "../../src/models/neural/params.js";
import { resolveGamma } from "../../src/models/svm/kernel.js";
import { svm, svmParams } from "../../src/models/svm/svm.js";

const dir = process.argv[2] ?? "/tmp/xigua-bench-svm-mlp";
const repeats = Number(process.env.REPEATS ?? 2);
const D = 20;

function read(name: string, Ctor: Float64ArrayConstructor | Int32ArrayConstructor) {
  const buf = readFileSync(join(dir, name));
  const copy = new ArrayBuffer(buf.length);
  new Uint8Array(copy).set(buf);
  return new Ctor(copy);
}

const Xtr = read("X_train.f64", Float64Array) as Float64Array;
const Xte = read("X_test.f64", Float64Array) as Float64Array;
const ytr = read("y_train.i32", Int32Array) as Int32Array;
const yte = read("y_test.i32", Int32Array) as Int32Array;
const sk = JSON.parse(readFileSync(join(dir, "sklearn.json"), "utf8")) as Record<string, number>;

function frame(X: Float64Array): Frame {
  const n = X.length / D;
  return makeFrame(Array.from({ length: D }, (_, j) => ({ type: "numeric" as const, name: `x${j}`, values: Float64Array.from({ length: n }, (_, i) => X[i * D + j]) })));
}

const train: TrainingSet = { X: frame(Xtr), target: { task: "classification", y: ytr, classes: ["0", "1"] } };
const test = frame(Xte);
const ctx = (): FitContext => ({ rng: createRng(0), progress: () => {} });

function accuracy(labels: ArrayLike<number>): number {
  let ok = 0;
  for (let i = 0; i < yte.length; i++) if (labels[i] === yte[i]) ok++;
  return ok / yte.length;
}

interface Timing {
  seconds: number;
  cpu: number;
  accuracy: number;
}

/** Best wall and best CPU seconds over the repeats: the machine is shared, so both are shown. */
function measure(fit: () => void): { seconds: number; cpu: number } {
  let seconds = Infinity;
  let cpu = Infinity;
  for (let r = 0; r < repeats; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fit();
    seconds = Math.min(seconds, (performance.now() - t0) / 1000);
    const c = process.cpuUsage(c0);
    cpu = Math.min(cpu, (c.user + c.system) / 1e6);
  }
  return { seconds, cpu };
}

function time<P, S>(algorithm: Algorithm<P, S>, params: P): Timing {
  let state: S | null = null;
  const t = measure(() => (state = algorithm.fit(train, params, ctx())));
  const pred = algorithm.predict(state as unknown as S, test);
  return { ...t, accuracy: pred.task === "classification" ? accuracy(pred.labels) : NaN };
}

async function libsvmJs(): Promise<Timing | string> {
  try {
    const name = "libsvm-js";
    const SVM = await (await import(name)).default;
    const rows = (X: Float64Array) => Array.from({ length: X.length / D }, (_, i) => Array.from(X.subarray(i * D, i * D + D)));
    const samples = rows(Xtr);
    const labels = Array.from(ytr);
    const gamma = resolveGamma({ kind: "scale" }, Xtr, D);
    type Model = { train(x: number[][], y: number[]): void; predict(x: number[][]): number[]; free(): void };
    let model: Model | null = null;
    const t = measure(() => {
      model?.free();
      model = new SVM({ kernel: SVM.KERNEL_TYPES.RBF, type: SVM.SVM_TYPES.C_SVC, gamma, cost: 1, cacheSize: 200, tolerance: 1e-3, shrinking: true, quiet: true }) as Model;
      model.train(samples, labels);
    });
    const m = model as unknown as Model;
    const acc = accuracy(m.predict(rows(Xte)));
    m.free();
    return { ...t, accuracy: acc };
  } catch (error) {
    return `did not run: ${(error as Error).message.split("\n")[0]}`;
  }
}

const fmt = (s: number) => s.toFixed(2);
const cell = (t: Timing) => `${fmt(t.seconds)} s / ${fmt(t.cpu)} s (${t.accuracy.toFixed(4)})`;
const ratio = (ours: Timing, wall: number, cpu: number) => `${(ours.seconds / wall).toFixed(2)}× / ${(ours.cpu / cpu).toFixed(2)}×`;
const rows: string[] = [];
const svmOurs = time(svm, svmParams.parse({ kernel: "rbf", C: 1 }));
const js = await libsvmJs();
const skSvm: Timing = { seconds: sk.svm_fit_s, cpu: sk.svm_cpu_s, accuracy: sk.svm_accuracy };
rows.push(
  `| svm rbf C=1, γ=scale | ${cell(skSvm)} | ${cell(svmOurs)} | ${ratio(svmOurs, skSvm.seconds, skSvm.cpu)} | ${typeof js === "string" ? js : `${cell(js)}, ${ratio(js, skSvm.seconds, skSvm.cpu)}`} |`,
);
const loadAfterSvm = loadavg()[0];
for (const [act, ours] of process.env.ONLY === "svm" ? [] : ([["relu", "relu"], ["logistic", "sigmoid"]] as const)) {
  const p = mlpParams.parse({ hidden_layer_sizes: [64], activation: ours, solver: "adam", learning_rate_init: 0.001, batch_size: 200, max_iter: 200, tol: 0, n_iter_no_change: 200 });
  const r = time(mlp, p);
  const skMlp: Timing = { seconds: sk[`mlp_${act}_fit_s`], cpu: sk[`mlp_${act}_cpu_s`], accuracy: sk[`mlp_${act}_accuracy`] };
  rows.push(`| mlp 64 ${ours}, adam, 200 epochs | ${cell(skMlp)} | ${cell(r)} | ${ratio(r, skMlp.seconds, skMlp.cpu)} | — |`);
}
console.log(`| fit on 10,000 × 20; wall / CPU (test accuracy on 2,000) | scikit-learn ${sk.sklearn} | xigua | xigua ÷ scikit-learn, wall / CPU | libsvm-js (wasm) |`);
console.log("| --- | --- | --- | --- | --- |");
for (const row of rows) console.log(row);
console.log(`\nload average (1 min): ${sk.load_1m_after_svm?.toFixed(2)} after scikit-learn's svm fits, ${loadAfterSvm.toFixed(2)} after xigua's; SMO iterations: scikit-learn ${sk.svm_iterations}`);
