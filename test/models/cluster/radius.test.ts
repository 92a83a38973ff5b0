/** DBSCAN's radius queries from the shared neighbour index equal the plain scan, row for row. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { buildIndex, euclidean } from "../../../src/data/neighbors/index.js";
import { bruteForceRadius, indexedRadius } from "../../../src/models/cluster/radius.js";

test("indexedRadius = bruteForceRadius for any points, dimension and eps (ties on the boundary included)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 1, max: 80 }),
      fc.array(fc.integer({ min: -4, max: 4 }), { minLength: 1600, maxLength: 1600 }),
      fc.integer({ min: 1, max: 6 }),
      (d, n, grid, epsSteps) => {
        // Integer coordinates put many rows exactly at distance eps: the inclusive boundary is tested.
        const X = Float64Array.from({ length: n * d }, (_, i) => grid[i % grid.length] / 2);
        const eps = epsSteps / 2;
        const a = indexedRadius(X, n, d, eps);
        const b = bruteForceRadius(X, n, d, eps);
        const outA = new Int32Array(n);
        const outB = new Int32Array(n);
        for (let i = 0; i < n; i++) {
          const q = X.subarray(i * d, i * d + d);
          const ca = a.query(q, outA);
          const cb = b.query(q, outB);
          assert.deepEqual(Array.from(outA.subarray(0, ca)), Array.from(outB.subarray(0, cb)), `row ${i}`);
        }
      },
    ),
    { numRuns: 60 },
  );
});

test("blocked Euclidean brute-force radius (above 15 dimensions) = the plain scan across query and row blocks, boundary ties included", () => {
  // 1,500 rows cross a 1,024-row block and 300 queries a 256-query block; half-integer coordinates put rows exactly at eps.
  const d = 20;
  const n = 1500;
  let s = 7;
  const X = Float64Array.from({ length: n * d }, () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return ((s >> 8) % 5) / 2 - 1;
  });
  let total = 0;
  for (const eps of [3.5, 4, 4.5]) {
    const index = buildIndex(X, n, d, { algorithm: "auto", leafSize: 30, metric: euclidean });
    const found = index.radius(X.subarray(0, 300 * d), 300, eps);
    const rowsOnly = index.radiusRows(X.subarray(0, 300 * d), 300, eps);
    const b = bruteForceRadius(X, n, d, eps);
    const out = new Int32Array(n);
    for (let q = 0; q < 300; q++) {
      const cb = b.query(X.subarray(q * d, q * d + d), out);
      total += cb;
      assert.deepEqual(Array.from(found.indices.subarray(found.offsets[q], found.offsets[q + 1])).sort((x, y) => x - y), Array.from(out.subarray(0, cb)), `eps ${eps}, query ${q}`);
      assert.deepEqual(Array.from(rowsOnly.indices.subarray(rowsOnly.offsets[q], rowsOnly.offsets[q + 1])), Array.from(out.subarray(0, cb)), `radiusRows, eps ${eps}, query ${q}`);
    }
  }
  assert.ok(total > 3 * 300 * 2, "the radii find neighbours beyond the rows themselves");
});

test("radiusRows = the plain scan in row order, kd-tree and ball tree (3 dimensions, boundary ties)", () => {
  const d = 3;
  const n = 600;
  const X = Float64Array.from({ length: n * d }, (_, i) => ((i * 7919) % 9) / 2 - 2);
  for (const algorithm of ["kd_tree", "ball_tree", "brute"] as const) {
    const index = buildIndex(X, n, d, { algorithm, leafSize: 10, metric: euclidean });
    const found = index.radiusRows(X, n, 1.5);
    const b = bruteForceRadius(X, n, d, 1.5);
    const out = new Int32Array(n);
    for (let q = 0; q < n; q++) {
      const cb = b.query(X.subarray(q * d, q * d + d), out);
      assert.deepEqual(Array.from(found.indices.subarray(found.offsets[q], found.offsets[q + 1])), Array.from(out.subarray(0, cb)), `${algorithm}, query ${q}`);
    }
  }
});
