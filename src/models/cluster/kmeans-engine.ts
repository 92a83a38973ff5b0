/**
 * Lloyd's k-means on a row-major matrix (n × d), as scikit-learn's `_kmeans_single_lloyd`
 * runs it (with Elkan's or Hamerly's bounds to skip distances that cannot change an assignment), so that
 * the same initial centres give the same centres:
 *
 *   repeat: assign every row to its nearest centre (squared Euclidean; a tie goes to the
 *   lowest centre index) → each centre becomes the mean of its rows → stop when no label
 *   changed, or when the centres moved by at most `tol` (the summed squared shifts);
 *   if it stopped on `tol` (or ran out of iterations), assign once more so that labels
 *   and centres agree.
 *
 * A centre left without rows takes the training row farthest from its own centre (the
 * centres of the step before), as scikit-learn relocates; several empty centres, in
 * increasing index, take the farthest rows in decreasing distance (ties: lowest row).
 */
import type { Rng } from "../../data/random.js";
import { throwIfAborted, type AbortFlag } from "../contract.js";
import { BLOCK, forgetRows, RowDistances, rowDistances } from "./simd-distances.js";

/**
 * The training rows: row-major (n × d), or only in the SIMD kernel's layout (kmeans' fit from a frame's columns from
 * SIMD_MIN_ROWS rows: one copy of the data instead of a row-major copy and then the kernel's).
 */
export type Rows = Float64Array | RowDistances;

export interface LloydResult {
  /** k × d, row-major. */
  readonly centres: Float64Array<ArrayBuffer>;
  readonly labels: Int32Array<ArrayBuffer>;
  /** Sum of squared distances of the rows to their centres (SSE). */
  readonly inertia: number;
  /** Iterations run (each one an assignment and an update). */
  readonly nIter: number;
}

/** scikit-learn's absolute tolerance: tol × the mean of the per-feature variances. */
export function absoluteTolerance(X: Rows, n: number, d: number, tol: number): number {
  if (tol === 0 || n === 0) return 0;
  if (X instanceof RowDistances) return kernelTolerance(X, n, d, tol);
  // Row by row (the matrix is row-major): the means, then the squared deviations.
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j] += X[i * d + j];
  for (let j = 0; j < d; j++) mean[j] /= n;
  let total = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) {
      const t = X[i * d + j] - mean[j];
      total += t * t;
    }
  }
  return (total / n / d) * tol;
}

/**
 * absoluteTolerance on the kernel's copy: the same means (each column summed in row order, by interleaveColumns or
 * here) and the same chain of squared deviations (the kernel's spread, in row-major order), so the same value.
 */
function kernelTolerance(kernel: RowDistances, n: number, d: number, tol: number): number {
  let mean = kernel.columnSums;
  if (!mean) {
    mean = new Float64Array(d);
    const row = new Float64Array(d);
    for (let i = 0; i < n; i++) {
      kernel.row(i, row);
      for (let j = 0; j < d; j++) mean[j] += row[j];
    }
  } else mean = Float64Array.from(mean);
  for (let j = 0; j < d; j++) mean[j] /= n;
  return (kernel.spread(mean) / n / d) * tol;
}

export function squaredDistance(X: Float64Array, i: number, C: Float64Array, c: number, d: number): number {
  let s = 0;
  const a = i * d;
  const b = c * d;
  for (let j = 0; j < d; j++) {
    const t = X[a + j] - C[b + j];
    s += t * t;
  }
  return s;
}

/** Nearest centre of every row (ties: lowest index) into labels; each row's squared distance into dist. Returns the SSE. */
export function assign(X: Float64Array, n: number, d: number, C: Float64Array, k: number, labels: Int32Array, dist: Float64Array): number {
  let sse = 0;
  for (let i = 0; i < n; i++) {
    let best = 0;
    let bestD = squaredDistance(X, i, C, 0, d);
    for (let c = 1; c < k; c++) {
      const dd = squaredDistance(X, i, C, c, d);
      if (dd < bestD) {
        bestD = dd;
        best = c;
      }
    }
    labels[i] = best;
    dist[i] = bestD;
    sse += bestD;
  }
  return sse;
}

/** Sums of the rows of each cluster into sums (k × d), counts into counts. */
function clusterSums(X: Float64Array, n: number, d: number, labels: Int32Array, k: number, sums: Float64Array, counts: Float64Array): void {
  sums.fill(0);
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    const c = labels[i];
    counts[c]++;
    const a = i * d;
    const b = c * d;
    for (let j = 0; j < d; j++) sums[b + j] += X[a + j];
  }
}

