/**
 * Mutual information (nats) of a feature with the target, as scikit-learn's
 * mutual_info_classif / mutual_info_regression estimate it:
 *
 * - both discrete (categorical feature, classes): the plug-in estimate from the
 *   contingency table (mutual_info_score);
 * - one continuous, one discrete: Ross (2014) — each point's distance to its k-th
 *   neighbour of the same class, and the count of all points within it;
 * - both continuous: Kraskov, Stögbauer & Grassberger (2004), Chebyshev distance,
 *   each variable divided by its standard deviation first.
 *
 * Only rows where both are present count. Continuous values go through
 * `prepareContinuous` first, as scikit-learn does: divided by their standard
 * deviation, then jittered by 1e-10 · max(1, mean |x|) · N(0, 1) from a seeded
 * generator — without the jitter, tied values (iris has many) make the k-th
 * neighbour distance 0 and the estimate collapse. On distinct values the jitter
 * changes nothing, so the scores equal scikit-learn's there.
 */
import type { Rng } from "../random.js";
import { digamma } from "./digamma.js";

/** Scaled by the standard deviation of the present values, then jittered; NaN stays NaN. */
export function prepareContinuous(values: Float64Array, rng: Rng): Float64Array {
  let n = 0;
  let sum = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    n++;
    sum += v;
  }
  const out = new Float64Array(values.length);
  if (n === 0) return out.fill(NaN);
  const mean = sum / n;
  let squares = 0;
  for (const v of values) if (!Number.isNaN(v)) squares += (v - mean) ** 2;
  const std = Math.sqrt(squares / n);
  const divisor = std < 10 * 2 ** -52 ? 1 : std;
  let absSum = 0;
  for (let i = 0; i < values.length; i++) {
    out[i] = values[i] / divisor;
    if (!Number.isNaN(out[i])) absSum += Math.abs(out[i]);
  }
  const amplitude = 1e-10 * Math.max(1, absSum / n);
  for (let i = 0; i < out.length; i++) {
    const noise = rng.normal();
    if (!Number.isNaN(out[i])) out[i] += amplitude * noise;
  }
  return out;
}

/** The largest double below r (NumPy's nextafter(r, 0) for r > 0). */
function below(r: number): number {
  if (r <= 0) return r;
  const view = new Float64Array([r]);
  const bits = new BigInt64Array(view.buffer);
  bits[0] -= 1n;
  return view[0];
}

export function discreteMutualInfo(x: Int32Array, xLevels: number, y: Int32Array, yLevels: number): number {
  const table = new Float64Array(xLevels * yLevels);
  let n = 0;
  for (let i = 0; i < x.length; i++) {
    if (x[i] < 0 || y[i] < 0) continue;
    table[x[i] * yLevels + y[i]]++;
    n++;
  }
  if (n === 0) return 0;
  const px = new Float64Array(xLevels);
  const py = new Float64Array(yLevels);
  for (let a = 0; a < xLevels; a++) {
    for (let b = 0; b < yLevels; b++) {
      px[a] += table[a * yLevels + b];
      py[b] += table[a * yLevels + b];
    }
  }
  let mi = 0;
  for (let a = 0; a < xLevels; a++) {
    for (let b = 0; b < yLevels; b++) {
      const c = table[a * yLevels + b];
      if (c > 0) mi += (c / n) * Math.log((c * n) / (px[a] * py[b]));
    }
  }
  return Math.max(0, mi);
}

/** How many elements of ascending `sorted` lie within `radius` of x (|v − x| ≤ radius, as a k-d tree counts). */
function countWithin(sorted: Float64Array, x: number, radius: number): number {
  // Binary search on x ± radius, then settle each end on the distances themselves:
  // x + radius can round past a value whose distance is just above radius.
  const within = (v: number) => Math.abs(v - x) <= radius;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < x - radius) lo = mid + 1;
    else hi = mid;
  }
  let first = lo;
  while (first > 0 && within(sorted[first - 1])) first--;
  while (first < sorted.length && sorted[first] < x && !within(sorted[first])) first++;
  lo = first;
  hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= x + radius) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < sorted.length && within(sorted[end])) end++;
  while (end > first && !within(sorted[end - 1])) end--;
  return end - first;
}

