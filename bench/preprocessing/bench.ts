/**
 * standard + one_hot + pca(10) fitted on 100,000 × 20 (15 numeric columns, 5
 * categorical with 10 levels), against scikit-learn's ColumnTransformer + PCA on
 * the same bytes, in the same run (see README.md).
 *   node --import tsx bench/preprocessing/bench.ts [rows] [repeats]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeFrame, type Column, type Frame } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import { resolveSteps } from "../../src/training/pipeline.js";
import { STEP_REGISTRY } from "../../src/training/steps.js";
import type { PcaFitted } from "../../src/training/steps/pca.js";

const rows = Number(process.argv[2] ?? 100_000);
const repeats = Number(process.argv[3] ?? 3);
const NUMERIC = 15;
const CATEGORICAL = 5;
const LEVELS = 10;

/** Correlated numeric columns (three latent factors) and categorical columns that lean on them. */
function generate(): { frame: Frame; numeric: Float64Array[]; codes: Int32Array[] } {
  const rng = createRng(42);
  const latent = Array.from({ length: 3 }, () => Float64Array.from({ length: rows }, () => rng.normal()));
  const numeric = Array.from({ length: NUMERIC }, (_, j) => {
    const w = [rng.normal(), rng.normal(), rng.normal()];
    const scale = 1 + j;
    return Float64Array.from({ length: rows }, (_, i) => scale * (w[0] * latent[0][i] + w[1] * latent[1][i] + w[2] * latent[2][i] + 0.5 * rng.normal()) + j);
  });
  const codes = Array.from({ length: CATEGORICAL }, (_, j) =>
    Int32Array.from({ length: rows }, (_, i) => Math.min(LEVELS - 1, Math.max(0, Math.floor(4.5 + 1.5 * latent[j % 3][i] + rng.normal())))),
  );
  const levels = Array.from({ length: LEVELS }, (_, k) => `L${k}`);
  const columns: Column[] = [
    ...numeric.map((values, j): Column => ({ type: "numeric", name: `x${j}`, values })),
    ...codes.map((c, j): Column => ({ type: "categorical", name: `c${j}`, codes: c, levels })),
  ];
  return { frame: makeFrame(columns), numeric, codes };
}

const steps = resolveSteps([{ step: "scale", method: "standard" }, { step: "one_hot" }, { step: "pca", n_components: 10 }]);

/** Fit every step on the output of the one before; like scikit-learn's Pipeline.fit, the last step is fitted, not applied. */
function fitAll(frame: Frame, applyLast: boolean): { fitted: unknown[]; out: Frame } {
  let X = frame;
  const fitted: unknown[] = [];
  steps.forEach((s, i) => {
    const step = STEP_REGISTRY[s.step];
    const f = step.fit(X, s.spec, { target: null, rng: createRng(0) });
    fitted.push(f);
    if (i < steps.length - 1 || applyLast) X = step.apply(f, X);
  });
  return { fitted, out: X };
}

function best<T>(fn: () => T): { seconds: number; cpu: number; out: T } {
  let seconds = Infinity;
  let cpu = Infinity;
  let out: T | undefined;
  for (let r = 0; r < repeats; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    out = fn();
    seconds = Math.min(seconds, (performance.now() - t0) / 1000);
    const c = process.cpuUsage(c0);
    cpu = Math.min(cpu, (c.user + c.system) / 1e6);
  }
  return { seconds, cpu, out: out as T };
}

const { frame, numeric, codes } = generate();
const dir = mkdtempSync(join(tmpdir(), "xigua-bench-pre-"));
try {
  const concat = (arrays: (Float64Array | Int32Array)[]) => Buffer.concat(arrays.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)));
  writeFileSync(join(dir, "numeric.f64"), concat(numeric));
  writeFileSync(join(dir, "codes.i32"), concat(codes));
  writeFileSync(join(dir, "meta.json"), JSON.stringify({ rows, numeric: NUMERIC, categorical: CATEGORICAL }));

  fitAll(frame, false); // warm-up: JIT
  const fit = best(() => fitAll(frame, false));
  const fitTransform = best(() => fitAll(frame, true));
  const py = spawnSync("/usr/bin/python3", [join(import.meta.dirname, "sklearn_bench.py"), dir, String(repeats)], { encoding: "utf8", maxBuffer: 1 << 24 });
  if (py.status !== 0) throw new Error(`scikit-learn side failed: ${py.stderr}`);
  const sk = JSON.parse(py.stdout) as Record<string, { seconds: number; cpu: number; explained_variance_ratio?: number[] }> & { sklearn: string; numpy: string };

  const ours = (fit.out.fitted[2] as PcaFitted).explained_variance_ratio;
  const theirs = sk.fit_full.explained_variance_ratio!;
  const agreement = Math.max(...Array.from(ours, (v, k) => Math.abs(v - theirs[k])));
  const ms = (s: number) => `${(s * 1000).toFixed(0)} ms`;
  console.log(`rows ${rows}, 15 numeric + 5 categorical × 10 levels → 65 columns → 10 components; best of ${repeats}`);
  console.log(`Node ${process.version}, scikit-learn ${sk.sklearn}, numpy ${sk.numpy}`);
  console.log("| what | wall | CPU |");
  console.log("|---|---|---|");
  console.log(`| xigua fit (scale + one_hot + pca) | ${ms(fit.seconds)} | ${ms(fit.cpu)} |`);
  console.log(`| scikit-learn fit, PCA svd_solver="auto" (randomized) | ${ms(sk.fit_auto.seconds)} | ${ms(sk.fit_auto.cpu)} |`);
  console.log(`| scikit-learn fit, PCA svd_solver="full" | ${ms(sk.fit_full.seconds)} | ${ms(sk.fit_full.cpu)} |`);
  console.log(`| xigua fit + transform | ${ms(fitTransform.seconds)} | ${ms(fitTransform.cpu)} |`);
  console.log(`| scikit-learn fit + transform ("auto") | ${ms(sk.fit_transform_auto.seconds)} | ${ms(sk.fit_transform_auto.cpu)} |`);
  console.log(`| **ratio xigua / scikit-learn (fit, default solver), wall** | **${(fit.seconds / sk.fit_auto.seconds).toFixed(2)}** | ${(fit.cpu / sk.fit_auto.cpu).toFixed(2)} (CPU) |`);
  console.log(`| ratio xigua / scikit-learn (fit, full solver), wall | ${(fit.seconds / sk.fit_full.seconds).toFixed(2)} | ${(fit.cpu / sk.fit_full.cpu).toFixed(2)} (CPU) |`);
  console.log(`explained variance ratios agree with scikit-learn's full solver to ${agreement.toExponential(1)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