/** The rows farthest from their centres, farthest first (ties: lowest row), `count` of them. */
function farthestRows(dist: Float64Array, count: number): number[] {
  const taken = new Set<number>();
  const out: number[] = [];
  for (let r = 0; r < count; r++) {
    let best = -1;
    for (let i = 0; i < dist.length; i++) if (!taken.has(i) && (best < 0 || dist[i] > dist[best])) best = i;
    if (best < 0) break;
    taken.add(best);
    out.push(best);
  }
  return out;
}

/** Row i of the training rows (row-major or the kernel's copy). */
function rowOf(X: Rows, d: number, i: number): Float64Array {
  return X instanceof RowDistances ? X.row(i) : X.subarray(i * d, i * d + d);
}

/** scikit-learn's `_relocate_empty_clusters_dense`: on the sums, before they are divided. */
function relocateEmpty(X: Rows, d: number, labels: Int32Array, distances: () => Float64Array, k: number, sums: Float64Array, counts: Float64Array): void {
  const empty: number[] = [];
  for (let c = 0; c < k; c++) if (counts[c] === 0) empty.push(c);
  if (empty.length === 0) return;
  const far = farthestRows(distances(), empty.length);
  for (let e = 0; e < far.length; e++) {
    const row = far[e];
    const old = labels[row];
    const to = empty[e];
    const x = rowOf(X, d, row);
    for (let j = 0; j < d; j++) {
      sums[old * d + j] -= x[j];
      sums[to * d + j] = x[j];
    }
    counts[old]--;
    counts[to] = 1;
  }
}

/**
 * One update: the centres become the means of their rows (empty ones relocated), into next.
 * Returns the summed squared shift of the centres. `labels` are those of `C`; `distances` gives
 * each row's squared distance to its centre in C (asked only when a centre is empty). `sums`: the clusters'
 * coordinate sums when already computed (clusterSums' values: the SIMD assignment's); required when X is the kernel.
 */
export function updateCentres(X: Rows, n: number, d: number, labels: Int32Array, distances: () => Float64Array, C: Float64Array, k: number, next: Float64Array, counts: Float64Array, sums?: Float64Array): number {
  if (sums) {
    next.set(sums);
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[labels[i]]++;
  } else if (X instanceof RowDistances) throw new Error("updateCentres: the kernel's rows need the sums of its assignment");
  else clusterSums(X, n, d, labels, k, next, counts);
  relocateEmpty(X, d, labels, distances, k, next, counts);
  let shift = 0;
  for (let c = 0; c < k; c++) {
    const m = counts[c];
    for (let j = 0; j < d; j++) {
      // A centre whose rows all moved away (relocation emptied it) stays where it was, as scikit-learn's division by zero weight is skipped.
      const v = m > 0 ? next[c * d + j] / m : C[c * d + j];
      next[c * d + j] = v;
      const t = v - C[c * d + j];
      shift += t * t;
    }
  }
  return shift;
}

export interface LloydOptions {
  readonly maxIter: number;
  /** Absolute tolerance on the summed squared centre shift (see absoluteTolerance). */
  readonly tol: number;
  readonly signal?: AbortFlag;
  /** Which bounds skip distances (the assignments are Lloyd's either way); default: Elkan's while n·k ≤ ELKAN_MAX_BOUNDS, else Hamerly's. */
  readonly bounds?: "elkan" | "hamerly";
  /**
   * Seeded k-means (semi/seeded-kmeans.ts): a cluster per row that keeps it there whatever the
   * nearest centre (−1: the row is assigned freely). Bounds are per row, so overriding a kept
   * row's label after each pass leaves every other row's bounds sound.
   */
  readonly fixed?: Int32Array;
  /**
   * false keeps the JavaScript loops with the bounds. By default, from SIMD_MIN_ROWS rows, every pass is a full
   * plain-Lloyd assignment by the WebAssembly kernel (simd-distances.ts): the same distances to the last bit,
   * so the same labels, and cheaper than the bounds' bookkeeping (tests compare the two).
   */
  readonly simd?: boolean;
}

/** Elkan keeps n × k lower bounds: up to 2²⁴ of them (128 MB); beyond, Hamerly's n suffice. */
export const ELKAN_MAX_BOUNDS = 1 << 24;

