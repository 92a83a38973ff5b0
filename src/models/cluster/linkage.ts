/**
 * Agglomerative clustering's merge list, as scipy's `linkage` builds it (scikit-learn's
 * AgglomerativeClustering calls scipy for these linkages without connectivity):
 *
 *   single             Prim's minimum spanning tree, distances computed on the fly: O(n) memory, O(n²·d) time.
 *   complete, average, ward   the nearest-neighbour chain on a condensed distance matrix (these
 *                      linkages are reducible, so the chain's reciprocal nearest neighbours are
 *                      true merges): O(n²) memory and time after the O(n²·d) matrix.
 *   centroid           not reducible (a merge can bring clusters closer: inversions), so the generic
 *                      algorithm: each cluster caches its nearest neighbour; only the caches that
 *                      pointed at the merged pair are rescanned.
 *
 * Distances update by Lance–Williams; ward and centroid work on squared Euclidean distances
 * and report their square roots, as scipy does. The merges are then sorted by height
 * (stable) and renumbered as scipy's `label` does: leaves are 0…n−1, merge i creates cluster
 * n + i, and each pair lists its smaller id first.
 */
import { throwIfAborted, type AbortFlag } from "../contract.js";
import { euclidean, type RowMetric } from "../../data/neighbors/metric.js";

export type Linkage = "single" | "complete" | "average" | "centroid" | "ward";

export interface MergeList {
  /** The two clusters joined by merge i (ids < n are rows; n + j is the cluster of merge j), smaller first. */
  readonly a: Int32Array<ArrayBuffer>;
  readonly b: Int32Array<ArrayBuffer>;
  readonly height: Float64Array<ArrayBuffer>;
  /** Rows in the cluster merge i creates. */
  readonly size: Int32Array<ArrayBuffer>;
}

/** Position of pair (i, j), i < j, in the condensed upper triangle of an n × n matrix. */
function condensed(n: number, i: number, j: number): number {
  return n * i - (i * (i + 1)) / 2 + j - i - 1;
}

function euclidean2(X: Float64Array, d: number, i: number, j: number): number {
  let s = 0;
  for (let t = 0; t < d; t++) {
    const v = X[i * d + t] - X[j * d + t];
    s += v * v;
  }
  return s;
}

/** Condensed pairwise distances under `metric` (squared Euclidean when `squared`, which Ward and centroid work on). */
export function condensedDistances(X: Float64Array, n: number, d: number, squared: boolean, signal?: AbortFlag, metric: RowMetric = euclidean): Float64Array {
  const D = new Float64Array((n * (n - 1)) / 2);
  let p = 0;
  for (let i = 0; i < n; i++) {
    if ((i & 255) === 0) throwIfAborted(signal);
    if (squared || metric === euclidean) {
      // Four rows j a sweep: each coordinate of row i is loaded once for four pairs (each sum in the same order as euclidean2).
      const io = i * d;
      let j = i + 1;
      for (; j + 4 <= n; j += 4) {
        const o0 = j * d;
        const o1 = o0 + d;
        const o2 = o1 + d;
        const o3 = o2 + d;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        for (let t = 0; t < d; t++) {
          const v = X[io + t];
          const a0 = v - X[o0 + t];
          const a1 = v - X[o1 + t];
          const a2 = v - X[o2 + t];
          const a3 = v - X[o3 + t];
          s0 += a0 * a0;
          s1 += a1 * a1;
          s2 += a2 * a2;
          s3 += a3 * a3;
        }
        if (squared) {
          D[p] = s0;
          D[p + 1] = s1;
          D[p + 2] = s2;
          D[p + 3] = s3;
        } else {
          D[p] = Math.sqrt(s0);
          D[p + 1] = Math.sqrt(s1);
          D[p + 2] = Math.sqrt(s2);
          D[p + 3] = Math.sqrt(s3);
        }
        p += 4;
      }
      for (; j < n; j++) {
        const s = euclidean2(X, d, i, j);
        D[p++] = squared ? s : Math.sqrt(s);
      }
    } else {
      for (let j = i + 1; j < n; j++) D[p++] = metric.toDistance(metric.reduced(X, i, X, j, d));
    }
  }
  return D;
}

type Update = (dkx: number, dky: number, dxy: number, nx: number, ny: number, nk: number) => number;

/** Lance–Williams: the distance from cluster k (size nk) to x ∪ y, given d(k,x), d(k,y), d(x,y). */
const UPDATE: Record<Exclude<Linkage, "single">, Update> = {
  complete: (dkx, dky) => Math.max(dkx, dky),
  average: (dkx, dky, _dxy, nx, ny) => (nx * dkx + ny * dky) / (nx + ny),
  // On squared distances.
  centroid: (dkx, dky, dxy, nx, ny) => (nx * dkx + ny * dky) / (nx + ny) - (nx * ny * dxy) / ((nx + ny) * (nx + ny)),
  ward: (dkx, dky, dxy, nx, ny, nk) => ((nk + nx) * dkx + (nk + ny) * dky - nk * dxy) / (nk + nx + ny),
};

