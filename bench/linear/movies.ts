/**
 * bench/linear, issue 20: 10-fold cross-validation on the movies table (3,201 films;
 * Director 550 levels, Distributor 174, missing cells) of `ridge` on IMDB Rating and
 * `logistic_regression` on the 12-class Major Genre, through the same code path as
 * POST /v1/evaluations (resolveSpec + evaluateSpec: automatic impute and one_hot,
 * each fold fitted on its own training rows), against scikit-learn's
 * SimpleImputer + OneHotEncoder(handle_unknown="ignore") + estimator under
 * cross_validate (movies_sklearn.py, Debian's /usr/bin/python3), in one run,
 * interleaved, with the load average beside each figure. No assertions.
 * Run: node --import tsx bench/linear/movies.ts [rounds]
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { readCsv } from "../../src/data/read-csv.js";
import { summarizeColumn } from "../../src/data/summary.js";
import { resolveSpec, type DatasetColumns } from "../../src/training/spec.js";
import { evaluateSpec } from "../../src/training/train.js";

const CSV = new URL("../../test/fixtures/movies.csv", import.meta.url);
const FEATURES = ["US Gross", "Worldwide Gross", "US DVD Sales", "Production Budget", "MPAA Rating", "Running Time min", "Distributor", "Source", "Major Genre", "Creative Type", "Director", "Rotten Tomatoes Rating", "IMDB Votes"];
const CASES = [
  { algorithm: "ridge", target: "IMDB Rating" },
  { algorithm: "logistic_regression", target: "Major Genre" },
] as const;
const rounds = Number(process.argv[2] ?? 3);

const frame = readCsv(readFileSync(CSV), { maxCells: 1e8 });
const dataset = { id: "movies", row_count: frame.rowCount, columns: frame.columns.map(summarizeColumn) } as unknown as DatasetColumns;
const load = (): string => loadavg()[0].toFixed(1);

function xigua(algorithm: string, target: string): { seconds: number; cpu: number; load: string; metric: string } {
  const features = FEATURES.filter((f) => f !== target);
  const spec = resolveSpec({ target, algorithm, features, validation: { method: "kfold", k: 10 }, seed: 1 } as never, dataset, "evaluate");
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const { evaluation } = evaluateSpec(frame, spec, { progress: () => {}, signal: { aborted: false } } as never);
  const seconds = (performance.now() - t) / 1000;
  const used = process.cpuUsage(cpu0);
  const cpu = (used.user + used.system) / 1e6;
  const metrics = evaluation.metrics as Record<string, number>;
  const metric = "r2" in metrics ? `R² ${metrics.r2.toFixed(3)}` : `accuracy ${metrics.accuracy.toFixed(3)}`;
  return { seconds, cpu, load: load(), metric };
}

function sklearn(algorithm: string, target: string, threads: "default" | "1"): { seconds: number; cpu: number; load: string; metric: string } {
  const env = threads === "1" ? { ...process.env, OMP_NUM_THREADS: "1", OPENBLAS_NUM_THREADS: "1" } : process.env;
  const py = spawnSync("/usr/bin/python3", [new URL("./movies_sklearn.py", import.meta.url).pathname, CSV.pathname, algorithm, target, JSON.stringify(FEATURES)], { env, encoding: "utf8" });
  if (py.status !== 0) throw new Error(`movies_sklearn.py failed: ${py.stderr}`);
  const out = JSON.parse(py.stdout.trim().split("\n").pop()!) as { seconds: number; cpu: number; metric: string };
  return { ...out, load: load() };
}

const rows: string[] = [];
for (const { algorithm, target } of CASES) {
  const ours: number[] = [];
  const theirs: number[] = [];
  const oursCpu: number[] = [];
  const theirsCpu: number[] = [];
  let notes = "";
  for (let r = 0; r < rounds; r++) {
    const a = xigua(algorithm, target);
    const b = sklearn(algorithm, target, "1");
    ours.push(a.seconds);
    theirs.push(b.seconds);
    oursCpu.push(a.cpu);
    theirsCpu.push(b.cpu);
    notes = `${a.metric} vs ${b.metric}`;
    rows.push(`| ${algorithm} (${target}) round ${r + 1} | ${a.seconds.toFixed(2)} / ${a.cpu.toFixed(2)} (load ${a.load}) | ${b.seconds.toFixed(2)} / ${b.cpu.toFixed(2)} (load ${b.load}) | ${(a.seconds / b.seconds).toFixed(2)} / ${(a.cpu / b.cpu).toFixed(2)} | ${notes} |`);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  rows.push(`| **${algorithm} median** | **${median(ours).toFixed(2)} / ${median(oursCpu).toFixed(2)}** | **${median(theirs).toFixed(2)} / ${median(theirsCpu).toFixed(2)}** | **${(median(ours) / median(theirs)).toFixed(2)} / ${(median(oursCpu) / median(theirsCpu)).toFixed(2)}** | |`);
}
console.log(`${cpus().length} × ${cpus()[0].model}, Node ${process.version}; 10-fold CV, seed 1; scikit-learn with one thread\n`);
console.log("| case | xigua s wall / CPU | scikit-learn s wall / CPU | ratio wall / CPU | fold-mean metric |");
console.log("|---|---|---|---|---|");
for (const row of rows) console.log(row);
