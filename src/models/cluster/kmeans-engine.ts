/**
 * Lloyd's k-means on a row-major matrix (n × d), as scikit-learn's `_kmeans_single_lloyd`
 * runs it, so that the same initial centres give the same centres:
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
export function absoluteTolerance(X: Float64Array, n: number, d: number, tol: number): number {
  if (tol === 0 || n === 0) return 0;
  let total = 0;
  for (let j = 0; j < d; j++) {
    let mean = 0;
    for (let i = 0; i < n; i++) mean += X[i * d + j];
    mean /= n;
    let v = 0;
    for (let i = 0; i < n; i++) {
      const t = X[i * d + j] - mean;
      v += t * t;
    }
    total += v / n;
  }
  return (total / d) * tol;
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

/** scikit-learn's `_relocate_empty_clusters_dense`: on the sums, before they are divided. */
function relocateEmpty(X: Float64Array, d: number, labels: Int32Array, dist: Float64Array, k: number, sums: Float64Array, counts: Float64Array): void {
  const empty: number[] = [];
  for (let c = 0; c < k; c++) if (counts[c] === 0) empty.push(c);
  if (empty.length === 0) return;
  const far = farthestRows(dist, empty.length);
  for (let e = 0; e < far.length; e++) {
    const row = far[e];
    const old = labels[row];
    const to = empty[e];
    for (let j = 0; j < d; j++) {
      sums[old * d + j] -= X[row * d + j];
      sums[to * d + j] = X[row * d + j];
    }
    counts[old]--;
    counts[to] = 1;
  }
}

/**
 * One update: the centres become the means of their rows (empty ones relocated), into next.
 * Returns the summed squared shift of the centres. `labels` and `dist` are those of `C`.
 */
export function updateCentres(X: Float64Array, n: number, d: number, labels: Int32Array, dist: Float64Array, C: Float64Array, k: number, next: Float64Array, counts: Float64Array): number {
  clusterSums(X, n, d, labels, k, next, counts);
  relocateEmpty(X, d, labels, dist, k, next, counts);
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
}

export function lloyd(X: Float64Array, n: number, d: number, init: Float64Array, k: number, options: LloydOptions): LloydResult {
  let C = Float64Array.from(init);
  let next = new Float64Array(k * d);
  const labels = new Int32Array(n);
  const old = new Int32Array(n).fill(-1);
  const dist = new Float64Array(n);
  const counts = new Float64Array(k);
  let strict = false;
  let it = 0;
  for (; it < options.maxIter; it++) {
    throwIfAborted(options.signal);
    assign(X, n, d, C, k, labels, dist);
    const shift = updateCentres(X, n, d, labels, dist, C, k, next, counts);
    [C, next] = [next, C];
    let same = true;
    for (let i = 0; i < n; i++) {
      if (labels[i] !== old[i]) {
        same = false;
        break;
      }
    }
    if (same) {
      strict = true;
      break;
    }
    if (shift <= options.tol) break;
    old.set(labels);
  }
  // Like scikit-learn, report the iterations run (the loop's index + 1, capped at max_iter).
  const nIter = Math.min(it + 1, options.maxIter);
  // Labels of the last assignment belong to the centres before the last update unless nothing changed.
  const inertia = strict ? sseOf(X, n, d, C, labels) : assign(X, n, d, C, k, labels, dist);
  return { centres: C, labels, inertia, nIter };
}

function sseOf(X: Float64Array, n: number, d: number, C: Float64Array, labels: Int32Array): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += squaredDistance(X, i, C, labels[i], d);
  return s;
}

/** The centres at the given rows (k × d). */
export function centresAtRows(X: Float64Array, d: number, rows: readonly number[]): Float64Array<ArrayBuffer> {
  const C = new Float64Array(rows.length * d);
  rows.forEach((r, c) => C.set(X.subarray(r * d, r * d + d), c * d));
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

/**
 * scikit-learn's greedy k-means++ (`_kmeans_plusplus`): the first centre uniformly; each
 * next one among 2 + ⌊ln k⌋ rows drawn with probability ∝ D(x)², keeping the candidate
 * that lowers the potential Σ D(x)² most. Returns the chosen rows.
 */
export function kmeansPlusPlus(X: Float64Array, n: number, d: number, k: number, rng: Rng, signal?: AbortFlag): number[] {
  const trials = 2 + Math.floor(Math.log(k));
  const rows = [rng.int(n)];
  const closest = new Float64Array(n);
  for (let i = 0; i < n; i++) closest[i] = squaredDistance(X, i, X, rows[0], d);
  let pot = closest.reduce((a, b) => a + b, 0);
  const cum = new Float64Array(n);
  const cand = new Float64Array(trials * n);
  for (let c = 1; c < k; c++) {
    throwIfAborted(signal);
    let s = 0;
    for (let i = 0; i < n; i++) cum[i] = s += closest[i];
    let best = -1;
    let bestPot = Infinity;
    let bestRow = 0;
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
      const row = Math.min(lo, n - 1);
      let p = 0;
      const off = t * n;
      for (let i = 0; i < n; i++) {
        const v = Math.min(closest[i], squaredDistance(X, i, X, row, d));
        cand[off + i] = v;
        p += v;
      }
      if (p < bestPot) {
        bestPot = p;
        best = t;
        bestRow = row;
      }
    }
    closest.set(cand.subarray(best * n, best * n + n));
    pot = bestPot;
    rows.push(bestRow);
  }
  return rows;
}
