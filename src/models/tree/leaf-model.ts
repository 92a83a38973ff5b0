/**
 * Perceptron leaves: Utgoff's perceptron tree (1988; seed 000 §4.5, 感知机树 "trains a
 * perceptron at every leaf"). A leaf whose training rows hold two or more classes keeps
 * a pocket perceptron (linear-node.ts) trained on those rows and predicts the class it
 * assigns; the grower (grow.ts) stops at a node whose perceptron already puts every row
 * in its own class, so a node is split only where its perceptron cannot fit its rows.
 *
 * Layout in TreeState.leafModels, from leafModelOffset[leaf], for a leaf whose `value`
 * gives positive weight to c ≥ 2 classes (ascending, "the leaf's classes"):
 * - H planes of d + 1 numbers, the d weights on the raw features then θ: for two
 *   classes H = 1 and Σ w·x − θ ≥ 0 assigns the second; for more H = c, one per class
 *   against the others, and the largest Σ w·x − θ assigns (ties to the earlier class);
 * - c × c cells: row r holds, per class of the leaf, the training weight of the leaf's
 *   rows the planes assign to class r.
 * Probabilities: a row assigned class r gets cell row r normalised — the class mix of
 * the leaf's training rows that fell on the same side of the planes, an estimate that
 * never fits the training rows worse than the leaf's majority does; where the planes
 * assigned no training row to r, one-hot on r. A row missing a value the planes read
 * gets the leaf's class distribution.
 */
import type { Rng } from "../../data/random.js";
import type { AbortFlag } from "../contract.js";
import { branchOf } from "./arena.js";
import type { TreeBuilder } from "./builder.js";
import type { LeafModelOptions } from "./engine-options.js";
import { nodePerceptron, standardisedRows, type NodeRows } from "./linear-node.js";
import type { TreeColumns } from "./tree-columns.js";
import { LEAF, leafClasses, leafModelSize, planesOf } from "./tree-state.js";

export interface FittedLeaf {
  readonly model: Float64Array;
  /** Every row of positive weight is assigned its own class. */
  readonly fits: boolean;
}

/** A leaf model on the leaf's rows (`classes`: the leaf's classes, at least two). */
export function fitLeafModel(data: NodeRows, cols: TreeColumns, classes: readonly number[], options: LeafModelOptions, rng: Rng, signal?: AbortFlag): FittedLeaf {
  const { d } = data;
  const c = classes.length;
  const H = planesOf(c);
  const model = new Float64Array(leafModelSize(c, d));
  for (let h = 0; h < H; h++) {
    const { a, theta } = nodePerceptron(data, classes[c === 2 ? 1 : h], options.maxIter, rng, signal);
    // Back to raw features: a·(x − μ)/σ − θ = Σ (a_j/σ_j)·x_j − (θ + Σ a_j·μ_j/σ_j).
    const o = h * (d + 1);
    let t = theta;
    for (let j = 0; j < d; j++) {
      if (data.sd[j] === 0 || a[j] === 0) continue;
      model[o + j] = a[j] / data.sd[j];
      t += (a[j] * data.mean[j]) / data.sd[j];
    }
    model[o + d] = t;
  }
  // The cells, and whether the planes fit, read on the raw values exactly as predict reads them.
  const cells = H * (d + 1);
  const index = new Int32Array(data.K).fill(-1);
  classes.forEach((k, r) => (index[k] = r));
  let fits = true;
  for (let i = 0; i < data.m; i++) {
    if (!(data.w[i] > 0)) continue;
    const r = assignLeaf(model, 0, c, d, cols.num, data.rows[i]);
    const truth = index[data.y[i]];
    if (r < 0) {
      fits = false;
      continue;
    }
    model[cells + r * c + truth] += data.w[i];
    if (r !== truth) fits = false;
  }
  return { model, fits };
}