/** Raw merges (slot ids, not yet renumbered) in the order they happened. */
interface RawMerges {
  x: Int32Array;
  y: Int32Array;
  h: Float64Array;
}

const rawMerges = (n: number): RawMerges => ({ x: new Int32Array(n - 1), y: new Int32Array(n - 1), h: new Float64Array(n - 1) });

/** Prim's minimum spanning tree on reduced distances (same order as the true ones), converted at the end. */
function primSingle(X: Float64Array, n: number, d: number, metric: RowMetric, signal?: AbortFlag): RawMerges {
  const raw = rawMerges(n);
  const best = new Float64Array(n).fill(Infinity);
  const merged = new Uint8Array(n);
  let x = 0;
  for (let k = 0; k < n - 1; k++) {
    if ((k & 63) === 0) throwIfAborted(signal);
    merged[x] = 1;
    let y = -1;
    let min = Infinity;
    for (let i = 0; i < n; i++) {
      if (merged[i]) continue;
      const dist = metric.reduced(X, x, X, i, d);
      if (dist < best[i]) best[i] = dist;
      if (best[i] < min) {
        min = best[i];
        y = i;
      }
    }
    raw.x[k] = x;
    raw.y[k] = y;
    raw.h[k] = metric.toDistance(min);
    x = y;
  }
  return raw;
}

function nnChain(D: Float64Array, n: number, update: Update, signal?: AbortFlag): RawMerges {
  const raw = rawMerges(n);
  const size = new Float64Array(n).fill(1);
  const chain = new Int32Array(n);
  let len = 0;
  const at = (i: number, j: number) => (i < j ? condensed(n, i, j) : condensed(n, j, i));
  for (let k = 0; k < n - 1; k++) {
    if ((k & 63) === 0) throwIfAborted(signal);
    if (len === 0) {
      for (let i = 0; i < n; i++) {
        if (size[i] > 0) {
          chain[len++] = i;
          break;
        }
      }
    }
    let x = 0;
    let y = 0;
    let min = Infinity;
    for (;;) {
      x = chain[len - 1];
      if (len > 1) {
        y = chain[len - 2];
        min = D[at(x, y)];
      } else {
        min = Infinity;
      }
      // Row x of the matrix in increasing i (the tie order): column x of the rows above it (the
      // offset steps by n − i − 2), then its own contiguous row.
      for (let i = 0, p = x - 1; i < x; p += n - i - 2, i++) {
        if (size[i] === 0) continue;
        const dist = D[p];
        if (dist < min) {
          min = dist;
          y = i;
        }
      }
      for (let i = x + 1, p = condensed(n, x, x + 1); i < n; i++, p++) {
        if (size[i] === 0) continue;
        const dist = D[p];
        if (dist < min) {
          min = dist;
          y = i;
        }
      }
      if (len > 1 && y === chain[len - 2]) break;
      chain[len++] = y;
    }
    len -= 2;
    if (x > y) [x, y] = [y, x];
    const nx = size[x];
    const ny = size[y];
    raw.x[k] = x;
    raw.y[k] = y;
    raw.h[k] = min;
    size[x] = 0;
    size[y] = nx + ny;
    // x < y: rows above x hold both in their columns; rows between hold x's in row x and y's in
    // their columns; rows below y are in rows x and y, contiguously.
    let px = x - 1;
    let py = y - 1;
    let i = 0;
    for (; i < x; px += n - i - 2, py += n - i - 2, i++) {
      if (size[i] !== 0) D[py] = update(D[px], D[py], min, nx, ny, size[i]);
    }
    px = condensed(n, x, x + 1);
    py += n - x - 2;
    for (i = x + 1; i < y; px++, py += n - i - 2, i++) {
      if (size[i] !== 0) D[py] = update(D[px], D[py], min, nx, ny, size[i]);
    }
    px++;
    py = condensed(n, y, y + 1);
    for (i = y + 1; i < n; px++, py++, i++) {
      if (size[i] !== 0) D[py] = update(D[px], D[py], min, nx, ny, size[i]);
    }
  }
  return raw;
}

