/**
 * Radius queries for DBSCAN: the rows within eps (under a vector metric, inclusive, as scikit-learn's
 * radius_neighbors) of a point. `indexedRadius` answers them from the shared neighbour
 * index (src/data/neighbors/: a kd-tree up to 15 dimensions, blocked brute force above, as
 * scikit-learn's "auto"); `bruteForceRadius` is the plain Euclidean scan, kept as the reference.
 */
import { buildIndex, euclidean, type RowMetric } from "../../data/neighbors/index.js";
export interface RadiusIndex {
  /** Rows within eps of `point` (length d), in increasing row order, written into `out` (length ≥ rows); returns their count. */
  query(point: Float64Array, out: Int32Array): number;
}

export function bruteForceRadius(X: Float64Array, n: number, d: number, eps: number): RadiusIndex {
  const eps2 = eps * eps;
  return {
    query(point, out) {
      let count = 0;
      for (let i = 0; i < n; i++) {
        let s = 0;
        const off = i * d;
        for (let j = 0; j < d && s <= eps2; j++) {
          const t = X[off + j] - point[j];
          s += t * t;
        }
        if (s <= eps2) out[count++] = i;
      }
      return count;
    },
  };
}

export function indexedRadius(X: Float64Array, n: number, d: number, eps: number, metric: RowMetric = euclidean): RadiusIndex {
  const index = buildIndex(X, n, d, { algorithm: "auto", leafSize: 30, metric });
  return {
    query(point, out) {
      const found = index.radius(point, 1, eps);
      const count = found.offsets[1] - found.offsets[0];
      out.set(found.indices.subarray(found.offsets[0], found.offsets[1]));
      // The index lists by distance; DBSCAN's contract here is row order.
      out.subarray(0, count).sort();
      return count;
    },
  };
}
