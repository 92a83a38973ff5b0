/**
 * bench/linear: fit times on 100,000 × 20 against Debian's scikit-learn 1.2 (and the
 * mljs peers when they are installed). Run: node --import tsx bench/linear/bench.ts
 * The JS peers are not dependencies: install them anywhere with
 *   npm install --prefix /tmp/ml-peers ml-regression ml-logistic-regression
 * and point ML_PEERS=/tmp/ml-peers at them (skipped otherwise).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { makeFrame, type Frame } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import { linearRegression } from "../../src/models/linear/linear-regression.js";
import { logisticRegression } from "../../src/models/linear/logistic-regression.js";

const N = 100_000;
const P = 20;
const N_TEST = 20_000;
const REPEATS = 5;

function makeData(rows: number, rng: ReturnType<typeof createRng>, beta: Float64Array) {
  const columns = Array.from({ length: P }, () => new Float64Array(rows));
  const yReg = new Float64Array(rows);
  const yCls = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    // Mildly correlated features: each shares a common factor.
    const common = rng.normal();
    for (let j = 0; j < P; j++) {
      const v = 0.3 * common + rng.normal();
      columns[j][i] = v;
      s += beta[j] * v;
    }
    yReg[i] = 3 + s + 0.5 * rng.normal();
    const u = rng.next();
    yCls[i] = s + Math.log(u / (1 - u)) > 0 ? 1 : 0;
  }
  return { columns, yReg, yCls };
}

function frame(columns: Float64Array[]): Frame {
  return makeFrame(columns.map((values, j) => ({ type: "numeric" as const, name: `x${j}`, values })));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median wall and CPU (user + system, this process) milliseconds of `repeats` fits after a warm-up. */
function timed<T>(fn: () => T, repeats = REPEATS): { ms: number; cpuMs: number; result: T } {
  let result = fn();
  const times: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const t = performance.now();
    const c = process.cpuUsage();
    result = fn();
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    times.push(performance.now() - t);
  }
  return { ms: median(times), cpuMs: median(cpu), result };
}

function accuracyOf(labels: ArrayLike<number>, y: Float64Array): number {
  let ok = 0;
  for (let i = 0; i < y.length; i++) if (labels[i] === y[i]) ok++;
  return ok / y.length;
}