/**
 * Lloyd's iterations with Hamerly's bounds, which give the same assignments while skipping most
 * distance computations once the centres settle: each row keeps an upper bound on the distance to
 * its centre and a lower bound on the distance to any other; after a move the bounds widen by how
 * far the centres moved. A row is rescanned only when its upper bound reaches the larger of its
 * lower bound and half the gap from its centre to the nearest other centre. Bounds are compared
 * with a relative slack of 1e-12 so that rounding never keeps a row from a centre that became nearer.
 */
export function lloyd(X: Rows, n: number, d: number, init: Float64Array, k: number, options: LloydOptions): LloydResult {
  // With the SIMD kernel every distance costs less than the bounds' bookkeeping: plain Lloyd, every pass full, no bounds kept.
  // (Lloyd's labels either way: test/models/cluster/lloyd-bounds.test.ts and simd-distances.test.ts.)
  if (X instanceof RowDistances) return lloydSimd(X, n, d, init, k, options);
  const kernel = options.simd !== false ? rowDistances(X, n, d, k) : null;
  if (kernel) {
    try {
      return lloydSimd(kernel, n, d, init, k, options);
    } finally {
      forgetRows();
    }
  }
  let C = Float64Array.from(init);
  let next = new Float64Array(k * d);
  const labels = new Int32Array(n);
  const old = new Int32Array(n).fill(-1);
  const counts = new Float64Array(k);
  const upper = new Float64Array(n);
  const lower = new Float64Array(n);
  const half = new Float64Array(k);
  const move = new Float64Array(k);
  const dist = new Float64Array(n);
  // Relocating an empty centre needs every row's exact distance to its centre; computed only then.
  const exact = () => {
    for (let i = 0; i < n; i++) dist[i] = squaredDistance(X, i, C, labels[i], d);
    return dist;
  };
  const gap = new Float64Array(k * k);
  const elkan = (options.bounds ?? (n * k <= ELKAN_MAX_BOUNDS ? "elkan" : "hamerly")) === "elkan";
  const bounds: Bounds = { labels, upper, lower: elkan ? new Float64Array(n * k) : lower, gap, half };
  const fixed = options.fixed;
  const assignPass = (all: boolean) => {
    centreGaps(C, k, d, gap, half);
    if (elkan) elkanPass(X, n, d, C, k, bounds, all);
    else boundedPass(X, n, d, C, k, bounds, all);
    if (fixed) for (let i = 0; i < n; i++) if (fixed[i] >= 0) labels[i] = fixed[i];
  };
  let strict = false;
  let it = 0;
  for (; it < options.maxIter; it++) {
    throwIfAborted(options.signal);
    assignPass(it === 0);
    const shift = updateCentres(X, n, d, labels, exact, C, k, next, counts);
    let max1 = 0;
    let max2 = 0;
    let arg = -1;
    for (let c = 0; c < k; c++) {
      let s2 = 0;
      for (let j = 0; j < d; j++) s2 += (next[c * d + j] - C[c * d + j]) ** 2;
      move[c] = Math.sqrt(s2);
      if (move[c] > max1) {
        max2 = max1;
        max1 = move[c];
        arg = c;
      } else if (move[c] > max2) max2 = move[c];
    }
    [C, next] = [next, C];
    if (elkan) {
      const L = bounds.lower;
      for (let i = 0; i < n; i++) {
        upper[i] += move[labels[i]];
        for (let c = 0; c < k; c++) L[i * k + c] = Math.max(0, L[i * k + c] - move[c]);
      }
    } else {
      for (let i = 0; i < n; i++) {
        upper[i] += move[labels[i]];
        lower[i] -= labels[i] === arg ? max2 : max1;
      }
    }
    const end = passEnds(labels, old, shift, options.tol);
    strict = end === "strict";
    if (end) break;
  }
  // Like scikit-learn, report the iterations run (the loop's index + 1, capped at max_iter).
  const nIter = Math.min(it + 1, options.maxIter);
  // Labels of the last assignment belong to the centres before the last update unless nothing changed: assign once more (bounded).
  if (!strict) assignPass(false);
  return { centres: C, labels, inertia: sseOf(X, n, d, C, labels), nIter };
}

/**
 * scikit-learn's stop rule after a Lloyd pass, shared by both engines: "strict" when no label
 * changed (the centres are the labels' means, so the labels are final), "tol" when the centres
 * moved by at most tol; otherwise the labels are kept for the next pass's comparison.
 */
