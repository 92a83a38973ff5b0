/**
 * A node's training rows as the linear learners of the multivariate trees see them
 * (seed 000 §4.5): a row-major copy standardised by the node's own weighted mean and
 * standard deviation, so a hyperplane learned here does not depend on the features'
 * units; and Rosenblatt's perceptron (linear/binary-perceptron.ts, with per-row
 * weights and Gallant's pocket) trained on them, for the perceptron splits of
 * oblique.ts and the perceptron leaves of leaf-model.ts.
 */
import type { Rng } from "../../data/random.js";
import type { AbortFlag } from "../contract.js";
import { runEpochs, type EpochParams } from "../linear/binary-perceptron.js";
import type { NodeRange } from "./arena.js";
import type { TreeColumns } from "./tree-columns.js";

export interface NodeRows {
  readonly m: number;
  readonly d: number;
  /** Training row of each of the m rows (into the TreeColumns the copy was made from). */
  readonly rows: Int32Array;
  /** Row-major m × d, standardised; constant features are all zero. */
  readonly x: Float64Array;
  readonly y: Int32Array;
  readonly w: Float64Array;
  readonly mean: Float64Array;
  readonly sd: Float64Array;
  readonly K: number;
  /** Σ w. */
  readonly W: number;
}

/**
 * The rows `rows` (with classes `y` and weights `w`, one per row) standardised; null when a
 * feature is categorical or a value is missing (a linear test needs numbers). W is passed in
 * as the node already summed it, so the split search reads the very same number.
 */
export function standardisedRows(rows: Int32Array, y: Int32Array, w: Float64Array, cols: TreeColumns, K: number, W: number): NodeRows | null {
  const m = rows.length;
  const d = cols.num.length;
  if (cols.num.some((c) => !c)) return null;
  const x = new Float64Array(m * d);
  const mean = new Float64Array(d);
  const sd = new Float64Array(d);
  for (let i = 0; i < m; i++) {
    const r = rows[i];
    for (let j = 0; j < d; j++) {
      const v = (cols.num[j] as Float64Array)[r];
      if (Number.isNaN(v)) return null;
      x[i * d + j] = v;
    }
  }
  for (let j = 0; j < d; j++) {
    let s = 0;
    for (let i = 0; i < m; i++) s += w[i] * x[i * d + j];
    mean[j] = s / W;
    let q = 0;
    for (let i = 0; i < m; i++) q += w[i] * (x[i * d + j] - mean[j]) ** 2;
    const v = Math.sqrt(q / W);
    sd[j] = v > 1e-12 * (1 + Math.abs(mean[j])) ? v : 0;
    for (let i = 0; i < m; i++) x[i * d + j] = sd[j] > 0 ? (x[i * d + j] - mean[j]) / sd[j] : 0;
  }
  return { m, d, rows, x, y, w, mean, sd, K, W };
}

/** The training rows, classes and weights of a node's slots, in slot order. */
export function nodeRowsOf(range: NodeRange): { rows: Int32Array; y: Int32Array; w: Float64Array } {
  const { arena, start, end } = range;
  const m = end - start;
  const rows = new Int32Array(m);
  const y = new Int32Array(m);
  const w = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    const s = arena.members[start + i];
    rows[i] = arena.rows[s];
    y[i] = (arena.yc as Int32Array)[s];
    w[i] = arena.w[s];
  }
  return { rows, y, w };
}

/** On standardised rows, starting from w = 0, the learning rate only scales the plane: η = 1. */
const NODE_PERCEPTRON: EpochParams = { eta0: 1, shuffle: true, fit_intercept: true };

/** A hyperplane on the standardised rows: a·z − θ ≥ 0 is the positive side. */
export interface Plane {
  readonly a: Float64Array;
  readonly theta: number;
}

/** Class `positive` against the others present: a pocket perceptron of `epochs` passes, row visits shuffled by `rng`. */
export function nodePerceptron(data: NodeRows, positive: number, epochs: number, rng: Rng, signal?: AbortFlag): Plane {
  const labels = new Int32Array(data.m);
  for (let i = 0; i < data.m; i++) labels[i] = data.y[i] === positive ? 1 : 0;
  const a = new Float64Array(data.d);
  const run = runEpochs(data.x, labels, data.m, data.d, a, 0, NODE_PERCEPTRON, { rng, progress: () => {}, signal }, epochs, { weights: data.w, pocket: true });
  return { a, theta: run.theta };
}

/** The classes with positive weight among the rows, ascending. */
export function presentClasses(data: NodeRows): number[] {
  const classW = new Float64Array(data.K);
  for (let i = 0; i < data.m; i++) classW[data.y[i]] += data.w[i];
  const out: number[] = [];
  for (let k = 0; k < data.K; k++) if (classW[k] > 0) out.push(k);
  return out;
}
