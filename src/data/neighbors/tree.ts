/**
 * One binary space-partitioning tree with two kinds of node bounds, after
 * scikit-learn's `_binary_tree.pxi.tp`: a kd-tree keeps each node's bounding box,
 * a ball tree its centroid and radius; building and searching are shared.
 *
 * Layout: the node count follows from `leafSize` before anything is built
 * (levels = 1 + ⌊log2(max(1, (n − 1) / leafSize))⌋, every leaf on the last level),
 * so each array is allocated once; node i's children are 2i + 1 and 2i + 2 and it
 * owns rows [start[i], end[i]) of one permutation of the data, which is copied
 * in that order once (`points`) so a leaf scans contiguous memory. Searches work
 * on reduced distances (no square root per pair) and convert at the end.
 *
 * Bounds need a Minkowski-family metric (p ≥ 1, ∞ for chebyshev).
 */
import type { RowMetric } from "./metric.js";
import type { NeighborHeap } from "./heap.js";

export type TreeKind = "kd_tree" | "ball_tree";

export interface BinaryTree {
  readonly kind: TreeKind;
  readonly n: number;
  readonly d: number;
  readonly metric: RowMetric;
  readonly nNodes: number;
  /** The rows in tree order, row-major. */
  readonly points: Float64Array;
  /** perm[i]: the original row index of points row i. */
  readonly perm: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** kd_tree: per-node lower and upper corners (nNodes × d); ball_tree: centroid in `lower`, `upper` empty. */
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  /** ball_tree: per-node radius (true distance). */
  readonly radius: Float64Array;
}

/** Nodes of a tree over n rows with at most about leafSize rows a leaf (scikit-learn's formula). */
export function nodeCount(n: number, leafSize: number): number {
  const levels = 1 + Math.floor(Math.log2(Math.max(1, (n - 1) / leafSize)));
  return 2 ** levels - 1;
}

export function buildTree(kind: TreeKind, data: Float64Array, n: number, d: number, leafSize: number, metric: RowMetric): BinaryTree {
  if (metric.p === null) throw new RangeError(`${kind} needs a Minkowski-family metric, not ${metric.name}`);
  if (n < 1) throw new RangeError("a neighbour tree needs at least one row");
  const nNodes = nodeCount(n, leafSize);
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  const start = new Int32Array(nNodes);
  const end = new Int32Array(nNodes);
  const lower = new Float64Array(nNodes * d);
  const upper = new Float64Array(kind === "kd_tree" ? nNodes * d : 0);
  const radius = new Float64Array(kind === "ball_tree" ? nNodes : 0);
  const lo = new Float64Array(d);
  const hi = new Float64Array(d);
  end[0] = n;
  for (let node = 0; node < nNodes; node++) {
    const s = start[node];
    const e = end[node];
    spread(data, d, perm, s, e, lo, hi);
    if (kind === "kd_tree") {
      lower.set(lo, node * d);
      upper.set(hi, node * d);
    } else {
      ballBounds(data, d, perm, s, e, metric, lower, node, radius);
    }
    const left = 2 * node + 1;
    if (left >= nNodes) continue;
    let dim = 0;
    for (let j = 1; j < d; j++) if (hi[j] - lo[j] > hi[dim] - lo[dim]) dim = j;
    const mid = s + ((e - s) >> 1);
    select(data, d, dim, perm, s, e, mid);
    start[left] = s;
    end[left] = mid;
    start[left + 1] = mid;
    end[left + 1] = e;
  }
  const points = new Float64Array(n * d);
  for (let i = 0; i < n; i++) points.set(data.subarray(perm[i] * d, perm[i] * d + d), i * d);
  return { kind, n, d, metric, nNodes, points, perm, start, end, lower, upper, radius };
}

function spread(data: Float64Array, d: number, perm: Int32Array, s: number, e: number, lo: Float64Array, hi: Float64Array): void {
  lo.fill(Infinity);
  hi.fill(-Infinity);
  for (let i = s; i < e; i++) {
    const o = perm[i] * d;
    for (let j = 0; j < d; j++) {
      const v = data[o + j];
      if (v < lo[j]) lo[j] = v;
      if (v > hi[j]) hi[j] = v;
    }
  }
}

