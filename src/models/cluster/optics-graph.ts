/**
 * OPTICS (Ankerst et al.; seed 002: 密度聚类) as scikit-learn 1.2 computes it, so its ordering,
 * reachability and core distances match `sklearn.cluster.OPTICS` (Euclidean):
 *
 *   core distance   distance to the min_samples-th nearest row, the row itself included
 *                   (∞ above max_eps); from the shared neighbour index's kNN query.
 *   ordering        repeatedly take the unprocessed row of least reachability (ties and ∞: the
 *                   lowest row); if it is core, every unprocessed row within max_eps gets
 *                   reachability min(old, max(distance, core distance)) and this row as predecessor.
 *
 * Like scikit-learn, core distances and reachabilities are rounded to 15 decimals (np.around),
 * so that equal distances computed along different paths compare equal. The "least
 * reachability" queue is an indexed binary heap of the rows with finite reachability: the
 * same choice as scikit-learn's argmin scan in O(log n) instead of O(n) per step.
 *
 * Extraction: `dbscanCut` is cluster_optics_dbscan (an eps cut of the reachability plot);
 * `xiClusters`/`xiLabels` are cluster_optics_xi (steep areas of the plot), line for line.
 */
import { buildIndex, euclidean, type RowMetric } from "../../data/neighbors/index.js";
import { throwIfAborted, type AbortFlag } from "../contract.js";

export interface OpticsGraph {
  /** Training rows in OPTICS order. */
  readonly ordering: Int32Array<ArrayBuffer>;
  /** Per training row; ∞ where undefined (never reached / never core). */
  readonly reachability: Float64Array<ArrayBuffer>;
  readonly coreDistances: Float64Array<ArrayBuffer>;
  /** The row a row was reached from (−1: none). */
  readonly predecessor: Int32Array<ArrayBuffer>;
}

/** numpy's around(x, 15): scale, round half to even, scale back. */
export function round15(x: number): number {
  if (!Number.isFinite(x)) return x;
  const y = x * 1e15;
  const f = Math.floor(y);
  const diff = y - f;
  const r = diff > 0.5 ? f + 1 : diff < 0.5 ? f : f % 2 === 0 ? f : f + 1;
  return r / 1e15;
}

/**
 * Indexed min-heap of unprocessed rows by (reachability, row), with decrease-key: at most one
 * entry per row, so O(n) memory however many times reachabilities improve.
 */
class ReachHeap {
  private readonly heap: Int32Array;
  private readonly pos: Int32Array;
  private size = 0;
  constructor(
    n: number,
    private readonly key: Float64Array,
  ) {
    this.heap = new Int32Array(n);
    this.pos = new Int32Array(n).fill(-1);
  }
  get empty(): boolean {
    return this.size === 0;
  }
  private less(a: number, b: number): boolean {
    return this.key[a] < this.key[b] || (this.key[a] === this.key[b] && a < b);
  }
  private place(i: number, row: number): void {
    this.heap[i] = row;
    this.pos[row] = i;
  }
  private up(i: number): void {
    const row = this.heap[i];
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(row, this.heap[p])) break;
      this.place(i, this.heap[p]);
      i = p;
    }
    this.place(i, row);
  }
  /** Insert `row`, or move it up after its key decreased. */
  decreased(row: number): void {
    if (this.pos[row] < 0) this.place(this.size++, row);
    this.up(this.pos[row]);
  }
  pop(): number {
    const top = this.heap[0];
    this.pos[top] = -1;
    const last = this.heap[--this.size];
    if (this.size > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= this.size) break;
        const c = l + 1 < this.size && this.less(this.heap[l + 1], this.heap[l]) ? l + 1 : l;
        if (!this.less(this.heap[c], last)) break;
        this.place(i, this.heap[c]);
        i = c;
      }
      this.place(i, last);
    }
    return top;
  }
}

/** Neighbours per kNN batch for the core distances: rows × min_samples results (about 50 MB) at a time. */
export const CORE_BATCH_NEIGHBOURS = 4_194_304;

