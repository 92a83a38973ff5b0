/**
 * From neighbours to predictions, as scikit-learn's KNeighborsClassifier /
 * Regressor: uniform weights count each neighbour once; "distance" weights by
 * 1/distance, except that when some neighbours are at distance 0 they alone
 * vote, with weight 1 each. Probabilities are the normalised votes; the label is
 * the class with the largest vote, ties to the lowest class index (scikit-learn's
 * mode and weighted_mode also return the smallest label).
 */
import type { KnnResult } from "../../data/neighbors/index.js";

/** Fills w (length k) with query q's neighbour weights. */
function neighbourWeights(distances: Float64Array, q: number, k: number, byDistance: boolean, w: Float64Array): void {
  const off = q * k;
  if (!byDistance) {
    w.fill(1);
    return;
  }
  let zero = false;
  for (let i = 0; i < k; i++) if (distances[off + i] === 0) zero = true;
  for (let i = 0; i < k; i++) {
    const dist = distances[off + i];
    w[i] = zero ? (dist === 0 ? 1 : 0) : 1 / dist;
  }
}

export function classify(result: KnnResult, m: number, k: number, y: Int32Array, classes: number, byDistance: boolean): { labels: Int32Array; proba: Float64Array } {
  const labels = new Int32Array(m);
  const proba = new Float64Array(m * classes);
  const w = new Float64Array(k);
  for (let q = 0; q < m; q++) {
    neighbourWeights(result.distances, q, k, byDistance, w);
    const off = q * classes;
    let total = 0;
    for (let i = 0; i < k; i++) {
      proba[off + y[result.indices[q * k + i]]] += w[i];
      total += w[i];
    }
    let best = 0;
    for (let c = 0; c < classes; c++) {
      if (proba[off + c] > proba[off + best]) best = c;
    }
    for (let c = 0; c < classes; c++) proba[off + c] /= total;
    labels[q] = best;
  }
  return { labels, proba };
}

export function regress(result: KnnResult, m: number, k: number, y: Float64Array, byDistance: boolean): Float64Array {
  const out = new Float64Array(m);
  const w = new Float64Array(k);
  for (let q = 0; q < m; q++) {
    neighbourWeights(result.distances, q, k, byDistance, w);
    let sum = 0;
    let total = 0;
    for (let i = 0; i < k; i++) {
      sum += w[i] * y[result.indices[q * k + i]];
      total += w[i];
    }
    out[q] = sum / total;
  }
  return out;
}