/** The class (index among the leaf's c classes) the planes from `off` assign to `row`; -1 when a value they read is missing. */
export function assignLeaf(models: Float64Array, off: number, c: number, d: number, num: readonly (Float64Array | null)[], row: number): number {
  const H = planesOf(c);
  let best = -1;
  let bestZ = 0;
  for (let h = 0; h < H; h++) {
    const o = off + h * (d + 1);
    let z = -models[o + d];
    for (let j = 0; j < d; j++) {
      const wj = models[o + j];
      if (wj !== 0) z += wj * (num[j] as Float64Array)[row];
    }
    if (z !== z) return -1;
    if (H === 1) return z >= 0 ? 1 : 0;
    if (best < 0 || z > bestZ) {
      best = h;
      bestZ = z;
    }
  }
  return best;
}

/**
 * Adds wt × the probabilities of leaf `node`'s model for `row` to out[o .. o + K); false
 * (nothing added) when the row misses a value the planes read.
 */
export function addLeafModelOutput(value: ArrayLike<number>, node: number, K: number, models: Float64Array, off: number, d: number, num: readonly (Float64Array | null)[], row: number, out: Float64Array, o: number, wt: number): boolean {
  const base = node * K;
  let c = 0;
  for (let k = 0; k < K; k++) if (value[base + k] > 0) c++;
  const r = assignLeaf(models, off, c, d, num, row);
  if (r < 0) return false;
  const cells = off + planesOf(c) * (d + 1) + r * c;
  let total = 0;
  for (let q = 0; q < c; q++) total += models[cells + q];
  let q = 0;
  for (let k = 0; k < K; k++) {
    if (!(value[base + k] > 0)) continue;
    out[o + k] += total > 0 ? (wt * models[cells + q]) / total : q === r ? wt : 0;
    q++;
  }
  return true;
}

/**
 * After growth and pruning: routes the grow rows (training row, class, weight per slot) to
 * the leaves of the final tree and gives every leaf with two or more classes its model —
 * the one the grower already fitted when it stopped there (`fitted`, by builder node), or
 * a new one. Leaves are visited in node order, so the seeded draws are reproducible.
 */
export function fitLeafModels(
  builder: TreeBuilder,
  cols: TreeColumns,
  slots: { readonly rows: Int32Array; readonly y: Int32Array; readonly w: Float64Array },
  K: number,
  options: LeafModelOptions,
  fitted: ReadonlyMap<number, Float64Array>,
  rng: Rng,
  signal?: AbortFlag,
): void {
  const n = slots.rows.length;
  const leafOf = new Int32Array(n);
  const count = new Int32Array(builder.size);
  for (let i = 0; i < n; i++) {
    let node = 0;
    while (builder.kind[node] !== LEAF) {
      const b = branchOf(builder.rule[node] as NonNullable<(typeof builder.rule)[number]>, cols, slots.rows[i]);
      if (b < 0) break; // a missing value: oblique_tree refuses them, so no leaf model is fitted over such a row
      node = builder.childStart[node] + b;
    }
    leafOf[i] = builder.kind[node] === LEAF ? node : -1;
    if (leafOf[i] >= 0) count[node]++;
  }
  // Slots grouped by leaf, in slot order within each (a counting sort).
  const start = new Int32Array(builder.size + 1);
  for (let v = 0; v < builder.size; v++) start[v + 1] = start[v] + count[v];
  const grouped = new Int32Array(start[builder.size]);
  const fill = start.slice(0, builder.size);
  for (let i = 0; i < n; i++) if (leafOf[i] >= 0) grouped[fill[leafOf[i]]++] = i;

  for (let node = 0; node < builder.size; node++) {
    if (builder.kind[node] !== LEAF || count[node] === 0) continue;
    const classes = leafClasses(builder.value, node * K, K);
    if (classes.length < 2) continue;
    const done = fitted.get(node);
    if (done) {
      builder.leafModel[node] = done;
      continue;
    }
    const ids = grouped.subarray(start[node], start[node + 1]);
    const rows = Int32Array.from(ids, (i) => slots.rows[i]);
    const y = Int32Array.from(ids, (i) => slots.y[i]);
    const w = Float64Array.from(ids, (i) => slots.w[i]);
    let W = 0;
    for (let i = 0; i < w.length; i++) W += w[i];
    const data = standardisedRows(rows, y, w, cols, K, W);
    if (data && W > 0) builder.leafModel[node] = fitLeafModel(data, cols, classes, options, rng, signal).model;
  }
}