function passEnds(labels: Int32Array, old: Int32Array, shift: number, tol: number): "strict" | "tol" | null {
  if (sameLabels(labels, old)) return "strict";
  if (shift <= tol) return "tol";
  old.set(labels);
  return null;
}

function sameLabels(a: Int32Array, b: Int32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Lloyd's iterations on the SIMD kernel: lloyd's loop without bounds, every pass full. Each pass also sums each
 * centre's rows (kept rows under their fixed centre), so no pass over the rows is needed for the update; the last
 * pass's distances give the SSE (the nearest centre's distance is the labelled one), summed in sseOf's row order.
 */
function lloydSimd(kernel: RowDistances, n: number, d: number, init: Float64Array, k: number, options: LloydOptions): LloydResult {
  let C = Float64Array.from(init);
  let next = new Float64Array(k * d);
  const labels = new Int32Array(n);
  const old = new Int32Array(n).fill(-1);
  const counts = new Float64Array(k);
  const fixed = options.fixed;
  let dist: Float64Array | null = null;
  // Relocating an empty centre needs every row's exact distance to its centre; computed only then.
  const exact = () => {
    dist ??= new Float64Array(n);
    labelledDistances(kernel, n, C, k, labels, dist);
    return dist;
  };
  let strict = false;
  let it = 0;
  for (; it < options.maxIter; it++) {
    throwIfAborted(options.signal);
    assignSimd(kernel, n, C, k, labels, true, fixed);
    const shift = updateCentres(kernel, n, d, labels, exact, C, k, next, counts, kernel.sums(k));
    [C, next] = [next, C];
    const end = passEnds(labels, old, shift, options.tol);
    strict = end === "strict";
    if (end) break;
  }
  const nIter = Math.min(it + 1, options.maxIter);
  // As lloyd: the labels of the last centres, and the SSE. With kept rows, a row's label need not be its nearest centre.
  let inertia: number;
  if (!strict) {
    inertia = assignSimd(kernel, n, C, k, labels, false, fixed);
    if (fixed) inertia = labelledDistances(kernel, n, C, k, labels);
  } else inertia = labelledDistances(kernel, n, C, k, labels);
  return { centres: C, labels, inertia, nIter };
}

const SLACK = 1 - 1e-12;

/** Per-row bounds and per-centre gaps (one object, so the hot functions stay monomorphic). */
interface Bounds {
  readonly labels: Int32Array;
  readonly upper: Float64Array;
  /** Hamerly: one lower bound per row (to any other centre); Elkan: n × k, one per row and centre. */
  readonly lower: Float64Array;
  /** Half the distance between every two centres, k × k. */
  readonly gap: Float64Array;
  /** Half the distance from each centre to its nearest other. */
  readonly half: Float64Array;
}

/**
 * Row i against every centre. A centre at least twice as far from the best so far as the row
 * is cannot be nearer (Elkan's test; on a tie the lower index, already best, stays): it is
 * skipped, and 2·gap − d(x, best) still bounds its distance from below.
 */
function scanRow(X: Float64Array, i: number, d: number, C: Float64Array, k: number, b: Bounds): void {
  let best = 0;
  let bestD = squaredDistance(X, i, C, 0, d);
  let second = Infinity;
  for (let c = 1; c < k; c++) {
    const dd = squaredDistance(X, i, C, c, d);
    if (dd < bestD) {
      second = bestD;
      bestD = dd;
      best = c;
    } else if (dd < second) second = dd;
  }
  b.labels[i] = best;
  b.upper[i] = Math.sqrt(bestD);
  b.lower[i] = Math.sqrt(second);
}

/** One assignment: every row (all), else only the rows whose bounds leave room for another centre. */
function boundedPass(X: Float64Array, n: number, d: number, C: Float64Array, k: number, b: Bounds, all: boolean): void {
  const { labels, upper, lower, half } = b;
  for (let i = 0; i < n; i++) {
    if (!all) {
      const a = labels[i];
      const m = Math.max(half[a], lower[i]) * SLACK;
      if (upper[i] < m) continue;
      upper[i] = Math.sqrt(squaredDistance(X, i, C, a, d));
      if (upper[i] < m) continue;
    }
    scanRow(X, i, d, C, k, b);
  }
}

