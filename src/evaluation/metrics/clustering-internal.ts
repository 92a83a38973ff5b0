/**
 * Internal clustering indices (seed 002 "性能度量 → 内部指标"), from the points and
 * their cluster labels only, with Euclidean distance. X is row-major n × nFeatures.
 * Each needs at least 2 clusters and fewer clusters than points (scikit-learn raises
 * there); such input gives null. All three cost O(n² · nFeatures).
 */
import { permutation, type Rng } from "../../data/random.js";
import { checkSameLength, finiteOrNull, type MetricValue } from "../wire.js";

export interface Points {
  /** Row-major n × nFeatures. */
  readonly X: ArrayLike<number>;
  readonly nFeatures: number;
}

interface Encoded {
  codes: Int32Array;
  sizes: Float64Array;
  k: number;
}

/**
 * Mean silhouette coefficient, as scikit-learn's silhouette_score: s = (b − a)/max(a, b),
 * a point alone in its cluster scores 0. With `sampleSize`, a seeded random subset of
 * rows is scored (scikit-learn's sample_size), which keeps large sets affordable.
 */
export function silhouetteScore(points: Points, labels: ArrayLike<number>, options: { sampleSize?: number; rng?: Rng } = {}): MetricValue {
  let rows: ArrayLike<number> | null = null;
  if (options.sampleSize !== undefined && options.sampleSize < labels.length) {
    if (!options.rng) throw new Error("silhouetteScore: sampleSize needs an rng");
    rows = permutation(labels.length, options.rng).subarray(0, options.sampleSize);
  }
  const view = rows === null ? { points, labels } : subset(points, labels, rows);
  const enc = encode(view.labels, view.points);
  if (!enc) return null;
  const { X, nFeatures: d } = view.points;
  const n = enc.codes.length;
  const sums = new Float64Array(enc.k);
  let total = 0;
  for (let i = 0; i < n; i++) {
    sums.fill(0);
    for (let j = 0; j < n; j++) if (j !== i) sums[enc.codes[j]] += distance(X, d, i, j);
    const own = enc.codes[i];
    if (enc.sizes[own] <= 1) continue;
    const a = sums[own] / (enc.sizes[own] - 1);
    let b = Infinity;
    for (let c = 0; c < enc.k; c++) if (c !== own) b = Math.min(b, sums[c] / enc.sizes[c]);
    const denominator = Math.max(a, b);
    if (denominator > 0) total += (b - a) / denominator;
  }
  return finiteOrNull(total / n);
}

/**
 * Davies–Bouldin index: mean over clusters of max_j (s_i + s_j) / d(μ_i, μ_j); lower is better.
 * `scatter: "centroid"` (default) takes s as the mean distance to the centroid, the original
 * definition and scikit-learn's; `"pairwise"` takes the seed's avg(C), the mean distance
 * between the cluster's pairs of points (0 for a single point).
 * As scikit-learn, 0 when every scatter or every centroid distance is ≈ 0 (≤ 1e-8).
 */
export function daviesBouldinScore(points: Points, labels: ArrayLike<number>, options: { scatter?: "centroid" | "pairwise" } = {}): MetricValue {
  const enc = encode(labels, points);
  if (!enc) return null;
  const d = points.nFeatures;
  const centroids = clusterCentroids(points, enc);
  const scatter = options.scatter === "pairwise" ? pairwiseScatter(points, enc) : centroidScatter(points, enc, centroids);
  const k = enc.k;
  const centroidDistance = new Float64Array(k * k);
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) centroidDistance[i * k + j] = distance(centroids, d, i, j);
  const nearZero = (a: Float64Array) => a.every((v) => Math.abs(v) <= 1e-8);
  if (nearZero(scatter) || nearZero(centroidDistance)) return 0;
  let total = 0;
  for (let i = 0; i < k; i++) {
    let worst = 0;
    for (let j = 0; j < k; j++) {
      const dist = centroidDistance[i * k + j];
      if (j !== i && dist !== 0) worst = Math.max(worst, (scatter[i] + scatter[j]) / dist);
    }
    total += worst;
  }
  return finiteOrNull(total / k);
}

/**
 * Dunn index as the seed defines it: min over cluster pairs of d_min(C_i, C_j) (closest
 * points) divided by the largest diam(C) (farthest pair within a cluster); higher is better.
 * null when every cluster has diameter 0 (the ratio is infinite).
 */
export function dunnIndex(points: Points, labels: ArrayLike<number>): MetricValue {
  const enc = encode(labels, points);
  if (!enc) return null;
  const { X, nFeatures: d } = points;
  const n = enc.codes.length;
  let minBetween = Infinity;
  let maxDiameter = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dist = distance(X, d, i, j);
      if (enc.codes[i] === enc.codes[j]) maxDiameter = Math.max(maxDiameter, dist);
      else minBetween = Math.min(minBetween, dist);
    }
  }
  return maxDiameter === 0 ? null : finiteOrNull(minBetween / maxDiameter);
}

/**
 * Calinski–Harabasz index (variance ratio criterion), as scikit-learn's
 * calinski_harabasz_score: [B / (k − 1)] / [W / (n − k)] with B the between-cluster and W
 * the within-cluster sum of squares; higher is better. 1 when W is 0 (scikit-learn's rule).
 */
