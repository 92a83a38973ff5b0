/**
 * The similarity graphs of graph-based semi-supervised learning (seed 002 半监督学习 →
 * 图半监督学习), as scikit-learn's LabelPropagation / LabelSpreading build them:
 *
 * - `rbf`: dense W_ij = exp(−γ‖x_i − x_j‖²), every pair; O(n²) memory, so the row count is capped.
 * - `knn`: sparse, row i has a 1 for each of its k nearest training rows (itself included,
 *   as scikit-learn's kneighbors_graph of the training rows on themselves); O(n·k) memory.
 *
 * A graph is kept as rows of (column, weight) pairs (CSR), dense or not, so both
 * algorithms run one sparse product per iteration.
 */
import { throwIfAborted, type AbortFlag } from "../contract.js";

export interface Graph {
  readonly n: number;
  /** Row i's entries are cols/weights[start[i] .. start[i + 1]). */
  readonly start: Int32Array;
  readonly cols: Int32Array;
  readonly weights: Float64Array;
}

export type Kernel = { readonly kind: "rbf"; readonly gamma: number } | { readonly kind: "knn"; readonly n_neighbors: number };

function squaredDistance(A: Float64Array, i: number, B: Float64Array, j: number, d: number): number {
  let s = 0;
  for (let f = 0; f < d; f++) {
    const t = A[i * d + f] - B[j * d + f];
    s += t * t;
  }
  return s;
}

/**
 * Weights between `m` query rows Q and the `n` training rows X (row-major, d features).
 * For the training graph Q is X itself.
 */
export function affinity(Q: Float64Array, m: number, X: Float64Array, n: number, d: number, kernel: Kernel, signal?: AbortFlag): Graph {
  if (kernel.kind === "rbf") {
    const start = Int32Array.from({ length: m + 1 }, (_, i) => i * n);
    const cols = new Int32Array(m * n);
    const weights = new Float64Array(m * n);
    for (let i = 0; i < m; i++) {
      if ((i & 255) === 0) throwIfAborted(signal);
      for (let j = 0; j < n; j++) {
        cols[i * n + j] = j;
        weights[i * n + j] = Math.exp(-kernel.gamma * squaredDistance(Q, i, X, j, d));
      }
    }
    return { n: m, start, cols, weights };
  }
  const k = Math.min(kernel.n_neighbors, n);
  const start = Int32Array.from({ length: m + 1 }, (_, i) => i * k);
  const cols = new Int32Array(m * k);
  const weights = new Float64Array(m * k).fill(1);
  const best = new Float64Array(k);
  const bestIndex = new Int32Array(k);
  for (let i = 0; i < m; i++) {
    if ((i & 255) === 0) throwIfAborted(signal);
    // Insertion into a sorted list of the k nearest; ties keep the lower row index (it came first).
    let filled = 0;
    for (let j = 0; j < n; j++) {
      const dist = squaredDistance(Q, i, X, j, d);
      if (filled === k && dist >= best[k - 1]) continue;
      let p = filled < k ? filled++ : k - 1;
      while (p > 0 && best[p - 1] > dist) {
        best[p] = best[p - 1];
        bestIndex[p] = bestIndex[p - 1];
        p--;
      }
      best[p] = dist;
      bestIndex[p] = j;
    }
    cols.set(bestIndex, i * k);
  }
  return { n: m, start, cols, weights };
}

/** out = G · F, F row-major n × c. */
export function multiply(G: Graph, F: Float64Array, c: number, out: Float64Array): void {
  const { start, cols, weights } = G;
  // A row's sums in a small scratch array, written once: the hot loop then reads F and the weights only.
  const acc = new Float64Array(c);
  for (let i = 0; i < G.n; i++) {
    acc.fill(0);
    const end = start[i + 1];
    for (let e = start[i]; e < end; e++) {
      const w = weights[e];
      if (w === 0) continue; // rbf weights underflow to 0 far from a row
      const j = cols[e] * c;
      for (let k = 0; k < c; k++) acc[k] += w * F[j + k];
    }
    out.set(acc, i * c);
  }
}

/** Divides each row by its sum (rows summing to 0 are left as they are). */
export function normaliseRows(F: Float64Array, c: number): void {
  for (let i = 0; i < F.length; i += c) {
    let s = 0;
    for (let k = 0; k < c; k++) s += F[i + k];
    if (s !== 0) for (let k = 0; k < c; k++) F[i + k] /= s;
  }
}

/**
 * LabelPropagation's transition matrix: W with each row i divided by the sum of column i
 * (scikit-learn's normaliser; for the symmetric rbf graph that is row i's own sum).
 */
export function propagationMatrix(W: Graph): Graph {
  const colSums = new Float64Array(W.n);
  for (let e = 0; e < W.cols.length; e++) colSums[W.cols[e]] += W.weights[e];
  const weights = Float64Array.from(W.weights);
  for (let i = 0; i < W.n; i++) {
    const s = colSums[i];
    if (s !== 0) for (let e = W.start[i]; e < W.start[i + 1]; e++) weights[e] /= s;
  }
  return { ...W, weights };
}

/**
 * LabelSpreading's S = D^−½ W D^−½ with a zero diagonal (scikit-learn: minus the normalised
 * Laplacian, diagonal cleared). D is the degree without the self-loop, as csgraph.laplacian
 * counts it; for a non-symmetric kNN graph the degree is the column sum, as there.
 */
export function spreadingMatrix(W: Graph): Graph {
  const degree = new Float64Array(W.n);
  for (let i = 0; i < W.n; i++) {
    for (let e = W.start[i]; e < W.start[i + 1]; e++) if (W.cols[e] !== i) degree[W.cols[e]] += W.weights[e];
  }
  const root = Float64Array.from(degree, (v) => (v > 0 ? Math.sqrt(v) : 1));
  const weights = new Float64Array(W.weights.length);
  for (let i = 0; i < W.n; i++) {
    for (let e = W.start[i]; e < W.start[i + 1]; e++) {
      const j = W.cols[e];
      weights[e] = j === i ? 0 : W.weights[e] / (root[i] * root[j]);
    }
  }
  return { ...W, weights };
}