/**
 * Elkan's assignment: each row keeps a lower bound on its distance to every centre; centre c is
 * looked at only when the row's upper bound reaches both that bound and half the gap between its
 * centre and c. Decisions compare squared distances, ties to the lowest index, as plain Lloyd.
 */
function elkanPass(X: Float64Array, n: number, d: number, C: Float64Array, k: number, b: Bounds, first: boolean): void {
  const { labels, upper, lower: L, gap, half } = b;
  // The first pass computes every distance anyway, four rows per sweep (each centre value loaded once for four rows).
  const start = first ? firstPassByFours(X, n, d, C, k, b) : 0;
  for (let i = start; i < n; i++) {
    const o = i * k;
    if (first) {
      let a = 0;
      let a2 = squaredDistance(X, i, C, 0, d);
      let ua = Math.sqrt(a2);
      L[o] = ua;
      for (let c = 1; c < k; c++) {
        const g = gap[a * k + c];
        if (g >= ua) {
          // d(x, c) ≥ 2·gap − d(x, a) ≥ d(x, a): not nearer (a tie keeps a, the lower index).
          L[o + c] = 2 * g - ua;
          continue;
        }
        const c2 = squaredDistance(X, i, C, c, d);
        const dc = Math.sqrt(c2);
        L[o + c] = dc;
        if (c2 < a2) {
          a = c;
          a2 = c2;
          ua = dc;
        }
      }
      labels[i] = a;
      upper[i] = ua;
      continue;
    }
    let a = labels[i];
    let ua = upper[i];
    if (ua < half[a] * SLACK) continue;
    let a2 = -1; // the exact squared distance to a, once computed
    for (let c = 0; c < k; c++) {
      if (c === a) continue;
      const bound = Math.max(L[o + c], gap[a * k + c]) * SLACK;
      if (ua < bound) continue;
      if (a2 < 0) {
        a2 = squaredDistance(X, i, C, a, d);
        ua = Math.sqrt(a2);
        L[o + a] = ua;
        if (ua < bound) continue;
      }
      const c2 = squaredDistance(X, i, C, c, d);
      const dc = Math.sqrt(c2);
      L[o + c] = dc;
      if (c2 < a2 || (c2 === a2 && c < a)) {
        a = c;
        a2 = c2;
        ua = dc;
      }
    }
    labels[i] = a;
    upper[i] = ua;
  }
}

/**
 * Plain Lloyd's assignment by the SIMD kernel: every distance (the same values as squaredDistance), nearest centre,
 * ties to the lowest index; a kept row (fixed ≥ 0) takes its fixed centre. With `sum`, also each centre's coordinate
 * sums over its rows (kernel.sums: clusterSums' values) while the rows are in cache. Without `sum` (the last pass),
 * returns the nearest centres' squared distances summed in row order (sseOf's value when no row is kept); else 0.
 */
function assignSimd(kernel: RowDistances, n: number, C: Float64Array, k: number, labels: Int32Array, sum: boolean, fixed?: Int32Array): number {
  kernel.setCentres(C, k);
  if (sum) kernel.sums(k).fill(0);
  let sse = 0;
  for (let first = 0; first < kernel.blocks; first += kernel.chunk) {
    const count = Math.min(kernel.chunk, kernel.blocks - first);
    const near = kernel.nearest(first, count, k);
    const base = first * BLOCK;
    const m = Math.min(count * BLOCK, n - base);
    for (let q = 0; q * BLOCK < m; q++) {
      const o = q * 2 * BLOCK;
      const i = base + q * BLOCK;
      const last = Math.min(BLOCK, m - q * BLOCK);
      for (let r = 0; r < last; r++) labels[i + r] = near[o + r];
      // Only the last pass (no sums) needs the SSE.
      if (!sum) for (let r = 0; r < last; r++) sse += near[o + BLOCK + r];
      if (fixed) {
        for (let r = 0; r < last; r++) {
          const f = fixed[i + r];
          if (f >= 0) near[o + r] = labels[i + r] = f;
        }
      }
    }
    if (sum) kernel.addNearest(first, count);
  }
  return sse;
}

