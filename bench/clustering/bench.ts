/**
 * bench/clustering: xigua's kmeans and gmm against scikit-learn 1.2 single-threaded
 * (OMP_NUM_THREADS=1, OPENBLAS_NUM_THREADS=1) on make_blobs(100,000 × 20, 8 centres,
 * cluster_std 4, random_state=0), k = 8.
 *
 *   node --import tsx bench/clustering/bench.ts
 *
 * scikit-learn writes the data and its k-means++ rows (sklearn_bench.py) and times itself on
 * the same bytes; this script then times, best of several runs: kmeans from the same rows
 * (the same Lloyd iterations on both sides), kmeans with its own seeded k-means++, gmm (full)
 * from the same start (weights 1/8, means at the rows, covariances 4·I), and gmm with its own
 * k-means start. Iteration counts and objectives are printed beside the times.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRng } from "../../src/data/random.js";
import type { Frame } from "../../src/data/frame.js";
import { gmm, gmmParams, gmmScore } from "../../src/models/cluster/gmm.js";
import { kmeans, kmeansParams } from "../../src/models/cluster/kmeans.js";

const dir = mkdtempSync(join(tmpdir(), "xigua-bench-cluster-"));
const script = fileURLToPath(new URL("./sklearn_bench.py", import.meta.url));
const load0 = loadavg();
console.error("scikit-learn: generating the data and timing KMeans, GaussianMixture …");
const py = spawnSync("/usr/bin/python3", [script, dir], { encoding: "utf8", env: { ...process.env, OMP_NUM_THREADS: "1", OPENBLAS_NUM_THREADS: "1", MKL_NUM_THREADS: "1" } });
if (py.status !== 0) throw new Error(py.stderr);
const sk = JSON.parse(py.stdout.trim().split("\n").pop() as string);

const read = (name: string): ArrayBuffer => {
  const b = readFileSync(join(dir, name));
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};
const flat = new Float64Array(read("X.f64"));
const rows = Array.from(new Int32Array(read("rows.i32")));
rmSync(dir, { recursive: true, force: true });
const d = 20;
const n = flat.length / d;
const X: Frame = { rowCount: n, columns: Array.from({ length: d }, (_, j) => ({ type: "numeric" as const, name: `x${j}`, values: Float64Array.from({ length: n }, (_, i) => flat[i * d + j]) })) };
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

console.error("xigua …");
const [kmSame, km1] = best(5, () => kmeans.fit({ X, target: null }, kmeansParams.parse({ n_clusters: 8, init: { kind: "rows", rows } }), ctx()));
const [kmOwn, km2] = best(5, () => kmeans.fit({ X, target: null }, kmeansParams.parse({ n_clusters: 8 }), ctx()));
const [gmSame, gm1] = best(1, () => gmm.fit({ X, target: null }, gmmParams.parse({ n_components: 8, init: { kind: "rows", rows, variance: 4 } }), ctx()));
const [gmOwn, gm2] = best(1, () => gmm.fit({ X, target: null }, gmmParams.parse({ n_components: 8 }), ctx()));

const line = (name: string, ours: number, theirs: { s: number; n_iter: number }, iter: number, objective: string) =>
  `| ${name} | ${ours.toFixed(3)} s (${iter} it.) | ${theirs.s.toFixed(3)} s (${theirs.n_iter} it.) | ${(ours / theirs.s).toFixed(2)} × | ${objective} |`;
console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}; load average before ${load0.map((v) => v.toFixed(1)).join(" ")}, after ${loadavg().map((v) => v.toFixed(1)).join(" ")}`);
console.log("| case | xigua | scikit-learn | ratio | objective (xigua / scikit-learn) |");
console.log("|---|---|---|---|---|");
console.log(line("kmeans k=8, same rows", kmSame, sk.kmeans_same_init, km1.n_iter, `SSE ${km1.inertia.toExponential(6)} / ${sk.kmeans_same_init.inertia.toExponential(6)}`));
console.log(line("kmeans k=8, own k-means++", kmOwn, sk.kmeans_own_init, km2.n_iter, `SSE ${km2.inertia.toExponential(6)} / ${sk.kmeans_own_init.inertia.toExponential(6)}`));
console.log(line("gmm k=8 full, same start", gmSame, sk.gmm_same_init, gm1.n_iter, `mean log-lik. ${gmmScore(gm1, X).toFixed(5)} / ${sk.gmm_same_init.score.toFixed(5)}`));
console.log(line("gmm k=8 full, own k-means start", gmOwn, sk.gmm_own_init, gm2.n_iter, `mean log-lik. ${gmmScore(gm2, X).toFixed(5)} / ${sk.gmm_own_init.score.toFixed(5)}`));
