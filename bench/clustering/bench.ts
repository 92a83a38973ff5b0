/**
 * bench/clustering: xigua's kmeans and gmm against scikit-learn 1.2 single-threaded
 * (OMP_NUM_THREADS=1, OPENBLAS_NUM_THREADS=1) on make_blobs(100,000 × 20, 8 centres,
 * cluster_std 4, random_state=0), k = 8.
 *
 *   node --import tsx bench/clustering/bench.ts
 *
 * scikit-learn writes the data and its k-means++ rows (sklearn_bench.py DIR data); then each
 * case is timed on the same bytes, the two sides interleaved (scikit-learn, xigua, scikit-learn,
 * xigua), each keeping its best wall time and that run's CPU time — the machine is shared, so
 * alternating gives both sides the same chances of a quiet moment:
 *   kmeans from the same rows (the same Lloyd iterations on both sides) · kmeans with its own
 *   seeded k-means++ · gmm (full) from the same start (weights 1/8, means at the rows,
 *   covariances 4·I) · gmm with its own k-means start.
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
import { dbscan, dbscanParams } from "../../src/models/cluster/dbscan.js";
import { agnes, agnesParams } from "../../src/models/cluster/agnes.js";

const dir = mkdtempSync(join(tmpdir(), "xigua-bench-cluster-"));
const script = fileURLToPath(new URL("./sklearn_bench.py", import.meta.url));
const env = { ...process.env, OMP_NUM_THREADS: "1", OPENBLAS_NUM_THREADS: "1", MKL_NUM_THREADS: "1" };
const python = (arg: string) => {
  const py = spawnSync("/usr/bin/python3", [script, dir, arg], { encoding: "utf8", env });
  if (py.status !== 0) throw new Error(py.stderr);
  return py.stdout.trim() ? JSON.parse(py.stdout.trim().split("\n").pop() as string) : null;
};
const load0 = loadavg();
python("data");
const read = (name: string): ArrayBuffer => {
  const b = readFileSync(join(dir, name));
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};
const flat = new Float64Array(read("X.f64"));
const rows = Array.from(new Int32Array(read("rows.i32")));
const d = 20;
const frameOf = (m: Float64Array, dim: number): Frame => {
  const rowCount = m.length / dim;
  return { rowCount, columns: Array.from({ length: dim }, (_, j) => ({ type: "numeric" as const, name: `x${j}`, values: Float64Array.from({ length: rowCount }, (_, i) => m[i * dim + j]) })) };
};
const X = frameOf(flat, d);
const X2 = frameOf(new Float64Array(read("X2.f64")), 2);
const X20 = frameOf(new Float64Array(read("X20.f64")), 20);
const clusters = (labels: Int32Array) => {
  let k = 0;
  let noise = 0;
  for (const l of labels) {
    if (l < 0) noise++;
    else k = Math.max(k, l + 1);
  }
  return `${k} clusters, ${noise} noise`;
};
const ctx = () => ({ rng: createRng(0), progress: () => {} });

interface Timing {
  s: number;
  cpu_s: number;
  n_iter: number;
  objective: string;
  /** Peak resident memory above the resident memory before the fits (bytes), where reported. */
  peak_extra?: number;
}

function ours(reps: number, f: () => { n_iter: number; objective: string }): Timing {
  let best: Timing | undefined;
  const rss0 = process.memoryUsage().rss;
  for (let i = 0; i < reps; i++) {
    const c = process.cpuUsage();
    const t0 = performance.now();
    const r = f();
    const s = (performance.now() - t0) / 1000;
    const u = process.cpuUsage(c);
    if (!best || s < best.s) best = { s, cpu_s: (u.user + u.system) / 1e6, ...r };
  }
  // maxRSS is the process's peak so far: meaningful for the memory-heavy case (agnes), whose peak dwarfs the earlier ones.
  return { ...best!, peak_extra: process.resourceUsage().maxRSS * 1024 - rss0 };
}