/** The OPTICS graph of n row-major rows (1 < minSamples ≤ n; maxEps may be Infinity). */
export function opticsGraph(X: Float64Array, n: number, d: number, minSamples: number, maxEps: number, signal?: AbortFlag, metric: RowMetric = euclidean): OpticsGraph {
  const index = buildIndex(X, n, d, { algorithm: "auto", leafSize: 30, metric });
  const core = new Float64Array(n);
  const batch = Math.max(1, Math.floor(CORE_BATCH_NEIGHBOURS / minSamples));
  for (let start = 0; start < n; start += batch) {
    throwIfAborted(signal);
    const m = Math.min(batch, n - start);
    const { distances } = index.kneighbors(X.subarray(start * d, (start + m) * d), m, minSamples);
    for (let q = 0; q < m; q++) {
      const c = distances[q * minSamples + minSamples - 1];
      core[start + q] = c > maxEps ? Infinity : round15(c);
    }
  }
  const reach = new Float64Array(n).fill(Infinity);
  const pred = new Int32Array(n).fill(-1);
  const ordering = new Int32Array(n);
  const processed = new Uint8Array(n);
  const heap = new ReachHeap(n, reach);
  const bounded = Number.isFinite(maxEps);
  let lowest = 0;
  const offer = (row: number, dist: number, p: number) => {
    if (processed[row]) return;
    const r = round15(Math.max(dist, core[p]));
    if (r < reach[row]) {
      reach[row] = r;
      pred[row] = p;
      heap.decreased(row);
    }
  };
  for (let step = 0; step < n; step++) {
    if ((step & 255) === 0) throwIfAborted(signal);
    let p: number;
    if (!heap.empty) p = heap.pop();
    else {
      // Every unprocessed row is at ∞: scikit-learn's argmin takes the lowest.
      while (processed[lowest]) lowest++;
      p = lowest;
    }
    processed[p] = 1;
    ordering[step] = p;
    if (core[p] === Infinity) continue;
    const P = X.subarray(p * d, p * d + d);
    if (bounded) {
      const found = index.radius(P, 1, maxEps);
      for (let t = 0; t < found.indices.length; t++) offer(found.indices[t], found.distances[t], p);
    } else {
      for (let row = 0; row < n; row++) {
        if (processed[row]) continue;
        offer(row, metric.toDistance(metric.reduced(X, row, P, 0, d)), p);
      }
    }
  }
  return { ordering, reachability: reach, coreDistances: core, predecessor: pred };
}

/** cluster_optics_dbscan: a new cluster where the plot jumps above eps at a core row; non-core rows above eps are noise. */
export function dbscanCut(g: OpticsGraph, eps: number): Int32Array<ArrayBuffer> {
  const n = g.ordering.length;
  const labels = new Int32Array(n);
  let started = 0;
  for (const p of g.ordering) {
    if (g.reachability[p] > eps && g.coreDistances[p] <= eps) started++;
    labels[p] = started - 1;
  }
  for (let p = 0; p < n; p++) if (g.reachability[p] > eps && !(g.coreDistances[p] <= eps)) labels[p] = -1;
  return labels;
}

interface SteepDownArea {
  start: number;
  end: number;
  mib: number;
}

function extendRegion(steep: Uint8Array, xward: Uint8Array, start: number, minSamples: number): number {
  let nonXward = 0;
  let end = start;
  for (let index = start; index < steep.length; index++) {
    if (steep[index]) {
      nonXward = 0;
      end = index;
    } else if (!xward[index]) {
      // Not steep, but still going the same way: at most min_samples such rows in a row.
      nonXward++;
      if (nonXward > minSamples) break;
    } else {
      return end;
    }
  }
  return end;
}

function filterSdas(sdas: SteepDownArea[], mib: number, xiComplement: number, R: Float64Array): SteepDownArea[] {
  if (mib === Infinity) return [];
  const kept = sdas.filter((sda) => mib <= R[sda.start] * xiComplement);
  for (const sda of kept) sda.mib = Math.max(sda.mib, mib);
  return kept;
}

/**
 * Schubert & Gertz's predecessor correction, as scikit-learn 1.2 writes it — including its
 * lookup of the predecessor through `ordering` a second time and Python's ordering[−1] for a
 * row without predecessor: kept for parity.
 */
