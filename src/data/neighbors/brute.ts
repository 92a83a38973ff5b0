/**
 * Blocked brute force: every query against every row, in blocks that keep a
 * block of training rows in cache while a block of queries passes over it.
 *
 * Euclidean uses ‖q − x‖² = ‖q‖² + ‖x‖² − 2 q·x with the rows' squared norms
 * computed once per index, so the inner loop is a dot product that shares each
 * training value between four queries (as scikit-learn's brute force uses GEMM).
 * The expansion loses digits when q and x are close, so the k rows it selects are
 * re-measured directly before sorting: returned distances are exact, only the
 * choice among near-ties at the k-th place can differ from a direct computation.
 * Every other metric (including fitted ones such as VDM) is computed directly.
 */
import { euclidean, type RowMetric } from "./metric.js";
import type { NeighborHeap } from "./heap.js";
import { createDotKernel, type DotKernel } from "./simd-dot.js";

const QUERY_BLOCK = 64;
/** Rows per block: 1024 rows of 20 doubles is 160 KiB, within a core's L2 cache. */
const ROW_BLOCK = 1024;

export function squaredNorms(data: Float64Array, n: number, d: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = i * d, e = j + d; j < e; j++) s += data[j] * data[j];
    out[i] = s;
  }
  return out;
}

/** What euclidean brute force precomputes once per index: the rows' squared norms and, with WebAssembly SIMD, the rows in the kernel's memory. */
export interface EuclideanRows {
  readonly data: Float64Array;
  readonly n: number;
  readonly d: number;
  readonly norms: Float64Array;
  readonly simd: SimdRows | null;
}

interface SimdRows {
  readonly kernel: DotKernel;
  /** Coordinates per row in the kernel's memory: d rounded up to even (a zero pad). */
  readonly dp: number;
  /** Byte offsets in the kernel's memory: rows at 0, then their norms, the interleaved query block, the parameters, the candidates. */
  readonly norms: number;
  readonly queries: number;
  readonly prm: number;
  readonly cand: number;
}

export function prepareEuclidean(data: Float64Array, n: number, d: number): EuclideanRows {
  const norms = squaredNorms(data, n, d);
  const dp = d + (d & 1);
  const layout = { norms: n * dp * 8, queries: n * dp * 8 + n * 8, prm: 0, cand: 0 };
  layout.prm = layout.queries + QUERY_BLOCK * dp * 8;
  layout.cand = layout.prm + 64;
  const kernel = createDotKernel(layout.cand + ROW_BLOCK * 4 * 16);
  if (!kernel) return { data, n, d, norms, simd: null };
  const mem = new Float64Array(kernel.memory.buffer);
  for (let i = 0; i < n; i++) mem.set(data.subarray(i * d, i * d + d), i * dp);
  mem.set(norms, layout.norms / 8);
  return { data, n, d, norms, simd: { kernel, dp, ...layout } };
}

/** Fills heap (queries 0..m−1 of Q) with the k best rows of `data`. */
export function bruteKnn(data: Float64Array, n: number, d: number, metric: RowMetric, prepared: EuclideanRows | null, Q: Float64Array, m: number, heap: NeighborHeap): void {
  if (metric === euclidean && prepared) {
    if (prepared.simd) simdKnn(prepared, prepared.simd, Q, m, heap);
    else expandedKnn(data, n, d, prepared.norms, Q, m, heap);
    remeasure(data, d, Q, m, heap);
    return;
  }
  for (let q0 = 0; q0 < m; q0 += QUERY_BLOCK) {
    const q1 = Math.min(m, q0 + QUERY_BLOCK);
    for (let r0 = 0; r0 < n; r0 += ROW_BLOCK) {
      const r1 = Math.min(n, r0 + ROW_BLOCK);
      for (let q = q0; q < q1; q++) for (let r = r0; r < r1; r++) heap.push(q, metric.reduced(Q, q, data, r, d), r);
    }
  }
}

/**
 * The same blocking with the SIMD kernel: a block of up to 64 queries is written
 * once, interleaved in groups of four; each block of training rows (kept in
 * cache) is then passed by every group, with each query's current k-th distance
 * as its threshold (a stale, larger threshold only lets more candidates through),
 * and the few candidates are offered to the heaps here.
 */
