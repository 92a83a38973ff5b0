/**
 * DIANA's divisive hierarchy (Kaufman & Rousseeuw; seed 002: 分裂层次聚类), Euclidean, on a
 * condensed distance matrix:
 *
 *   1. Start with every row in one cluster.
 *   2. Split the cluster of largest diameter (largest pairwise distance; ties: the cluster
 *      whose lowest row is lowest). Its splinter group starts from the row with the largest
 *      mean dissimilarity to the others; then, while some remaining row is on average closer
 *      to the splinter group than to the other remaining rows (mean to the rest − mean to the
 *      splinter group > 0), the row where that difference is largest moves (ties: the lowest row).
 *   3. Repeat until every cluster is one row: n − 1 splits.
 *
 * The result is reported as agglomerative merges (the splits backwards) in scipy's format, so
 * agnes' cut and explain apply unchanged: merge i = split n − 2 − i, its height the diameter
 * of the cluster that split. A child's diameter never exceeds its parent's and the largest
 * cluster splits first, so heights never decrease along the merge list.
 *
 * Each split keeps, per row, its distance sums to the splinter group and to the rest, updated
 * in O(m) when a row moves: O(m²) per split of an m-row cluster.
 */
import { throwIfAborted, type AbortFlag } from "../contract.js";
import { euclidean, type RowMetric } from "../../data/neighbors/metric.js";
import { condensedDistances, type MergeList } from "./linkage.js";

interface Node {
  /** Training rows, increasing. */
  rows: Int32Array;
  diameter: number;
  /** Index of the split that divided this cluster (−1 while it has not been split). */
  splitAt: number;
  children: [Node, Node] | null;
}

export function diana(X: Float64Array, n: number, d: number, signal?: AbortFlag, metric: RowMetric = euclidean): MergeList {
  const m = Math.max(0, n - 1);
  const out: MergeList = { a: new Int32Array(m), b: new Int32Array(m), height: new Float64Array(m), size: new Int32Array(m) };
  if (n < 2) return out;
  const D = condensedDistances(X, n, d, false, signal, metric);
  const dist = (i: number, j: number) => (i === j ? 0 : i < j ? D[n * i - (i * (i + 1)) / 2 + j - i - 1] : D[n * j - (j * (j + 1)) / 2 + i - j - 1]);
  const diameterOf = (rows: Int32Array) => {
    let max = 0;
    for (let p = 0; p < rows.length; p++) for (let q = p + 1; q < rows.length; q++) max = Math.max(max, dist(rows[p], rows[q]));
    return max;
  };
  const node = (rows: Int32Array): Node => ({ rows, diameter: rows.length > 1 ? diameterOf(rows) : 0, splitAt: -1, children: null });

  const root = node(Int32Array.from({ length: n }, (_, i) => i));
  const open: Node[] = [root];
  const split: Node[] = [];
  for (let s = 0; s < n - 1; s++) {
    throwIfAborted(signal);
    let pick = -1;
    for (let c = 0; c < open.length; c++) {
      const o = open[c];
      if (o.rows.length < 2) continue;
      if (pick < 0 || o.diameter > open[pick].diameter || (o.diameter === open[pick].diameter && o.rows[0] < open[pick].rows[0])) pick = c;
    }
    const parent = open[pick];
    const [left, right] = splinter(parent.rows, dist).map(node) as [Node, Node];
    parent.splitAt = s;
    parent.children = [left, right];
    split.push(parent);
    open[pick] = left;
    open.push(right);
  }
  const id = (c: Node) => (c.rows.length === 1 ? c.rows[0] : n + (n - 2 - c.splitAt));
  split.forEach((parent, s) => {
    const i = n - 2 - s;
    const [x, y] = parent.children!.map(id);
    out.a[i] = Math.min(x, y);
    out.b[i] = Math.max(x, y);
    out.height[i] = parent.diameter;
    out.size[i] = parent.rows.length;
  });
  return out;
}

/** One splinter-group split of `rows` (≥ 2, increasing): the remaining rows and the splinter group, each increasing. */
export function splinter(rows: Int32Array, dist: (i: number, j: number) => number): [Int32Array, Int32Array] {
  const m = rows.length;
  const toSplinter = new Float64Array(m);
  const toRest = new Float64Array(m);
  for (let p = 0; p < m; p++) for (let q = p + 1; q < m; q++) {
    const v = dist(rows[p], rows[q]);
    toRest[p] += v;
    toRest[q] += v;
  }
  const inSplinter = new Uint8Array(m);
  const move = (p: number) => {
    inSplinter[p] = 1;
    for (let q = 0; q < m; q++) {
      if (q === p) continue;
      const v = dist(rows[p], rows[q]);
      toSplinter[q] += v;
      toRest[q] -= v;
    }
  };
  // The row with the largest mean dissimilarity (all means share the divisor m − 1).
  let first = 0;
  for (let p = 1; p < m; p++) if (toRest[p] > toRest[first]) first = p;
  move(first);
  let splinterSize = 1;
  while (m - splinterSize > 1) {
    const restSize = m - splinterSize;
    let best = -1;
    let bestGain = 0;
    for (let p = 0; p < m; p++) {
      if (inSplinter[p]) continue;
      const gain = toRest[p] / (restSize - 1) - toSplinter[p] / splinterSize;
      if (gain > bestGain) {
        bestGain = gain;
        best = p;
      }
    }
    if (best < 0) break;
    move(best);
    splinterSize++;
  }
  const rest: number[] = [];
  const group: number[] = [];
  for (let p = 0; p < m; p++) (inSplinter[p] ? group : rest).push(rows[p]);
  return [Int32Array.from(rest), Int32Array.from(group)];
}