function ballBounds(data: Float64Array, d: number, perm: Int32Array, s: number, e: number, metric: RowMetric, centroid: Float64Array, node: number, radius: Float64Array): void {
  const off = node * d;
  for (let i = s; i < e; i++) {
    const o = perm[i] * d;
    for (let j = 0; j < d; j++) centroid[off + j] += data[o + j];
  }
  for (let j = 0; j < d; j++) centroid[off + j] /= e - s;
  let r = 0;
  for (let i = s; i < e; i++) {
    const v = metric.reduced(data, perm[i], centroid, node, d);
    if (v > r) r = v;
  }
  radius[node] = metric.toDistance(r);
}

/** Reorders perm[s, e) so that perm[k] holds the row of rank k − s along `dim` (ties by row index): quickselect, median-of-three pivots. */
function select(data: Float64Array, d: number, dim: number, perm: Int32Array, s: number, e: number, k: number): void {
  const key = (i: number) => data[perm[i] * d + dim];
  const less = (a: number, b: number) => {
    const va = key(a);
    const vb = key(b);
    return va < vb || (va === vb && perm[a] < perm[b]);
  };
  const swap = (a: number, b: number) => {
    const t = perm[a];
    perm[a] = perm[b];
    perm[b] = t;
  };
  let left = s;
  let right = e - 1;
  while (right > left) {
    const m = left + ((right - left) >> 1);
    // Median of three into `right` as the pivot.
    if (less(m, left)) swap(m, left);
    if (less(right, left)) swap(right, left);
    if (less(m, right)) swap(m, right);
    let store = left;
    for (let i = left; i < right; i++) {
      if (less(i, right)) {
        swap(i, store);
        store++;
      }
    }
    swap(store, right);
    if (store === k) return;
    if (store < k) left = store + 1;
    else right = store - 1;
  }
}

/** Lower bound on the reduced distance from query row q to any row of `node`. */
function minReduced(t: BinaryTree, node: number, Q: Float64Array, q: number): number {
  const d = t.d;
  const qo = q * d;
  const off = node * d;
  const p = t.metric.p as number;
  if (t.kind === "kd_tree") {
    const lower = t.lower;
    const upper = t.upper;
    let acc = 0;
    for (let j = 0; j < d; j++) {
      const x = Q[qo + j];
      const below = lower[off + j] - x;
      const above = x - upper[off + j];
      const gap = below > 0 ? below : above > 0 ? above : 0;
      if (p === 2) acc += gap * gap;
      else if (p === 1) acc += gap;
      else if (p === Infinity) acc = gap > acc ? gap : acc;
      else acc += gap ** p;
    }
    return acc;
  }
  const dc = t.metric.toDistance(t.metric.reduced(Q, q, t.lower, node, d));
  const r = t.radius[node];
  // The centroid distance and the radius are each rounded: leave a relative slack so a row on the sphere is never pruned.
  const gap = dc - r - 1e-12 * (dc + r);
  return gap > 0 ? t.metric.toReduced(gap) : 0;
}

/** Offers every row of the tree to the heap's query q in nearest-node-first order, pruning nodes that cannot beat the k-th. */
export function treeKnn(t: BinaryTree, Q: Float64Array, q: number, heap: NeighborHeap): void {
  const visit = (node: number, bound: number): void => {
    // Equal bounds are still visited: a row at the k-th distance with a lower index would displace it.
    if (bound > heap.largest(q)) return;
    const left = 2 * node + 1;
    if (left >= t.nNodes) {
      const { points, perm, metric, d } = t;
      for (let i = t.start[node], e = t.end[node]; i < e; i++) heap.push(q, metric.reduced(Q, q, points, i, d), perm[i]);
      return;
    }
    const bl = minReduced(t, left, Q, q);
    const br = minReduced(t, left + 1, Q, q);
    if (bl <= br) {
      visit(left, bl);
      visit(left + 1, br);
    } else {
      visit(left + 1, br);
      visit(left, bl);
    }
  };
  visit(0, minReduced(t, 0, Q, q));
}

/** Calls `found(row, reduced)` for every row within reduced distance `rr` of query row q (bound inclusive). */
export function treeRadius(t: BinaryTree, Q: Float64Array, q: number, rr: number, found: (row: number, reduced: number) => void): void {
  const visit = (node: number): void => {
    if (minReduced(t, node, Q, q) > rr) return;
    const left = 2 * node + 1;
    if (left >= t.nNodes) {
      const { points, perm, metric, d } = t;
      for (let i = t.start[node], e = t.end[node]; i < e; i++) {
        const r = metric.reduced(Q, q, points, i, d);
        if (r <= rr) found(perm[i], r);
      }
      return;
    }
    visit(left);
    visit(left + 1);
  };
  visit(0);
}
