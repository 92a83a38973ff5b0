/**
 * The neighbour index: k-nearest and radius queries over the rows of a row-major
 * Float64Array, by kd-tree, ball tree or blocked brute force. Pure and built once
 * per dataset; kNN, DBSCAN, OPTICS, SMOTE and Relief all query it.
 *
 * Tie rule (every algorithm): neighbours are ordered by distance, then by row
 * index, and the k nearest are the first k in that order — of two rows at the
 * same distance the lower index is the neighbour. (Euclidean brute force measures
 * candidates by the norm expansion first, see brute.ts: rows within rounding of
 * each other at the k-th place may be chosen differently than by a tree.)
 *
 * `auto` follows scikit-learn: brute force above 15 dimensions, or for a metric the
 * trees cannot bound (vdm, hvdm: brute force only), otherwise the kd-tree.
 */
import { bruteKnn, bruteRadius, euclideanRadius, prepareEuclidean, type EuclideanRows } from "./brute.js";
import { NeighborHeap } from "./heap.js";
import { euclidean, type RowMetric } from "./metric.js";
import { buildTree, treeKnn, treeRadius, type BinaryTree } from "./tree.js";

/** Queries per block of a Euclidean brute-force radius search (bounds the per-block hit lists). */
const RADIUS_BLOCK = 256;

export type NeighborAlgorithm = "auto" | "kd_tree" | "ball_tree" | "brute";

/** Above this many dimensions `auto` uses brute force (scikit-learn's threshold). */
export const AUTO_BRUTE_DIMENSIONS = 15;

export interface IndexOptions {
  readonly algorithm: NeighborAlgorithm;
  readonly leafSize: number;
  readonly metric: RowMetric;
}

export interface KnnResult {
  /** m × k, row-major, ascending per query. */
  readonly distances: Float64Array;
  /** m × k row indices into the indexed data. */
  readonly indices: Int32Array;
}

/** Compressed rows: query q's neighbours are entries offsets[q] .. offsets[q + 1] − 1, ascending by (distance, index). */
export interface RadiusResult {
  readonly offsets: Int32Array;
  readonly indices: Int32Array;
  readonly distances: Float64Array;
}

export interface NeighborIndex {
  readonly n: number;
  readonly d: number;
  readonly metric: RowMetric;
  /** The algorithm `auto` resolved to. */
  readonly algorithm: Exclude<NeighborAlgorithm, "auto">;
  /** The k nearest rows (1 ≤ k ≤ n) of each of the m query rows of Q. */
  kneighbors(Q: Float64Array, m: number, k: number): KnnResult;
  /** Every row within distance r (inclusive) of each query. */
  radius(Q: Float64Array, m: number, r: number): RadiusResult;
  /** The same rows as `radius`, per query in increasing row order, without their distances (what DBSCAN needs: no sort by distance). */
  radiusRows(Q: Float64Array, m: number, r: number): Omit<RadiusResult, "distances">;
}

export function resolveAlgorithm(algorithm: NeighborAlgorithm, d: number, metric: RowMetric): Exclude<NeighborAlgorithm, "auto"> {
  if (metric.p === null) {
    if (algorithm === "kd_tree" || algorithm === "ball_tree") throw new RangeError(`${algorithm} cannot bound the ${metric.name} metric; use brute (or auto)`);
    return "brute";
  }
  if (algorithm !== "auto") return algorithm;
  return d > AUTO_BRUTE_DIMENSIONS ? "brute" : "kd_tree";
}

