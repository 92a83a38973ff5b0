/**
 * The neighbour index: kd-tree, ball tree and brute force agree for any data and
 * any leaf_size, as scikit-learn's test_neighbors_tree.py checks — distances always
 * (to rounding: euclidean brute force measures through the norm expansion first),
 * and for the exact searches the rows too, which the tie rule (distance, then lower
 * row index) makes a function of the data. A direct sort of all distances is the
 * reference.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { buildIndex, chebyshev, euclidean, manhattan, minkowski, nodeCountFor, type NeighborAlgorithm, type RowMetric } from "../../../src/data/neighbors/index.js";

const METRICS: RowMetric[] = [euclidean, manhattan, chebyshev, minkowski(3), minkowski(1.5)];
const ALGORITHMS: Exclude<NeighborAlgorithm, "auto">[] = ["kd_tree", "ball_tree", "brute"];

/** Small integer grids make many exact ties; doubles make none. */
const problem = fc
  .record({
    n: fc.integer({ min: 1, max: 70 }),
    m: fc.integer({ min: 1, max: 8 }),
    d: fc.integer({ min: 1, max: 6 }),
    leafSize: fc.integer({ min: 1, max: 40 }),
    grid: fc.boolean(),
    metric: fc.constantFrom(...METRICS),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  })
  .chain((p) => fc.record({ p: fc.constant(p), k: fc.integer({ min: 1, max: p.n }), r: fc.double({ min: 0, max: 3, noNaN: true }) }));

function data(n: number, d: number, grid: boolean, seed: number): Float64Array {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  return Float64Array.from({ length: n * d }, () => (grid ? Math.floor(next() * 4) : next() * 4 - 2));
}

/** Every row sorted by (distance, row): the definition the index implements. */
function reference(X: Float64Array, n: number, d: number, Q: Float64Array, q: number, metric: RowMetric): { row: number; dist: number }[] {
  return Array.from({ length: n }, (_, row) => ({ row, r: metric.reduced(Q, q, X, row, d) }))
    .sort((a, b) => a.r - b.r || a.row - b.row)
    .map(({ row, r }) => ({ row, dist: metric.toDistance(r) }));
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * (1 + Math.abs(b));
/** The norm expansion picks among near-ties by rounding: only its distances are compared. */
const exact = (algorithm: string, metric: RowMetric) => algorithm !== "brute" || metric !== euclidean;

describe("neighbour index", () => {
  test("k nearest: every algorithm equals the sorted reference for any leaf_size", () => {
    fc.assert(
      fc.property(problem, ({ p, k }) => {
        const X = data(p.n, p.d, p.grid, p.seed);
        const Q = data(p.m, p.d, p.grid, p.seed + 1);
        for (const algorithm of ALGORITHMS) {
          const index = buildIndex(X, p.n, p.d, { algorithm, leafSize: p.leafSize, metric: p.metric });
          const { distances, indices } = index.kneighbors(Q, p.m, k);
          for (let q = 0; q < p.m; q++) {
            const want = reference(X, p.n, p.d, Q, q, p.metric).slice(0, k);
            for (let i = 0; i < k; i++) {
              assert.ok(close(distances[q * k + i], want[i].dist), `${algorithm} ${p.metric.name}: query ${q} neighbour ${i}: ${distances[q * k + i]} vs ${want[i].dist}`);
              if (exact(algorithm, p.metric)) assert.equal(indices[q * k + i], want[i].row, `${algorithm} ${p.metric.name}: query ${q} neighbour ${i}`);
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  test("radius: every algorithm returns the rows within r (inclusive), sorted by (distance, row)", () => {
    fc.assert(
      fc.property(problem, ({ p, r }) => {
        const X = data(p.n, p.d, p.grid, p.seed);
        const Q = data(p.m, p.d, p.grid, p.seed + 1);
        for (const algorithm of ALGORITHMS) {
          const index = buildIndex(X, p.n, p.d, { algorithm, leafSize: p.leafSize, metric: p.metric });
          const out = index.radius(Q, p.m, r);
          const rr = p.metric.toReduced(r);
          for (let q = 0; q < p.m; q++) {
            const want = Array.from({ length: p.n }, (_, row) => ({ row, v: p.metric.reduced(Q, q, X, row, p.d) }))
              .filter((e) => e.v <= rr)
              .sort((a, b) => a.v - b.v || a.row - b.row);
            const got = Array.from(out.indices.subarray(out.offsets[q], out.offsets[q + 1]));
            assert.deepEqual(got, want.map((e) => e.row), `${algorithm} ${p.metric.name} r=${r}: query ${q}`);
            want.forEach((e, i) => assert.ok(close(out.distances[out.offsets[q] + i], p.metric.toDistance(e.v))));
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  test("a query that is a training row finds itself first at distance 0 (lowest index among duplicates)", () => {
    const X = Float64Array.from([0, 0, 1, 1, 0, 0, 2, 2]);
    for (const algorithm of ALGORITHMS) {
      const index = buildIndex(X, 4, 2, { algorithm, leafSize: 1, metric: euclidean });
      const { distances, indices } = index.kneighbors(Float64Array.from([0, 0]), 1, 3);
      assert.deepEqual(Array.from(indices), [0, 2, 1], algorithm);
      assert.deepEqual(Array.from(distances), [0, 0, Math.SQRT2], algorithm);
    }
  });

  test("node count follows leaf_size first (scikit-learn's formula), all leaves on the last level", () => {
    assert.equal(nodeCountFor(1, 30), 1);
    assert.equal(nodeCountFor(30, 30), 1);
    assert.equal(nodeCountFor(61, 30), 3);
    assert.equal(nodeCountFor(75_000, 30), 4095);
    assert.equal(nodeCountFor(100, 1), 127);
  });

  test("auto: kd-tree up to 15 dimensions, brute force above; trees refuse a metric they cannot bound", () => {
    assert.equal(buildIndex(new Float64Array(15), 1, 15, { algorithm: "auto", leafSize: 30, metric: euclidean }).algorithm, "kd_tree");
    assert.equal(buildIndex(new Float64Array(16), 1, 16, { algorithm: "auto", leafSize: 30, metric: euclidean }).algorithm, "brute");
    const opaque: RowMetric = { ...euclidean, name: "opaque", p: null };
    assert.equal(buildIndex(new Float64Array(2), 1, 2, { algorithm: "auto", leafSize: 30, metric: opaque }).algorithm, "brute");
    assert.throws(() => buildIndex(new Float64Array(2), 1, 2, { algorithm: "kd_tree", leafSize: 30, metric: opaque }), /cannot bound/);
  });
});
