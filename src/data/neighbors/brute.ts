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
  /** The Float32 copy for the filter (null when some |value| exceeds F32_MAX_ABS): coordinates per row (d rounded up to a multiple of 4), byte offsets of rows, norms, query block. */
  readonly f32: { readonly dq: number; readonly rows: number; readonly norms: number; readonly queries: number } | null;
}

/**
 * The Float32 filter (filter4f) accepts a row for query q when its single-precision
 * v = (‖q‖² + ‖x‖²)(1 − c) − 2 q·x is at most the query's k-th squared distance;
 * the rows it accepts are then measured in Float64 and offered to the heap, so
 * results are those of Float64 arithmetic. c bounds the Float32 error: rounding
 * the inputs (2u per product), the products (u), the ≤ d/4 + 2 sums per dot product,
 * the norms and the final sum and difference each add at most a few u·(‖q‖² + ‖x‖²),
 * u = 2⁻²⁴; c = 2(d + 16)u is over twice their sum. Values above F32_MAX_ABS would
 * overflow single precision: such data keeps the Float64 kernel. Thresholds are
 * rounded up, plus 2⁻¹⁰⁰ for underflow.
 */
const F32_MAX_ABS = 1e15;

function maxAbs(a: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const v = Math.abs(a[i]);
    if (v > m || v !== v) m = v !== v ? Infinity : v;
  }
  return m;
}

export function prepareEuclidean(data: Float64Array, n: number, d: number): EuclideanRows {
  const norms = squaredNorms(data, n, d);
  const dp = d + (d & 1);
  const dq = (d + 3) & ~3;
  const useF32 = maxAbs(data) <= F32_MAX_ABS;
  let at = 0;
  const take = (bytes: number) => {
    const start = at;
    at += (bytes + 15) & ~15;
    return start;
  };
  const rows64 = take(n * dp * 8);
  const layout = { norms: take(n * 8), queries: take(QUERY_BLOCK * dp * 8), prm: take(64), cand: take(ROW_BLOCK * 4 * 16) };
  const f32 = useF32 ? { dq, rows: take(n * dq * 4), norms: take(n * 4), queries: take(QUERY_BLOCK * dq * 4) } : null;
  const kernel = createDotKernel(at);
  if (!kernel) return { data, n, d, norms, simd: null };
  const mem = new Float64Array(kernel.memory.buffer);
  for (let i = 0; i < n; i++) mem.set(data.subarray(i * d, i * d + d), rows64 / 8 + i * dp);
  mem.set(norms, layout.norms / 8);
  if (f32) {
    const m32 = new Float32Array(kernel.memory.buffer);
    const c = f32Slack(dq);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < d; j++) m32[f32.rows / 4 + i * dq + j] = data[i * d + j];
      m32[f32.norms / 4 + i] = norms[i] * (1 - c);
    }
  }
  return { data, n, d, norms, simd: { kernel, dp, ...layout, f32 } };
}

const f32Slack = (dq: number) => 2 * (dq + 16) * 2 ** -24;

/** The smallest single-precision value at or above t (plus the underflow allowance). */
function thresholdUp(t: number): number {
  return t === Infinity ? Infinity : Math.fround(t * (1 + 2 ** -20) + 2 ** -100);
}