export function calinskiHarabaszScore(points: Points, labels: ArrayLike<number>): MetricValue {
  const enc = encode(labels, points);
  if (!enc) return null;
  const { X, nFeatures: d } = points;
  const n = enc.codes.length;
  const centroids = clusterCentroids(points, enc);
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let f = 0; f < d; f++) mean[f] += X[i * d + f] / n;
  let between = 0;
  for (let k = 0; k < enc.k; k++) {
    let s = 0;
    for (let f = 0; f < d; f++) s += (centroids[k * d + f] - mean[f]) ** 2;
    between += enc.sizes[k] * s;
  }
  const within = withinSumOfSquares(X, d, enc.codes, centroids);
  return within === 0 ? 1 : finiteOrNull((between * (n - enc.k)) / (within * (enc.k - 1)));
}

/**
 * Sum of squared distances from each point to its cluster's mean (k-means' objective,
 * the seed's E). Rows labelled −1 (noise) belong to no cluster and are left out.
 */
export function sumOfSquaredErrors(points: Points, labels: ArrayLike<number>): MetricValue {
  const n = labels.length;
  checkSameLength("X", n * points.nFeatures, points.X);
  const kept: number[] = [];
  for (let i = 0; i < n; i++) if (labels[i] !== -1) kept.push(i);
  if (kept.length === 0) return null;
  const d = points.nFeatures;
  const X = new Float64Array(kept.length * d);
  kept.forEach((row, i) => {
    for (let f = 0; f < d; f++) X[i * d + f] = points.X[row * d + f];
  });
  const map = new Map<number, number>();
  const codes = Int32Array.from(kept, (row) => {
    let c = map.get(labels[row]);
    if (c === undefined) map.set(labels[row], (c = map.size));
    return c;
  });
  const sizes = new Float64Array(map.size);
  for (const c of codes) sizes[c]++;
  const centroids = clusterCentroids({ X, nFeatures: d }, { codes, sizes, k: map.size });
  return finiteOrNull(withinSumOfSquares(X, d, codes, centroids));
}

function withinSumOfSquares(X: ArrayLike<number>, d: number, codes: Int32Array, centroids: Float64Array): number {
  let within = 0;
  for (let i = 0; i < codes.length; i++) {
    const base = codes[i] * d;
    for (let f = 0; f < d; f++) within += (X[i * d + f] - centroids[base + f]) ** 2;
  }
  return within;
}

function encode(labels: ArrayLike<number>, points: Points): Encoded | null {
  const n = labels.length;
  checkSameLength("X", n * points.nFeatures, points.X);
  const map = new Map<number, number>();
  const codes = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let c = map.get(labels[i]);
    if (c === undefined) {
      c = map.size;
      map.set(labels[i], c);
    }
    codes[i] = c;
  }
  const k = map.size;
  if (k < 2 || k > n - 1) return null;
  const sizes = new Float64Array(k);
  for (let i = 0; i < n; i++) sizes[codes[i]]++;
  return { codes, sizes, k };
}

function clusterCentroids(points: Points, enc: Encoded): Float64Array {
  const d = points.nFeatures;
  const c = new Float64Array(enc.k * d);
  for (let i = 0; i < enc.codes.length; i++) {
    const base = enc.codes[i] * d;
    for (let f = 0; f < d; f++) c[base + f] += points.X[i * d + f];
  }
  for (let k = 0; k < enc.k; k++) for (let f = 0; f < d; f++) c[k * d + f] /= enc.sizes[k];
  return c;
}

function centroidScatter(points: Points, enc: Encoded, centroids: Float64Array): Float64Array {
  const d = points.nFeatures;
  const s = new Float64Array(enc.k);
  for (let i = 0; i < enc.codes.length; i++) {
    const c = enc.codes[i];
    let sq = 0;
    for (let f = 0; f < d; f++) {
      const diff = points.X[i * d + f] - centroids[c * d + f];
      sq += diff * diff;
    }
    s[c] += Math.sqrt(sq);
  }
  for (let k = 0; k < enc.k; k++) s[k] /= enc.sizes[k];
  return s;
}

function pairwiseScatter(points: Points, enc: Encoded): Float64Array {
  const s = new Float64Array(enc.k);
  const n = enc.codes.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) if (enc.codes[i] === enc.codes[j]) s[enc.codes[i]] += distance(points.X, points.nFeatures, i, j);
  }
  for (let k = 0; k < enc.k; k++) {
    const m = enc.sizes[k];
    s[k] = m > 1 ? s[k] / ((m * (m - 1)) / 2) : 0;
  }
  return s;
}

function subset(points: Points, labels: ArrayLike<number>, rows: ArrayLike<number>): { points: Points; labels: Int32Array | Float64Array } {
  const d = points.nFeatures;
  const X = new Float64Array(rows.length * d);
  const sub = new Float64Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const i = rows[r];
    sub[r] = labels[i];
    for (let f = 0; f < d; f++) X[r * d + f] = points.X[i * d + f];
  }
  return { points: { X, nFeatures: d }, labels: sub };
}

function distance(X: ArrayLike<number>, d: number, i: number, j: number): number {
  let sq = 0;
  const a = i * d;
  const b = j * d;
  for (let f = 0; f < d; f++) {
    const diff = X[a + f] - X[b + f];
    sq += diff * diff;
  }
  return Math.sqrt(sq);
}