async function importPeer(name: string): Promise<unknown> {
  const dir = process.env.ML_PEERS;
  const spec = dir ? pathToFileURL(join(dir, "node_modules", name, "lib", name === "ml-regression" ? "index.js" : "logreg.js")).href : name;
  try {
    return await import(spec);
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const startLoad = loadavg().map((v) => v.toFixed(1)).join(" ");
  const rng = createRng(2026);
  const beta = Float64Array.from({ length: P }, () => rng.normal());
  const train = makeData(N, rng, beta);
  const test = makeData(N_TEST, rng, beta);
  const X = frame(train.columns);
  const ctx = { rng: createRng(1), progress: () => {} };

  const lr = timed(() =>
    linearRegression.fit({ X, target: { task: "regression", y: train.yReg } }, linearRegression.params.parse({}), ctx),
  );
  const classification = { X, target: { task: "classification" as const, y: Int32Array.from(train.yCls), classes: ["0", "1"] } };
  const log = timed(() => logisticRegression.fit(classification, logisticRegression.params.parse({}), ctx));
  const logPred = logisticRegression.predict(log.result, frame(test.columns));
  const logAcc = logPred.task === "classification" ? accuracyOf(logPred.labels, test.yCls) : NaN;

  const dir = mkdtempSync(join(tmpdir(), "xigua-bench-linear-"));
  const write = (name: string, a: Float64Array) => writeFileSync(join(dir, name), Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  const flat = (cols: Float64Array[], rows: number) => {
    const out = new Float64Array(cols.length * rows);
    cols.forEach((c, j) => out.set(c, j * rows));
    return out;
  };
  write("x.f64", flat(train.columns, N));
  write("x_test.f64", flat(test.columns, N_TEST));
  write("y_reg.f64", train.yReg);
  write("y_cls.f64", train.yCls);
  write("y_cls_test.f64", test.yCls);
  // scikit-learn twice: with its default BLAS/OpenMP threads (both cores) and on
  // one thread, which is what a single-threaded JS fit is fairly compared with.
  const runSklearn = (threads: Record<string, string>) => {
    const py = spawnSync("/usr/bin/python3", [new URL("./sklearn_bench.py", import.meta.url).pathname, dir, String(N), String(P), String(N_TEST), String(REPEATS)], {
      encoding: "utf8",
      env: { ...process.env, ...threads },
    });
    if (py.status !== 0) throw new Error(`sklearn bench failed: ${py.stderr}`);
    return JSON.parse(py.stdout.trim().split("\n").pop()!);
  };
  const sk = runSklearn({});
  const sk1 = runSklearn({ OMP_NUM_THREADS: "1", OPENBLAS_NUM_THREADS: "1", MKL_NUM_THREADS: "1" });
  rmSync(dir, { recursive: true, force: true });
  let maxCoefDiff = 0;
  lr.result.coef.forEach((v, j) => (maxCoefDiff = Math.max(maxCoefDiff, Math.abs(v - sk.linear_regression_coef[j]))));

  const pair = (ours: number, key: string): string[] => [ours.toFixed(1), `${sk[key].toFixed(1)} / ${sk1[key].toFixed(1)}`, `${(ours / sk[key]).toFixed(2)} / ${(ours / sk1[key]).toFixed(2)}`];
  const rows: string[][] = [
    ["linear_regression (lstsq)", ...pair(lr.ms, "linear_regression_ms"), `max |Δcoef| vs sklearn ${maxCoefDiff.toExponential(1)}`],
    [
      "logistic_regression (lbfgs)",
      ...pair(log.ms, "logistic_regression_ms"),
      `test accuracy ${logAcc.toFixed(4)} vs ${sk.logistic_regression_test_accuracy.toFixed(4)}; iterations ${log.result.diagnostics.iterations} vs ${sk.logistic_regression_iterations}`,
    ],
    ["CPU ms: linear_regression", lr.cpuMs.toFixed(1), `${sk.linear_regression_cpu_ms.toFixed(1)} / ${sk1.linear_regression_cpu_ms.toFixed(1)}`, `${(lr.cpuMs / sk.linear_regression_cpu_ms).toFixed(2)} / ${(lr.cpuMs / sk1.linear_regression_cpu_ms).toFixed(2)}`, "process CPU time (user + system), median"],
    ["CPU ms: logistic_regression", log.cpuMs.toFixed(1), `${sk.logistic_regression_cpu_ms.toFixed(1)} / ${sk1.logistic_regression_cpu_ms.toFixed(1)}`, `${(log.cpuMs / sk.logistic_regression_cpu_ms).toFixed(2)} / ${(log.cpuMs / sk1.logistic_regression_cpu_ms).toFixed(2)}`, "process CPU time (user + system), median"],
  ];

  const mlr = (await importPeer("ml-regression")) as { MultivariateLinearRegression?: new (x: number[][], y: number[][], o: object) => unknown } | null;
  if (mlr?.MultivariateLinearRegression) {
    const xRows = Array.from({ length: N }, (_, i) => train.columns.map((c) => c[i]));
    const yRows = Array.from(train.yReg, (v) => [v]);
    const peer = timed(() => new mlr.MultivariateLinearRegression!(xRows, yRows, { intercept: true, statistics: false }), 2);
    rows.push(["ml-regression MultivariateLinearRegression", ...pair(peer.ms, "linear_regression_ms"), "rows as number[][] (conversion not timed)"]);
  } else {
    rows.push(["ml-regression", "—", "", "", "not installed (set ML_PEERS)"]);
  }
  const mll = (await importPeer("ml-logistic-regression")) as { default?: new (o: object) => { train(x: unknown, y: unknown): void; predict(x: unknown): number[] } } | null;
  const matrixModule = process.env.ML_PEERS ? ((await import(pathToFileURL(join(process.env.ML_PEERS, "node_modules", "ml-matrix", "matrix.mjs")).href).catch(() => null)) as { Matrix?: { new (data: number[][]): unknown; columnVector(v: number[]): unknown } } | null) : null;
  if (mll?.default && matrixModule?.Matrix) {
    const M = matrixModule.Matrix;
    const xm = new M(Array.from({ length: N }, (_, i) => train.columns.map((c) => c[i])));
    const ym = M.columnVector(Array.from(train.yCls));
    const steps = 20;
    const model = new mll.default({ numSteps: steps, learningRate: 5e-5 });
    const t = performance.now();
    model.train(xm, ym);
    const ms = performance.now() - t;
    const pred = model.predict(new M(Array.from({ length: N_TEST }, (_, i) => test.columns.map((c) => c[i]))));
    rows.push(["ml-logistic-regression", ...pair(ms, "logistic_regression_ms"), `numSteps ${steps} (its default is 50000), learningRate 5e-5, one run; test accuracy ${accuracyOf(pred, test.yCls).toFixed(4)}`]);
  } else {
    rows.push(["ml-logistic-regression", "—", "", "", "not installed (set ML_PEERS)"]);
  }

  console.log(`machine: ${cpus()[0]?.model ?? "?"} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, scikit-learn ${sk.sklearn}, numpy ${sk.numpy}`);
  console.log(`load average at the start ${startLoad}`);
  console.log(`data: ${N} × ${P} train, ${N_TEST} test; median of ${REPEATS} fits after a warm-up; load average at the end ${loadavg().map((v) => v.toFixed(1)).join(" ")}\n`);
  console.log("| fit | xigua / peer ms | scikit-learn ms (default threads / 1 thread) | ratio (default / 1 thread) | notes |\n|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
}

await main();