const CASES: { name: string; py: string; reps: number; rounds: number; run: () => { n_iter: number; objective: string } }[] = [
  { name: "kmeans k=8, same rows", py: "kmeans_same", reps: 5, rounds: 3, run: () => { const s = kmeans.fit({ X, target: null }, kmeansParams.parse({ n_clusters: 8, init: { kind: "rows", rows } }), ctx()); return { n_iter: s.n_iter, objective: `SSE ${s.inertia.toExponential(6)}` }; } },
  { name: "kmeans k=8, own k-means++", py: "kmeans_own", reps: 5, rounds: 3, run: () => { const s = kmeans.fit({ X, target: null }, kmeansParams.parse({ n_clusters: 8 }), ctx()); return { n_iter: s.n_iter, objective: `SSE ${s.inertia.toExponential(6)}` }; } },
  { name: "gmm k=8 full, same start", py: "gmm_same", reps: 1, rounds: 2, run: () => { const s = gmm.fit({ X, target: null }, gmmParams.parse({ n_components: 8, init: { kind: "rows", rows, variance: 4 } }), ctx()); return { n_iter: s.n_iter, objective: `mean log-lik. ${gmmScore(s, X).toFixed(5)}` }; } },
  { name: "gmm k=8 full, own k-means start", py: "gmm_own", reps: 1, rounds: 2, run: () => { const s = gmm.fit({ X, target: null }, gmmParams.parse({ n_components: 8 }), ctx()); return { n_iter: s.n_iter, objective: `mean log-lik. ${gmmScore(s, X).toFixed(5)}` }; } },
  { name: "dbscan 100k × 2 (eps 0.1, min_samples 10)", py: "dbscan_2", reps: 3, rounds: 2, run: () => { const s = dbscan.fit({ X: X2, target: null }, dbscanParams.parse({ eps: 0.1, min_samples: 10 }), ctx()); return { n_iter: 0, objective: clusters(s.labels) }; } },
  { name: "dbscan 20k × 20 (eps 4.5, min_samples 10)", py: "dbscan_20", reps: 3, rounds: 2, run: () => { const s = dbscan.fit({ X: X20, target: null }, dbscanParams.parse({ eps: 4.5, min_samples: 10 }), ctx()); return { n_iter: 0, objective: clusters(s.labels) }; } },
  { name: "agnes ward 20k × 20 (8 clusters)", py: "agnes_ward", reps: 1, rounds: 1, run: () => { const s = agnes.fit({ X: X20, target: null }, agnesParams.parse({ linkage: "ward", cut: { kind: "n_clusters", n_clusters: 8 } }), ctx()); return { n_iter: 0, objective: clusters(s.labels) }; } },
];
// `bench.ts dbscan agnes` runs only the cases whose names start with one of the words.
const only = process.argv.slice(2);

const lines: string[] = [];
// Peak memory only where scikit-learn reports it too (the dbscan and agnes cases, each in a fresh Python process).
let showPeak = false;
const mb = (t: Timing) => (showPeak && t.peak_extra !== undefined && t.peak_extra > 0 ? `, peak +${(t.peak_extra / 2 ** 20).toFixed(0)} MiB` : "");
const f = (t: Timing) => `${t.s.toFixed(3)} s / ${t.cpu_s.toFixed(3)} s (${t.n_iter > 0 ? `${t.n_iter} it.` : ""}${mb(t)})`.replace(" ()", "").replace("(, ", "(");
for (const c of CASES.filter((c) => only.length === 0 || only.some((w) => c.name.startsWith(w)))) {
  let sk: Timing | undefined;
  let xi: Timing | undefined;
  for (let r = 0; r < c.rounds; r++) {
    console.error(`${c.name}: round ${r + 1}`);
    const p = python(c.py) as { s: number; cpu_s: number; n_iter: number; inertia?: number; score?: number; clusters?: number; noise?: number; peak_extra?: number };
    const objective = p.inertia !== undefined ? `SSE ${p.inertia.toExponential(6)}` : p.score !== undefined ? `mean log-lik. ${p.score.toFixed(5)}` : `${p.clusters} clusters, ${p.noise} noise`;
    const skr: Timing = { s: p.s, cpu_s: p.cpu_s, n_iter: p.n_iter, objective, peak_extra: p.peak_extra };
    if (!sk || skr.s < sk.s) sk = skr;
    const xr = ours(c.reps, c.run);
    if (!xi || xr.s < xi.s) xi = xr;
  }
  showPeak = sk!.peak_extra !== undefined;
  lines.push(`| ${c.name} | ${loadavg()[0].toFixed(1)} | ${f(xi!)} | ${f(sk!)} | ${(xi!.s / sk!.s).toFixed(2)} × | ${(xi!.cpu_s / sk!.cpu_s).toFixed(2)} × | ${xi!.objective} / ${sk!.objective.replace(/^(SSE|mean log-lik\.) /, "")} |`);
}
rmSync(dir, { recursive: true, force: true });
console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}; load average before ${load0.map((v) => v.toFixed(1)).join(" ")}, after ${loadavg().map((v) => v.toFixed(1)).join(" ")}`);
console.log("| case | load (1 min) | xigua wall / CPU | scikit-learn wall / CPU | wall ratio | CPU ratio | objective (xigua / scikit-learn) |");
console.log("|---|---|---|---|---|---|---|");
for (const l of lines) console.log(l);
