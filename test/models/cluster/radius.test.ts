/** DBSCAN's radius queries from the shared neighbour index equal the plain scan, row for row. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
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
