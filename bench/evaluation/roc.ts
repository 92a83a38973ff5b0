/**
 * ROC AUC + ROC curve on 1,000,000 scores, xigua vs scikit-learn's roc_auc_score +
 * roc_curve on the same data (issue 4 target: xigua ≤ 2 × scikit-learn).
 *
 *   node --import tsx bench/evaluation/roc.ts [n]
 *
 * The data are written to a temporary binary file that /usr/bin/python3 (Debian's, with
 * scikit-learn) reads with numpy. Both sides time the best of 5 runs in-process.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRng } from "../../src/data/random.js";
import { aucFromCounts, downsampleCurve, rocAuc, rocCurve, rocFromCounts, rocToWire, thresholdCounts } from "../../src/evaluation/index.js";

const n = Number(process.argv[2] ?? 1_000_000);
const RUNS = 5;

function bestOf(runs: number, fn: () => void): number {
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

const rng = createRng(2024);
const y = new Int32Array(n);
const s = new Float64Array(n);
for (let i = 0; i < n; i++) {
  y[i] = rng.next() < 0.3 ? 1 : 0;
  s[i] = rng.next() * 0.7 + y[i] * rng.next() * 0.5;
}

const dir = mkdtempSync(join(tmpdir(), "xigua-roc-"));
const file = join(dir, "data.bin");
writeFileSync(file, Buffer.concat([Buffer.from(y.buffer), Buffer.from(s.buffer)]));

const python = `
import json, sys, time
import numpy as np
from sklearn.metrics import roc_auc_score, roc_curve
n = int(sys.argv[2])
raw = open(sys.argv[1], "rb").read()
y = np.frombuffer(raw, dtype=np.int32, count=n)
s = np.frombuffer(raw, dtype=np.float64, count=n, offset=4 * n)
best = float("inf")
for _ in range(${RUNS}):
    t0 = time.perf_counter()
    auc = roc_auc_score(y, s)
    fpr, tpr, thr = roc_curve(y, s)
    best = min(best, time.perf_counter() - t0)
print(json.dumps({"best_ms": best * 1000, "auc": float(auc), "points": int(len(fpr))}))
`;

let sklearn: { best_ms: number; auc: number; points: number } | null = null;
const py = spawnSync("/usr/bin/python3", ["-c", python, file, String(n)], { encoding: "utf8" });
rmSync(dir, { recursive: true, force: true });
if (py.status === 0) sklearn = JSON.parse(py.stdout.trim().split("\n").at(-1)!);
else console.error(`scikit-learn run failed: ${py.stderr}`);

let auc: number | null = null;
let points = 0;
const separate = bestOf(RUNS, () => {
  auc = rocAuc(y, s);
  points = rocCurve(y, s).fpr.length;
});
const shared = bestOf(RUNS, () => {
  const counts = thresholdCounts(y, s);
  aucFromCounts(counts);
  rocFromCounts(counts);
});
const full = rocToWire(rocCurve(y, s, { dropIntermediate: false }));
const thin = bestOf(RUNS, () => downsampleCurve(full, 200));

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
console.log(`n = ${n.toLocaleString("en")}, best of ${RUNS}, node ${process.version}`);
console.log(`xigua rocAuc + rocCurve (two sorts, as scikit-learn does): ${fmt(separate)}  auc ${auc}  points ${points}`);
console.log(`xigua thresholdCounts once → auc + ROC:                   ${fmt(shared)}`);
if (sklearn) {
  console.log(`scikit-learn roc_auc_score + roc_curve:                    ${fmt(sklearn.best_ms)}  auc ${sklearn.auc}  points ${sklearn.points}`);
  console.log(`ratio xigua / scikit-learn: ${(separate / sklearn.best_ms).toFixed(2)} (target ≤ 2)`);
  if (Math.abs((auc ?? NaN) - sklearn.auc) > 1e-12 || points !== sklearn.points) console.log("WARNING: results differ from scikit-learn");
}
console.log(`downsampleCurve of the full ${full.fpr.length.toLocaleString("en")}-point ROC to 200 points: ${fmt(thin)}`);
