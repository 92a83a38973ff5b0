/**
 * PAM (Kaufman & Rousseeuw; seed 002's k-medoids): BUILD then SWAP on a full n × n matrix of
 * distances (any vector metric), minimising the sum of distances from every row to its nearest medoid.
 *
 * BUILD: the first medoid is the row with the smallest total distance; each next one the row
 * that lowers the total most. SWAP: of all (medoid, non-medoid) exchanges, apply the one that
 * lowers the total most, until none lowers it (or max_iter swaps). Every exchange of one
 * iteration is costed in O(n²) together (the FastPAM1 bookkeeping: each row's nearest and
 * second-nearest medoid distance, so one pass over the rows serves all k medoids).
 * Ties go to the lowest row, then the lowest medoid position.
 */
import { euclidean, type RowMetric } from "../../data/neighbors/metric.js";
import { throwIfAborted, type AbortFlag } from "../contract.js";

export interface PamResult {
  /** Medoid rows, in BUILD order (a swap replaces in place): cluster c is medoid c's. */
  readonly medoids: Int32Array<ArrayBuffer>;
  readonly labels: Int32Array<ArrayBuffer>;
  /** Sum of distances to the nearest medoid. */
  readonly cost: number;
  readonly swaps: number;
}

export function distanceMatrix(X: Float64Array, n: number, d: number, signal?: AbortFlag, metric: RowMetric = euclidean): Float64Array {
  const D = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    if ((i & 255) === 0) throwIfAborted(signal);
    for (let j = i + 1; j < n; j++) D[i * n + j] = D[j * n + i] = metric.toDistance(metric.reduced(X, i, X, j, d));
  }
  return D;
}

/** Nearest medoid position (ties: lowest), its distance and the second-nearest distance, for every row. */
function nearest(D: Float64Array, n: number, medoids: Int32Array, near: Int32Array, dNear: Float64Array, dSecond: Float64Array): number {
  let cost = 0;
  for (let j = 0; j < n; j++) {
    let best = -1;
    let b = Infinity;
    let s = Infinity;
    for (let c = 0; c < medoids.length; c++) {
      const v = D[j * n + medoids[c]];
      if (v < b) {
        s = b;
        b = v;
        best = c;
      } else if (v < s) s = v;
    }
    near[j] = best;
    dNear[j] = b;
    dSecond[j] = s;
    cost += b;
  }
  return cost;
}

export function build(D: Float64Array, n: number, k: number): Int32Array<ArrayBuffer> {
  const medoids = new Int32Array(k);
  const isMedoid = new Uint8Array(n);
  const dNear = new Float64Array(n).fill(Infinity);
  for (let m = 0; m < k; m++) {
    let bestRow = -1;
    let bestGain = -Infinity;
    for (let h = 0; h < n; h++) {
      if (isMedoid[h]) continue;
      // Gain of adding h: how much it shortens each row's distance (the first medoid: minus its total distance).
      let gain = 0;
      for (let j = 0; j < n; j++) {
        const v = D[j * n + h];
        gain += m === 0 ? -v : Math.max(0, dNear[j] - v);
      }
      if (gain > bestGain) {
        bestGain = gain;
        bestRow = h;
      }
    }
    medoids[m] = bestRow;
    isMedoid[bestRow] = 1;
    for (let j = 0; j < n; j++) dNear[j] = Math.min(dNear[j], D[j * n + bestRow]);
  }
  return medoids;
}

export function pam(D: Float64Array, n: number, k: number, maxIter: number, signal?: AbortFlag): PamResult {
  const medoids = build(D, n, k);
  const isMedoid = new Uint8Array(n);
  for (const m of medoids) isMedoid[m] = 1;
  const near = new Int32Array(n);
  const dNear = new Float64Array(n);
  const dSecond = new Float64Array(n);
  const extra = new Float64Array(k);
  let cost = nearest(D, n, medoids, near, dNear, dSecond);
  let swaps = 0;
  while (swaps < maxIter) {
    throwIfAborted(signal);
    let bestDelta = 0;
    let bestC = -1;
    let bestH = -1;
    for (let h = 0; h < n; h++) {
      if (isMedoid[h]) continue;
      // Change of the total if h replaced medoid c, for every c at once: `common` applies to all, extra[c] to c only.
      let common = 0;
      extra.fill(0);
      for (let j = 0; j < n; j++) {
        const v = D[j * n + h];
        const shared = Math.min(v - dNear[j], 0);
        common += shared;
        // If j's own medoid leaves, j goes to h or to its second-nearest medoid.
        extra[near[j]] += Math.min(v, dSecond[j]) - dNear[j] - shared;
      }
      for (let c = 0; c < k; c++) {
        const delta = common + extra[c];
        if (delta < bestDelta) {
          bestDelta = delta;
          bestC = c;
          bestH = h;
        }
      }
    }
    // Stop when no exchange lowers the total by more than rounding.
    if (bestC < 0 || bestDelta > -1e-12 * (1 + cost)) break;
    isMedoid[medoids[bestC]] = 0;
    isMedoid[bestH] = 1;
    medoids[bestC] = bestH;
    cost = nearest(D, n, medoids, near, dNear, dSecond);
    swaps++;
  }
  return { medoids, labels: Int32Array.from(near), cost, swaps };
}