function correctPredecessor(R: Float64Array, predPlot: Int32Array, ordering: Int32Array, s: number, e: number): [number, number] | null {
  const n = ordering.length;
  while (s < e) {
    if (R[s] > R[e]) return [s, e];
    const q = predPlot[e];
    const pe = ordering[q < 0 ? n + q : q];
    for (let i = s; i < e; i++) if (pe === ordering[i]) return [s, e];
    e--;
  }
  return null;
}

/** cluster_optics_xi's _xi_cluster: [start, end] positions in the ordering, in scikit-learn's order. */
export function xiClusters(g: OpticsGraph, xi: number, minSamples: number, minClusterSize: number, predecessorCorrection: boolean): [number, number][] {
  const n = g.ordering.length;
  const R = new Float64Array(n + 1);
  const predPlot = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    R[i] = g.reachability[g.ordering[i]];
    predPlot[i] = g.predecessor[g.ordering[i]];
  }
  R[n] = Infinity;
  const xc = 1 - xi;
  const steepUp = new Uint8Array(n);
  const steepDown = new Uint8Array(n);
  const downward = new Uint8Array(n);
  const upward = new Uint8Array(n);
  const steeps: number[] = [];
  for (let i = 0; i < n; i++) {
    // NaN (∞/∞, 0/0) is neither.
    const ratio = R[i] / R[i + 1];
    steepUp[i] = ratio <= xc ? 1 : 0;
    steepDown[i] = ratio >= 1 / xc ? 1 : 0;
    downward[i] = ratio > 1 ? 1 : 0;
    upward[i] = ratio < 1 ? 1 : 0;
    if (steepUp[i] || steepDown[i]) steeps.push(i);
  }
  let sdas: SteepDownArea[] = [];
  const clusters: [number, number][] = [];
  let index = 0;
  let mib = 0;
  for (const steepIndex of steeps) {
    if (steepIndex < index) continue;
    for (let i = index; i <= steepIndex; i++) mib = Math.max(mib, R[i]);
    sdas = filterSdas(sdas, mib, xc, R);
    if (steepDown[steepIndex]) {
      const end = extendRegion(steepDown, upward, steepIndex, minSamples);
      sdas.push({ start: steepIndex, end, mib: 0 });
      index = end + 1;
      mib = R[index];
      continue;
    }
    const uStart = steepIndex;
    const uEnd = extendRegion(steepUp, downward, uStart, minSamples);
    index = uEnd + 1;
    mib = R[index];
    const found: [number, number][] = [];
    for (const D of sdas) {
      let cStart = D.start;
      let cEnd = uEnd;
      if (R[cEnd + 1] * xc < D.mib) continue;
      const dMax = R[D.start];
      if (dMax * xc >= R[cEnd + 1]) {
        while (R[cStart + 1] > R[cEnd + 1] && cStart < D.end) cStart++;
      } else if (R[cEnd + 1] * xc >= dMax) {
        while (R[cEnd - 1] > dMax && cEnd > uStart) cEnd--;
      }
      if (predecessorCorrection) {
        const corrected = correctPredecessor(R, predPlot, g.ordering, cStart, cEnd);
        if (!corrected) continue;
        [cStart, cEnd] = corrected;
      }
      if (cEnd - cStart + 1 < minClusterSize || cStart > D.end || cEnd < uStart) continue;
      found.push([cStart, cEnd]);
    }
    clusters.push(...found.reverse());
  }
  return clusters;
}

/** _extract_xi_labels: each cluster, in order, labels its stretch of the ordering if none of it is labelled yet. */
export function xiLabels(ordering: Int32Array, clusters: readonly [number, number][]): { labels: Int32Array<ArrayBuffer>; count: number } {
  const n = ordering.length;
  const byPosition = new Int32Array(n).fill(-1);
  let label = 0;
  for (const [s, e] of clusters) {
    if (byPosition.subarray(s, e + 1).some((l) => l !== -1)) continue;
    byPosition.fill(label, s, e + 1);
    label++;
  }
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) labels[ordering[i]] = byPosition[i];
  return { labels, count: label };
}