/** Each row's squared distance to its labelled centre in C (into out, when given) by the kernel; returns their sum in row order (sseOf's value). */
function labelledDistances(kernel: RowDistances, n: number, C: Float64Array, k: number, labels: Int32Array, out?: Float64Array): number {
  kernel.setCentres(C, k);
  let sse = 0;
  for (let first = 0; first < kernel.blocks; first += kernel.chunk) {
    const count = Math.min(kernel.chunk, kernel.blocks - first);
    const D = kernel.run(first, count, k);
    const base = first * BLOCK;
    const m = Math.min(count * BLOCK, n - base);
    for (let t = 0; t < m; t++) {
      const v = D[((t >> 3) * k + labels[base + t]) * BLOCK + (t & 7)];
      if (out) out[base + t] = v;
      sse += v;
    }
  }
  return sse;
}

/** Every distance of rows 0 … 4⌊n/4⌋ − 1 (exact lower bounds, labels, upper bounds); returns the first row left. */
function firstPassByFours(X: Float64Array, n: number, d: number, C: Float64Array, k: number, b: Bounds): number {
  const { labels, upper, lower: L } = b;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const x1 = i * d;
    const x2 = x1 + d;
    const x3 = x2 + d;
    const x4 = x3 + d;
    let b1 = 0;
    let b2 = 0;
    let b3 = 0;
    let b4 = 0;
    let d1 = Infinity;
    let d2 = Infinity;
    let d3 = Infinity;
    let d4 = Infinity;
    for (let c = 0; c < k; c++) {
      const o = c * d;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let s4 = 0;
      for (let j = 0; j < d; j++) {
        const v = C[o + j];
        const t1 = X[x1 + j] - v;
        const t2 = X[x2 + j] - v;
        const t3 = X[x3 + j] - v;
        const t4 = X[x4 + j] - v;
        s1 += t1 * t1;
        s2 += t2 * t2;
        s3 += t3 * t3;
        s4 += t4 * t4;
      }
      L[i * k + c] = Math.sqrt(s1);
      L[(i + 1) * k + c] = Math.sqrt(s2);
      L[(i + 2) * k + c] = Math.sqrt(s3);
      L[(i + 3) * k + c] = Math.sqrt(s4);
      if (s1 < d1) {
        d1 = s1;
        b1 = c;
      }
      if (s2 < d2) {
        d2 = s2;
        b2 = c;
      }
      if (s3 < d3) {
        d3 = s3;
        b3 = c;
      }
      if (s4 < d4) {
        d4 = s4;
        b4 = c;
      }
    }
    labels[i] = b1;
    labels[i + 1] = b2;
    labels[i + 2] = b3;
    labels[i + 3] = b4;
    upper[i] = Math.sqrt(d1);
    upper[i + 1] = Math.sqrt(d2);
    upper[i + 2] = Math.sqrt(d3);
    upper[i + 3] = Math.sqrt(d4);
  }
  return i;
}

/** Half the distance between every two centres (gap, k × k), and from each centre to its nearest other (half; Infinity for one centre). */
function centreGaps(C: Float64Array, k: number, d: number, gap: Float64Array, half: Float64Array): void {
  half.fill(Infinity);
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      const g = 0.5 * Math.sqrt(squaredDistance(C, a, C, b, d));
      gap[a * k + b] = g;
      gap[b * k + a] = g;
      if (g < half[a]) half[a] = g;
      if (g < half[b]) half[b] = g;
    }
  }
}

function sseOf(X: Float64Array, n: number, d: number, C: Float64Array, labels: Int32Array): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += squaredDistance(X, i, C, labels[i], d);
  return s;
}

/** The centres at the given rows (k × d). */
export function centresAtRows(X: Rows, d: number, rows: readonly number[]): Float64Array<ArrayBuffer> {
  const C = new Float64Array(rows.length * d);
  rows.forEach((r, c) => (X instanceof RowDistances ? X.row(r, C, c * d) : C.set(X.subarray(r * d, r * d + d), c * d)));
  return C;
}

/** k distinct rows drawn uniformly (a partial Fisher–Yates), as scikit-learn's init="random". */
export function randomRows(n: number, k: number, rng: Rng): number[] {
  const perm = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(n - i);
    const t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  return Array.from(perm.subarray(0, k));
}

