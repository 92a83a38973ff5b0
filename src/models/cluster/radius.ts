/**
 * Radius queries for DBSCAN: the rows within eps (Euclidean, inclusive, as scikit-learn's
 * radius_neighbors) of a point. Brute force behind this small interface so that the shared
 * kd/ball-tree index (src/data/neighbors/, planned for knn, DBSCAN, OPTICS, SMOTE) can
 * replace it without touching the clustering code.
 */
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