/** Fills heap (queries 0..m−1 of Q) with the k best rows of `data`. */
export function bruteKnn(data: Float64Array, n: number, d: number, metric: RowMetric, prepared: EuclideanRows | null, Q: Float64Array, m: number, heap: NeighborHeap): void {
  if (metric === euclidean && prepared) {
    const simd = prepared.simd;
    if (simd?.f32 && maxAbs(Q) <= F32_MAX_ABS) simdKnnF32(prepared, simd, simd.f32, Q, m, heap);
    else if (simd) simdKnn(prepared, simd, Q, m, heap);
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

/**
 * Queries q0..q1 into the Float32 filter's layout: groups of four queries, each group's
 * coordinates interleaved four by four (query i's coordinate j at 16·⌊j/4⌋ + 4i + j mod 4),
 * zero-padded to `dq` coordinates and to whole groups.
 */
function packQueriesF32(m32: Float32Array, qBase: number, Q: Float64Array, d: number, dq: number, q0: number, q1: number, groups: number): void {
  m32.fill(0, qBase, qBase + groups * 4 * dq);
  for (let q = q0; q < q1; q++) {
    const base = qBase + ((q - q0) >> 2) * 4 * dq;
    const i = (q - q0) & 3;
    for (let j = 0; j < d; j++) m32[base + 16 * (j >> 2) + 4 * i + (j & 3)] = Q[q * d + j];
  }
}

/** simdKnn with the Float32 filter (see f32Slack): four lanes a SIMD instruction, Float64 distances for the rows it lets through. */
function simdKnnF32(rows: EuclideanRows, s: SimdRows, f: NonNullable<SimdRows["f32"]>, Q: Float64Array, m: number, heap: NeighborHeap): void {
  const { data, n, d } = rows;
  const { kernel } = s;
  const { dq } = f;
  const m32 = new Float32Array(kernel.memory.buffer);
  const i32 = new Int32Array(kernel.memory.buffer);
  const qBase = f.queries / 4;
  const prm = s.prm / 4;
  const cand = s.cand / 4;
  const rowBytes = dq * 4;
  const keep = 1 - f32Slack(dq);
  const qn = squaredNorms(Q, m, d);
  const k = heap.k;
  const dist = heap.dist;
  for (let q0 = 0; q0 < m; q0 += QUERY_BLOCK) {
    const q1 = Math.min(m, q0 + QUERY_BLOCK);
    const groups = Math.ceil((q1 - q0) / 4);
    packQueriesF32(m32, qBase, Q, d, dq, q0, q1, groups);
    for (let r0 = 0; r0 < n; r0 += ROW_BLOCK) {
      const r1 = Math.min(n, r0 + ROW_BLOCK);
      for (let g = 0; g < groups; g++) {
        const first = q0 + 4 * g;
        for (let i = 0; i < 4; i++) {
          const q = first + i;
          m32[prm + i] = q < q1 ? qn[q] * keep : 0;
          m32[prm + 4 + i] = q < q1 ? thresholdUp(dist[q * k]) : -1;
        }
        const found = kernel.filter4f(f.rows + r0 * rowBytes, r1 - r0, rowBytes, f.queries + g * 4 * dq * 4, f.norms + r0 * 4, s.prm, s.cand);
        for (let c = 0; c < found; c++) {
          const row = r0 + i32[cand + 2 * c];
          const mask = i32[cand + 2 * c + 1];
          for (let lane = 0; lane < 4; lane++) {
            if ((mask & (1 << lane)) === 0) continue;
            const q = first + lane;
            heap.push(q, euclidean.reduced(Q, q, data, row, d), row);
          }
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

/**
 * Euclidean radius queries for a block of queries: every row within squared distance rr of each
 * query, offered as (query, row, squared distance) with the distance computed directly, so the
 * rows found are exactly bruteRadius's (per query in increasing row order). With WebAssembly
 * SIMD the Float32 filter (see f32Slack) passes four queries at a time over cache-sized blocks
 * of rows and only its candidates are measured in Float64.
 */
export function euclideanRadius(rows: EuclideanRows, Q: Float64Array, m: number, rr: number, found: (q: number, row: number, reduced: number) => void): void {
  const { data, n, d } = rows;
  const s = rows.simd;
  if (!s?.f32 || !(maxAbs(Q) <= F32_MAX_ABS) || !(rr <= F32_MAX_ABS)) {
    for (let q = 0; q < m; q++) bruteRadius(data, n, d, euclidean, Q, q, rr, (row, v) => found(q, row, v));
    return;
  }
  const f = s.f32;
  const { kernel } = s;
  const { dq } = f;
  const m32 = new Float32Array(kernel.memory.buffer);
  const i32 = new Int32Array(kernel.memory.buffer);
  const qBase = f.queries / 4;
  const prm = s.prm / 4;
  const cand = s.cand / 4;
  const rowBytes = dq * 4;
  const keep = 1 - f32Slack(dq);
  const qn = squaredNorms(Q, m, d);
  const threshold = thresholdUp(rr);
  for (let q0 = 0; q0 < m; q0 += QUERY_BLOCK) {
    const q1 = Math.min(m, q0 + QUERY_BLOCK);
    const groups = Math.ceil((q1 - q0) / 4);
    packQueriesF32(m32, qBase, Q, d, dq, q0, q1, groups);
    for (let r0 = 0; r0 < n; r0 += ROW_BLOCK) {
      const r1 = Math.min(n, r0 + ROW_BLOCK);
      for (let g = 0; g < groups; g++) {
        const first = q0 + 4 * g;
        for (let i = 0; i < 4; i++) {
          const q = first + i;
          m32[prm + i] = q < q1 ? qn[q] * keep : 0;
          m32[prm + 4 + i] = q < q1 ? threshold : -1;
        }
        const count = kernel.filter4f(f.rows + r0 * rowBytes, r1 - r0, rowBytes, f.queries + g * 4 * dq * 4, f.norms + r0 * 4, s.prm, s.cand);
        for (let c = 0; c < count; c++) {
          const row = r0 + i32[cand + 2 * c];
          const mask = i32[cand + 2 * c + 1];
          for (let lane = 0; lane < 4; lane++) {
            if ((mask & (1 << lane)) === 0) continue;
            const q = first + lane;
            const v = euclidean.reduced(Q, q, data, row, d);
            if (v <= rr) found(q, row, v);
          }
        }
      }
    }
  }
}