/** min(D(x)², d(x, row)²) for every row into out[off …], four rows per sweep (the candidate's values loaded once for four rows). */
function candidateDistances(X: Float64Array, n: number, d: number, row: number, closest: Float64Array, out: Float64Array, off: number): void {
  const o = row * d;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const x1 = i * d;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    for (let j = 0; j < d; j++) {
      const v = X[o + j];
      const t1 = X[x1 + j] - v;
      const t2 = X[x1 + d + j] - v;
      const t3 = X[x1 + 2 * d + j] - v;
      const t4 = X[x1 + 3 * d + j] - v;
      s1 += t1 * t1;
      s2 += t2 * t2;
      s3 += t3 * t3;
      s4 += t4 * t4;
    }
    out[off + i] = Math.min(closest[i], s1);
    out[off + i + 1] = Math.min(closest[i + 1], s2);
    out[off + i + 2] = Math.min(closest[i + 2], s3);
    out[off + i + 3] = Math.min(closest[i + 3], s4);
  }
  for (; i < n; i++) out[off + i] = Math.min(closest[i], squaredDistance(X, i, X, row, d));
}

/** k-means++'s trials per centre (scikit-learn's 2 + ⌊ln k⌋). */
export function plusPlusTrials(k: number): number {
  return 2 + Math.floor(Math.log(k));
}

/**
 * scikit-learn's greedy k-means++ (`_kmeans_plusplus`): the first centre uniformly; each
 * next one among 2 + ⌊ln k⌋ rows drawn with probability ∝ D(x)², keeping the candidate
 * that lowers the potential Σ D(x)² most. Returns the chosen rows.
 */
export function kmeansPlusPlus(X: Rows, n: number, d: number, k: number, rng: Rng, signal?: AbortFlag, simd = true): number[] {
  const trials = plusPlusTrials(k);
  const rows = [rng.int(n)];
  // Made for k centres so that Lloyd's first pass on the same matrix reuses the copy.
  const kernel = X instanceof RowDistances ? X : simd ? rowDistances(X, n, d, Math.max(k, trials), trials) : null;
  // D(x)² of every row (the kernel's copy is padded past n), each trial's potential, and keeping trial t's D(x)².
  let closest: Float64Array;
  let pot: number;
  let potentials: (trialRows: number[]) => Float64Array;
  let keep: (t: number) => void;
  if (kernel) {
    if (kernel.trials < trials) throw new Error(`kmeansPlusPlus: the kernel takes ${kernel.trials} trials, not ${trials}`);
    // Every trial in one pass over the rows (the rows read once, not once per trial); minima and potentials in the kernel.
    closest = kernel.closest().fill(Infinity);
    potentials = (trialRows) => {
      kernel.setCentres(centresAtRows(X, d, trialRows), trialRows.length);
      return kernel.candidates(trialRows.length);
    };
    keep = (t) => closest.set(kernel.trialValues(t));
    pot = potentials([rows[0]])[0];
    keep(0);
  } else {
    const M = X as Float64Array;
    closest = new Float64Array(n);
    for (let i = 0; i < n; i++) closest[i] = squaredDistance(M, i, M, rows[0], d);
    pot = closest.reduce((a, b) => a + b, 0);
    const cand = new Float64Array(trials * n);
    potentials = (trialRows) => {
      const pots = new Float64Array(trialRows.length);
      trialRows.forEach((row, t) => {
        const off = t * n;
        candidateDistances(M, n, d, row, closest, cand, off);
        // Summed in row order, as before the four-row sweep: the same potential to the last bit.
        let p = 0;
        for (let i = 0; i < n; i++) p += cand[off + i];
        pots[t] = p;
      });
      return pots;
    };
    keep = (t) => closest.set(cand.subarray(t * n, t * n + n));
  }
  const cum = new Float64Array(n);
  for (let c = 1; c < k; c++) {
    throwIfAborted(signal);
    let s = 0;
    for (let i = 0; i < n; i++) cum[i] = s += closest[i];
    const trialRows: number[] = [];
    for (let t = 0; t < trials; t++) {
      const target = rng.next() * pot;
      // searchsorted(side="left"): the first row whose cumulative potential reaches the draw.
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cum[mid] < target) lo = mid + 1;
        else hi = mid;
      }
      trialRows.push(Math.min(lo, n - 1));
    }
    const pots = potentials(trialRows);
    // The first trial with the lowest potential; none when every potential is infinite or NaN (rows with infinite
    // values): then D(x)² stays, the potential becomes ∞ and row 0 is taken, as this loop always did.
    let best = -1;
    let bestPot = Infinity;
    for (let t = 0; t < trials; t++) {
      if (pots[t] < bestPot) {
        bestPot = pots[t];
        best = t;
      }
    }
    if (best >= 0) keep(best);
    pot = bestPot;
    rows.push(best >= 0 ? trialRows[best] : 0);
  }
  return rows;
}