function simdKnn(rows: EuclideanRows, s: SimdRows, Q: Float64Array, m: number, heap: NeighborHeap): void {
  const { n, d } = rows;
  const { kernel, dp } = s;
  const mem = new Float64Array(kernel.memory.buffer);
  const qBase = s.queries / 8;
  const prm = s.prm / 8;
  const cand = s.cand / 8;
  const rowBytes = dp * 8;
  const qn = squaredNorms(Q, m, d);
  const k = heap.k;
  const dist = heap.dist;
  for (let q0 = 0; q0 < m; q0 += QUERY_BLOCK) {
    const q1 = Math.min(m, q0 + QUERY_BLOCK);
    const groups = Math.ceil((q1 - q0) / 4);
    mem.fill(0, qBase, qBase + groups * 4 * dp);
    for (let q = q0; q < q1; q++) {
      const g = (q - q0) >> 2;
      const i = (q - q0) & 3;
      const base = qBase + g * 4 * dp;
      for (let j = 0; j < d; j++) mem[base + 8 * (j >> 1) + 2 * i + (j & 1)] = Q[q * d + j];
    }
    for (let r0 = 0; r0 < n; r0 += ROW_BLOCK) {
      const r1 = Math.min(n, r0 + ROW_BLOCK);
      for (let g = 0; g < groups; g++) {
        const first = q0 + 4 * g;
        for (let i = 0; i < 4; i++) {
          const q = first + i;
          // Padding lanes of a short last group never pass a −1 threshold.
          mem[prm + i] = q < q1 ? qn[q] : 0;
          mem[prm + 4 + i] = q < q1 ? dist[q * k] : -1;
        }
        const found = kernel.filter4(r0 * rowBytes, r1 - r0, rowBytes, s.queries + g * 4 * dp * 8, s.norms + r0 * 8, s.prm, s.cand);
        for (let c = 0; c < found; c++) {
          const v = mem[cand + 2 * c];
          const code = mem[cand + 2 * c + 1];
          heap.push(first + (code & 3), v > 0 ? v : 0, r0 + (code >> 2));
        }
      }
    }
  }
}

function expandedKnn(data: Float64Array, n: number, d: number, norms: Float64Array, Q: Float64Array, m: number, heap: NeighborHeap): void {
  const qn = squaredNorms(Q, m, d);
  for (let q0 = 0; q0 < m; q0 += QUERY_BLOCK) {
    const q1 = Math.min(m, q0 + QUERY_BLOCK);
    for (let r0 = 0; r0 < n; r0 += ROW_BLOCK) {
      const r1 = Math.min(n, r0 + ROW_BLOCK);
      let q = q0;
      for (; q + 4 <= q1; q += 4) fourQueries(data, d, norms, Q, qn, q, r0, r1, heap);
      for (; q < q1; q++) {
        const qo = q * d;
        for (let r = r0; r < r1; r++) {
          const ro = r * d;
          let dot = 0;
          for (let j = 0; j < d; j++) dot += Q[qo + j] * data[ro + j];
          const v = qn[q] + norms[r] - 2 * dot;
          heap.push(q, v > 0 ? v : 0, r);
        }
      }
    }
  }
}

/** Four queries against rows [r0, r1): each training value is loaded once for four dot products. */
function fourQueries(data: Float64Array, d: number, norms: Float64Array, Q: Float64Array, qn: Float64Array, q: number, r0: number, r1: number, heap: NeighborHeap): void {
  const o0 = q * d;
  const o1 = o0 + d;
  const o2 = o1 + d;
  const o3 = o2 + d;
  const n0 = qn[q];
  const n1 = qn[q + 1];
  const n2 = qn[q + 2];
  const n3 = qn[q + 3];
  for (let r = r0; r < r1; r++) {
    const ro = r * d;
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    for (let j = 0; j < d; j++) {
      const x = data[ro + j];
      a0 += Q[o0 + j] * x;
      a1 += Q[o1 + j] * x;
      a2 += Q[o2 + j] * x;
      a3 += Q[o3 + j] * x;
    }
    const nr = norms[r];
    const v0 = n0 + nr - 2 * a0;
    const v1 = n1 + nr - 2 * a1;
    const v2 = n2 + nr - 2 * a2;
    const v3 = n3 + nr - 2 * a3;
    // Most rows lose to the current k-th: test before the call.
    if (v0 <= heap.dist[q * heap.k]) heap.push(q, v0 > 0 ? v0 : 0, r);
    if (v1 <= heap.dist[(q + 1) * heap.k]) heap.push(q + 1, v1 > 0 ? v1 : 0, r);
    if (v2 <= heap.dist[(q + 2) * heap.k]) heap.push(q + 2, v2 > 0 ? v2 : 0, r);
    if (v3 <= heap.dist[(q + 3) * heap.k]) heap.push(q + 3, v3 > 0 ? v3 : 0, r);
  }
}

/** Replaces the expanded values of the selected rows by direct squared distances (sorting follows). */
function remeasure(data: Float64Array, d: number, Q: Float64Array, m: number, heap: NeighborHeap): void {
  const k = heap.k;
  for (let q = 0; q < m; q++) for (let s = q * k, e = s + k; s < e; s++) heap.dist[s] = euclidean.reduced(Q, q, data, heap.idx[s], d);
}

/** Rows within reduced distance rr of query q, computed directly (inclusive bound). */
export function bruteRadius(data: Float64Array, n: number, d: number, metric: RowMetric, Q: Float64Array, q: number, rr: number, found: (row: number, reduced: number) => void): void {
  for (let r = 0; r < n; r++) {
    const v = metric.reduced(Q, q, data, r, d);
    if (v <= rr) found(r, v);
  }
}