/** Distance from sorted[i] to its k-th nearest other element of ascending `sorted`. */
function kthNeighbourDistance(sorted: Float64Array, i: number, k: number): number {
  let left = i - 1;
  let right = i + 1;
  let d = 0;
  for (let found = 0; found < k; found++) {
    const dl = left >= 0 ? sorted[i] - sorted[left] : Infinity;
    const dr = right < sorted.length ? sorted[right] - sorted[i] : Infinity;
    if (dl <= dr) {
      d = dl;
      left--;
    } else {
      d = dr;
      right++;
    }
  }
  return d;
}

/** Ross's estimator: continuous c (through prepareContinuous) against discrete d (codes ≥ 0; −1 or NaN rows left out). */
export function continuousDiscreteMutualInfo(c: Float64Array, d: Int32Array, levels: number, neighbours: number): number {
  const rows: number[] = [];
  for (let i = 0; i < c.length; i++) if (d[i] >= 0 && !Number.isNaN(c[i])) rows.push(i);
  const counts = new Int32Array(levels);
  for (const i of rows) counts[d[i]]++;
  const kept = rows.filter((i) => counts[d[i]] > 1);
  const n = kept.length;
  if (n === 0) return 0;
  const byClass: number[][] = Array.from({ length: levels }, () => []);
  for (const i of kept) byClass[d[i]].push(c[i]);
  let sumK = 0;
  let sumLabel = 0;
  const all = Float64Array.from(kept, (i) => c[i]).sort();
  let sumM = 0;
  for (let label = 0; label < levels; label++) {
    const values = Float64Array.from(byClass[label]).sort();
    if (values.length === 0) continue;
    const k = Math.min(neighbours, values.length - 1);
    for (let i = 0; i < values.length; i++) {
      const radius = below(kthNeighbourDistance(values, i, k));
      const m = countWithin(all, values[i], radius);
      sumK += digamma(k);
      sumLabel += digamma(values.length);
      sumM += digamma(m);
    }
  }
  return Math.max(0, digamma(n) + (sumK - sumLabel - sumM) / n);
}

/** Kraskov et al.'s estimator (algorithm 1) for two continuous variables (both through prepareContinuous). */
export function continuousMutualInfo(x0: Float64Array, y0: Float64Array, neighbours: number): number {
  const rows: number[] = [];
  for (let i = 0; i < x0.length; i++) if (!Number.isNaN(x0[i]) && !Number.isNaN(y0[i])) rows.push(i);
  const n = rows.length;
  if (n <= neighbours) return 0;
  const x = Float64Array.from(rows, (i) => x0[i]);
  const y = Float64Array.from(rows, (i) => y0[i]);
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a] - x[b] || a - b);
  const xs = Float64Array.from(order, (i) => x[i]);
  const ys = Float64Array.from(order, (i) => y[i]);
  const best = new Float64Array(neighbours);
  const radius = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    // The k smallest Chebyshev distances, scanning outwards in x until |Δx| alone exceeds the k-th.
    best.fill(Infinity);
    const consider = (q: number): boolean => {
      const dx = Math.abs(xs[q] - xs[p]);
      if (dx > best[neighbours - 1]) return false;
      const dist = Math.max(dx, Math.abs(ys[q] - ys[p]));
      if (dist < best[neighbours - 1]) {
        let j = neighbours - 1;
        while (j > 0 && best[j - 1] > dist) {
          best[j] = best[j - 1];
          j--;
        }
        best[j] = dist;
      }
      return true;
    };
    let left = p - 1;
    let right = p + 1;
    let goLeft = true;
    let goRight = true;
    while (goLeft || goRight) {
      if (goLeft) goLeft = left >= 0 && consider(left--);
      if (goRight) goRight = right < n && consider(right++);
    }
    radius[p] = below(best[neighbours - 1]);
  }
  const ysSorted = Float64Array.from(ys).sort();
  let sumX = 0;
  let sumY = 0;
  for (let p = 0; p < n; p++) {
    const r = radius[p];
    const nx = countWithin(xs, xs[p], r) - 1;
    const ny = countWithin(ysSorted, ys[p], r) - 1;
    sumX += digamma(nx + 1);
    sumY += digamma(ny + 1);
  }
  return Math.max(0, digamma(n) + digamma(neighbours) - (sumX + sumY) / n);
}