/** The generic algorithm with a nearest-neighbour cache (any Lance–Williams linkage; used for centroid). */
function generic(D: Float64Array, n: number, update: Update, signal?: AbortFlag): RawMerges {
  const raw = rawMerges(n);
  const size = new Float64Array(n).fill(1);
  const nn = new Int32Array(n).fill(-1);
  const nnDist = new Float64Array(n).fill(Infinity);
  const at = (i: number, j: number) => (i < j ? condensed(n, i, j) : condensed(n, j, i));
  const rescan = (i: number) => {
    nn[i] = -1;
    nnDist[i] = Infinity;
    for (let j = 0; j < n; j++) {
      if (j === i || size[j] === 0) continue;
      const dist = D[at(i, j)];
      if (dist < nnDist[i]) {
        nnDist[i] = dist;
        nn[i] = j;
      }
    }
  };
  for (let i = 0; i < n; i++) rescan(i);
  for (let k = 0; k < n - 1; k++) {
    if ((k & 63) === 0) throwIfAborted(signal);
    let x = -1;
    for (let i = 0; i < n; i++) if (size[i] > 0 && nn[i] >= 0 && (x < 0 || nnDist[i] < nnDist[x])) x = i;
    let y = nn[x];
    const min = nnDist[x];
    if (x > y) [x, y] = [y, x];
    const nx = size[x];
    const ny = size[y];
    raw.x[k] = x;
    raw.y[k] = y;
    raw.h[k] = min;
    size[x] = 0;
    size[y] = nx + ny;
    for (let i = 0; i < n; i++) {
      if (size[i] === 0 || i === y) continue;
      const dist = update(D[at(i, x)], D[at(i, y)], min, nx, ny, size[i]);
      D[at(i, y)] = dist;
      if (nn[i] === x || nn[i] === y) continue; // rescanned below: its neighbour is gone or moved
      if (dist < nnDist[i]) {
        nnDist[i] = dist;
        nn[i] = y;
      }
    }
    for (let i = 0; i < n; i++) if (size[i] > 0 && (i === y || nn[i] === x || nn[i] === y)) rescan(i);
  }
  return raw;
}

/** Stable sort by height, then scipy's `label`: union–find ids, n + i for the cluster of merge i. */
function label(raw: RawMerges, n: number, sqrt: boolean): MergeList {
  const m = n - 1;
  const order = Array.from({ length: m }, (_, i) => i).sort((p, q) => raw.h[p] - raw.h[q] || p - q);
  const parent = new Int32Array(2 * n - 1).map((_, i) => i);
  const size = new Int32Array(2 * n - 1).fill(1);
  const find = (i: number) => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const out: MergeList = { a: new Int32Array(m), b: new Int32Array(m), height: new Float64Array(m), size: new Int32Array(m) };
  order.forEach((o, i) => {
    const rx = find(raw.x[o]);
    const ry = find(raw.y[o]);
    out.a[i] = Math.min(rx, ry);
    out.b[i] = Math.max(rx, ry);
    out.height[i] = sqrt ? Math.sqrt(Math.max(0, raw.h[o])) : raw.h[o];
    const id = n + i;
    parent[rx] = id;
    parent[ry] = id;
    size[id] = size[rx] + size[ry];
    out.size[i] = size[id];
  });
  return out;
}

/** Ward and centroid are defined on Euclidean geometry (sums of squares, means); the caller checks that `metric` is Euclidean for them. */
export function linkage(X: Float64Array, n: number, d: number, method: Linkage, signal?: AbortFlag, metric: RowMetric = euclidean): MergeList {
  if (n < 2) return { a: new Int32Array(0), b: new Int32Array(0), height: new Float64Array(0), size: new Int32Array(0) };
  if (method === "single") return label(primSingle(X, n, d, metric, signal), n, false);
  const squared = method === "ward" || method === "centroid";
  if (squared && metric !== euclidean) throw new RangeError(`${method} linkage needs the euclidean metric`);
  const D = condensedDistances(X, n, d, squared, signal, metric);
  const raw = method === "centroid" ? generic(D, n, UPDATE.centroid, signal) : nnChain(D, n, UPDATE[method], signal);
  return label(raw, n, squared);
}

/**
 * Flat clusters after the first n − k merges (scikit-learn's `_hc_cut`: undo the last k − 1),
 * numbered by their lowest row: cluster 0 holds row 0, cluster 1 the lowest row not in 0, …
 */
export function cutTree(merges: MergeList, n: number, k: number): Int32Array<ArrayBuffer> {
  const parent = new Int32Array(2 * n - 1).map((_, i) => i);
  const find = (i: number) => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (let i = 0; i < n - k; i++) {
    parent[find(merges.a[i])] = n + i;
    parent[find(merges.b[i])] = n + i;
  }
  const labels = new Int32Array(n);
  const ids = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const r = find(i);
    let c = ids.get(r);
    if (c === undefined) {
      c = ids.size;
      ids.set(r, c);
    }
    labels[i] = c;
  }
  return labels;
}

/** scikit-learn's distance_threshold: one cluster more than the merges at or above the threshold. */
export function clustersAtThreshold(merges: MergeList, threshold: number): number {
  let above = 0;
  for (const h of merges.height) if (h >= threshold) above++;
  return above + 1;
}
