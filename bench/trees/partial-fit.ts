/**
 * id3 partial_fit (incremental: true) against a refit on all the rows, in one process,
 * interleaved: the update of a tree fitted on n − k rows with the last k, and id3 fitted on all
 * n rows from a fresh copy of them (as a refit reads the rows afresh, with no cached column order).
 * CPU time per call (process.cpuUsage), mean of R rounds, with the load average.
 *
 *   node --import tsx bench/trees/partial-fit.ts
 */
import { readFileSync } from "node:fs";
import { makeFrame, takeRows, type Frame } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import type { TrainingSet } from "../../src/models/contract.js";
import { id3 } from "../../src/models/tree/id3.js";
import { realData } from "../../test/models/tree/fixtures.js";

const R = 10;
const params = id3.params.parse({ incremental: true });
const ctx = () => ({ rng: createRng(0), progress: () => {} });
const cpuMs = (f: () => void): number => {
  const c = process.cpuUsage();
  f();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
};
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

function rowsOf(X: Frame, y: Int32Array, classes: readonly string[], from: number, to: number): TrainingSet {
  const rows = Array.from({ length: to - from }, (_, i) => from + i);
  return { X: takeRows(X, rows), target: { task: "classification", classes, y: Int32Array.from(rows, (r) => y[r]) } };
}

function categoricalTable(): { X: Frame; y: Int32Array; classes: string[] } {
  const rng = createRng(7);
  const n = 20_000;
  const cols = Array.from({ length: 10 }, (_, j) => ({ type: "categorical" as const, name: `c${j}`, levels: ["a", "b", "c", "d", "e"], codes: Int32Array.from({ length: n }, () => rng.int(5)) }));
  const y = Int32Array.from({ length: n }, (_, i) => (cols[0].codes[i] + cols[1].codes[i] * cols[2].codes[i] + (rng.int(10) === 0 ? 1 : 0)) % 3);
  return { X: makeFrame(cols), y, classes: ["0", "1", "2"] };
}

const digits = realData("digits").train;
const tables = {
  "digits (1,347 × 64 numeric)": { X: digits.X, y: (digits.target as { y: Int32Array }).y, classes: (digits.target as { classes: readonly string[] }).classes },
  "synthetic (20,000 × 10 categorical, 5 levels)": categoricalTable(),
};
for (const [name, t] of Object.entries(tables)) {
  const n = t.X.rowCount;
  for (const k of [1, 10, 100]) {
    const old = id3.fit(rowsOf(t.X, t.y, t.classes, 0, n - k), params, ctx());
    const added = rowsOf(t.X, t.y, t.classes, n - k, n);
    let update = 0;
    let refit = 0;
    for (let r = 0; r < R; r++) {
      update += cpuMs(() => id3.partialFit!(old, added, params, ctx()));
      const fresh = rowsOf(t.X, t.y, t.classes, 0, n);
      refit += cpuMs(() => id3.fit(fresh, params, ctx()));
    }
    console.log(`${name}, k = ${k}: partial_fit ${(update / R).toFixed(1)} ms CPU, refit ${(refit / R).toFixed(1)} ms CPU (load ${load()})`);
  }
}
