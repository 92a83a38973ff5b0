/**
 * bench/trees, issue 20's case: 10-fold cross-validation on test/fixtures/movies.csv (3,201
 * films, `Director` 550 levels, `Distributor` 174, missing cells in most columns) of
 * `cart` regression on `IMDB Rating`, `cart` and `c45` on the 12-class `Major Genre`,
 * against scikit-learn's pipeline (sklearn_movies.py) timed in the same run.
 *
 *   node --import tsx bench/trees/movies.ts [reps]
 *
 * xigua runs as the service's evaluation worker does (evaluateSpec: the automatic pipeline,
 * the folds, scoring), with default parameters: the trees take the categorical and missing
 * cells natively (C4.5's missing-value weighting). `xigua_imputed` is the same request with
 * `preprocessing: [{ step: "impute" }]` (mean / most frequent, as scikit-learn's pipeline). Each case alternates the two sides `reps`
 * times (default 3) and keeps each side's best, printing the 1-minute load average beside
 * every figure: the machine is shared.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg, cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { readCsv } from "../../src/data/read-csv.js";
import { summarizeColumn } from "../../src/data/summary.js";
import { resolveSpec } from "../../src/training/spec.js";
import { evaluateSpec } from "../../src/training/train.js";

const csv = fileURLToPath(new URL("../../test/fixtures/movies.csv", import.meta.url));
const script = fileURLToPath(new URL("./sklearn_movies.py", import.meta.url));
const reps = Number(process.argv[2] ?? 3);
const frame = readCsv(readFileSync(csv), { maxCells: 1e8 });
const dataset = { id: "movies", row_count: frame.rowCount, columns: frame.columns.map(summarizeColumn) } as never;
const FEATURES = ["US Gross", "Worldwide Gross", "US DVD Sales", "Production Budget", "MPAA Rating", "Running Time min", "Distributor", "Source", "Major Genre", "Creative Type", "Director", "Rotten Tomatoes Rating", "IMDB Votes"];

interface Case {
  readonly algorithm: "cart" | "c45";
  readonly target: string;
  /** scikit-learn's estimator: the regressor, or the classifier's criterion. */
  readonly sklearn: "regression" | "gini" | "entropy";
}
const CASES: Case[] = [
  { algorithm: "cart", target: "IMDB Rating", sklearn: "regression" },
  { algorithm: "cart", target: "Major Genre", sklearn: "gini" },
  { algorithm: "c45", target: "Major Genre", sklearn: "entropy" },
];

const load = (): number => Math.round(loadavg()[0] * 10) / 10;

function xigua(c: Case, imputed = false): { s: number; cpu: number; score: number; load: number } {
  const features = FEATURES.filter((f) => f !== c.target);
  const preprocessing = imputed ? [{ step: "impute" }] : [];
  const spec = resolveSpec({ target: c.target, algorithm: c.algorithm, features, preprocessing, validation: { method: "kfold", k: 10 }, seed: 1 } as never, dataset, "evaluate");
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = evaluateSpec(frame, spec, { progress: () => {}, signal: { aborted: false } } as never);
  const s = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(c0);
  const cpu = (used.user + used.system) / 1e6; // the process's: the collector's helper threads included
  const m = r.evaluation.metrics as Record<string, number>;
  return { s, cpu, score: c.sklearn === "regression" ? m.r2 : m.accuracy, load: load() };
}

function sklearn(c: Case): { s: number; cpu: number; score: number; load: number } {
  const features = FEATURES.filter((f) => f !== c.target);
  const py = spawnSync("/usr/bin/python3", [script, csv, c.target, c.sklearn, "1", ...features], { encoding: "utf8" });
  if (py.status !== 0) throw new Error(py.stderr);
  const r = JSON.parse(py.stdout.trim().split("\n").pop() as string);
  return { s: r.cv10_s, cpu: r.cv10_cpu_s, score: r.score, load: Math.round(r.load * 10) / 10 };
}

const results = [];
for (const c of CASES) {
  const name = `${c.algorithm} ${c.target}`;
  console.error(`${name} …`);
  const xs: ReturnType<typeof xigua>[] = [];
  const xi: ReturnType<typeof xigua>[] = [];
  const ss: ReturnType<typeof sklearn>[] = [];
  for (let r = 0; r < reps; r++) {
    ss.push(sklearn(c));
    xs.push(xigua(c));
    xi.push(xigua(c, true));
    console.error(
      `  round ${r + 1}: xigua ${xs[r].s.toFixed(2)} s, CPU ${xs[r].cpu.toFixed(2)} s (load ${xs[r].load}), imputed ${xi[r].s.toFixed(2)} s, CPU ${xi[r].cpu.toFixed(2)} s (load ${xi[r].load}), scikit-learn ${ss[r].s.toFixed(2)} s, CPU ${ss[r].cpu.toFixed(2)} s (load ${ss[r].load})`,
    );
  }
  const fastest = <T extends { s: number }>(list: T[]): T => list.reduce((a, b) => (b.s < a.s ? b : a));
  const bx = fastest(xs);
  const bi = fastest(xi);
  const bs = fastest(ss);
  results.push({
    case: name,
    metric: c.sklearn === "regression" ? "r2" : "accuracy",
    xigua: { cv10_s: bx.s, cpu_s: bx.cpu, load: bx.load, score: bx.score, all_s: xs.map((x) => x.s) },
    xigua_imputed: { cv10_s: bi.s, cpu_s: bi.cpu, load: bi.load, score: bi.score, all_s: xi.map((x) => x.s) },
    sklearn: { estimator: c.sklearn, cv10_s: bs.s, cpu_s: bs.cpu, load: bs.load, score: bs.score, all_s: ss.map((x) => x.s) },
    ratio: bx.s / bs.s,
    ratio_cpu: bx.cpu / bs.cpu,
    ratio_imputed: bi.s / bs.s,
  });
}
console.log(JSON.stringify({ machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version }, results }, null, 1));
