/** Shared by the clustering tests: watermelon 4.0 (SEEDS.md numbers rows from 1; here rows are 0-based) and partition comparison. */
import assert from "node:assert/strict";
import { makeFrame, type Frame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { readCsv } from "../../../src/data/read-csv.js";
import type { FitContext } from "../../../src/models/contract.js";
import { fixture } from "../../data/helpers.js";

export const ctx = (seed = 1): FitContext => ({ rng: createRng(seed), progress: () => {} });

/** 30 rows of 密度, 含糖率 (the id column dropped). */
export function watermelon4(): Frame {
  const f = readCsv(fixture("watermelon-4.0.csv"));
  return makeFrame(f.columns.filter((c) => c.name !== "编号"));
}

/** Frame of a row-major matrix. */
export function frameOf(X: ArrayLike<number>, n: number, d: number): Frame {
  return makeFrame(Array.from({ length: d }, (_, j) => ({ type: "numeric" as const, name: `x${j}`, values: Float64Array.from({ length: n }, (_, i) => X[i * d + j]) })));
}

/** The partition as sorted lists of 0-based rows, lists sorted by their first row (label numbers ignored; -1 rows left out). */
export function partition(labels: ArrayLike<number>): number[][] {
  const groups = new Map<number, number[]>();
  for (let i = 0; i < labels.length; i++) {
    if (labels[i] < 0) continue;
    const g = groups.get(labels[i]) ?? [];
    g.push(i);
    groups.set(labels[i], g);
  }
  return [...groups.values()].sort((a, b) => a[0] - b[0]);
}

/** SEEDS.md's 1-based clusters as a partition of 0-based rows. */
export function seedPartition(clusters: number[][]): number[][] {
  return clusters.map((c) => c.map((r) => r - 1).sort((a, b) => a - b)).sort((a, b) => a[0] - b[0]);
}

export function assertClose(actual: number, expected: number, tol: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected} (±${tol})`);
}

/** n rows × d columns of seeded blobs around `centres` well-separated points. */
export function blobs(n: number, d: number, centres: number, seed = 5): { X: Float64Array; truth: Int32Array } {
  const rng = createRng(seed);
  const mu = Float64Array.from({ length: centres * d }, () => rng.normal() * 10);
  const X = new Float64Array(n * d);
  const truth = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = i % centres;
    truth[i] = c;
    for (let j = 0; j < d; j++) X[i * d + j] = mu[c * d + j] + rng.normal();
  }
  return { X, truth };
}