export function buildIndex(data: Float64Array, n: number, d: number, options: IndexOptions): NeighborIndex {
  if (data.length !== n * d) throw new RangeError(`data has ${data.length} values, not ${n} × ${d}`);
  const metric = options.metric;
  const algorithm = resolveAlgorithm(options.algorithm, d, metric);
  const tree: BinaryTree | null = algorithm === "brute" || n === 0 ? null : buildTree(algorithm, data, n, d, options.leafSize, metric);
  let prepared: EuclideanRows | null = null;
  const checkQueries = (Q: Float64Array, m: number) => {
    if (Q.length !== m * d) throw new RangeError(`queries have ${Q.length} values, not ${m} × ${d}`);
  };
  return {
    n,
    d,
    metric,
    algorithm,
    kneighbors(Q, m, k) {
      checkQueries(Q, m);
      if (!(Number.isInteger(k) && k >= 1 && k <= n)) throw new RangeError(`k must be an integer in [1, ${n}], got ${k}`);
      const heap = new NeighborHeap(m, k);
      if (tree) {
        for (let q = 0; q < m; q++) treeKnn(tree, Q, q, heap);
      } else {
        if (metric.p === 2 && prepared === null) prepared = prepareEuclidean(data, n, d);
        bruteKnn(data, n, d, metric, prepared, Q, m, heap);
      }
      heap.sort();
      const distances = heap.dist;
      for (let i = 0; i < distances.length; i++) distances[i] = metric.toDistance(distances[i]);
      return { distances, indices: heap.idx };
    },
    radiusRows(Q, m, r) {
      checkQueries(Q, m);
      if (!(r >= 0)) throw new RangeError(`radius must be >= 0, got ${r}`);
      const rr = metric.toReduced(r);
      const offsets = new Int32Array(m + 1);
      let indices = new Int32Array(Math.max(16, m));
      let count = 0;
      const push = (row: number) => {
        if (count === indices.length) {
          const grown = new Int32Array(2 * indices.length);
          grown.set(indices);
          indices = grown;
        }
        indices[count++] = row;
      };
      if (!tree && metric === euclidean) {
        if (prepared === null) prepared = prepareEuclidean(data, n, d);
        // Per query in increasing row order already, but interleaved between the queries of a block.
        for (let q0 = 0; q0 < m; q0 += RADIUS_BLOCK) {
          const q1 = Math.min(m, q0 + RADIUS_BLOCK);
          const blockRows: number[][] = Array.from({ length: q1 - q0 }, () => []);
          euclideanRadius(prepared, Q.subarray(q0 * d, q1 * d), q1 - q0, rr, (q, row) => blockRows[q].push(row));
          for (let q = q0; q < q1; q++) {
            for (const row of blockRows[q - q0]) push(row);
            offsets[q + 1] = count;
          }
        }
      } else {
        for (let q = 0; q < m; q++) {
          if (tree) treeRadius(tree, Q, q, rr, push);
          else bruteRadius(data, n, d, metric, Q, q, rr, push);
          indices.subarray(offsets[q], count).sort();
          offsets[q + 1] = count;
        }
      }
      return { offsets, indices: indices.subarray(0, count) };
    },
    radius(Q, m, r) {
      checkQueries(Q, m);
      if (!(r >= 0)) throw new RangeError(`radius must be >= 0, got ${r}`);
      const rr = metric.toReduced(r);
      const offsets = new Int32Array(m + 1);
      const rows: number[] = [];
      const values: number[] = [];
      let hitRows: number[] = [];
      let hitValues: number[] = [];
      const found = (row: number, v: number) => {
        hitRows.push(row);
        hitValues.push(v);
      };
      const emit = () => {
        const order = hitRows.map((_, i) => i).sort((a, b) => hitValues[a] - hitValues[b] || hitRows[a] - hitRows[b]);
        for (const i of order) {
          rows.push(hitRows[i]);
          values.push(metric.toDistance(hitValues[i]));
        }
      };
      if (!tree && metric === euclidean) {
        // Euclidean brute force answers a block of queries at a time (SIMD filter, exact distances for its candidates).
        if (prepared === null) prepared = prepareEuclidean(data, n, d);
        for (let q0 = 0; q0 < m; q0 += RADIUS_BLOCK) {
          const q1 = Math.min(m, q0 + RADIUS_BLOCK);
          const blockRows: number[][] = Array.from({ length: q1 - q0 }, () => []);
          const blockValues: number[][] = Array.from({ length: q1 - q0 }, () => []);
          euclideanRadius(prepared, Q.subarray(q0 * d, q1 * d), q1 - q0, rr, (q, row, v) => {
            blockRows[q].push(row);
            blockValues[q].push(v);
          });
          for (let q = q0; q < q1; q++) {
            hitRows = blockRows[q - q0];
            hitValues = blockValues[q - q0];
            emit();
            offsets[q + 1] = rows.length;
          }
        }
      } else {
        for (let q = 0; q < m; q++) {
          hitRows = [];
          hitValues = [];
          if (tree) treeRadius(tree, Q, q, rr, found);
          else bruteRadius(data, n, d, metric, Q, q, rr, found);
          emit();
          offsets[q + 1] = rows.length;
        }
      }
      return { offsets, indices: Int32Array.from(rows), distances: Float64Array.from(values) };
    },
  };
}

export { NeighborHeap } from "./heap.js";
export * from "./metric.js";
export { nodeCount as nodeCountFor } from "./tree.js";
