/**
 * The bounded Lloyd (Elkan's n × k bounds, or Hamerly's n for large n·k) makes exactly
 * the assignments of plain Lloyd: compared with a direct transcription of scikit-learn's loop
 * (full assignment every iteration) on random data, overlapping and separated, many k.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createRng } from "../../../src/data/random.js";
import { absoluteTolerance, assign, centresAtRows, lloyd, randomRows, updateCentres } from "../../../src/models/cluster/kmeans-engine.js";

function plainLloyd(X: Float64Array, n: number, d: number, init: Float64Array, k: number, maxIter: number, tol: number) {
  let C = Float64Array.from(init);
  let next = new Float64Array(k * d);
  const labels = new Int32Array(n);
  const old = new Int32Array(n).fill(-1);
  const dist = new Float64Array(n);
  const counts = new Float64Array(k);
  let strict = false;
  let it = 0;
  for (; it < maxIter; it++) {
    assign(X, n, d, C, k, labels, dist);
    const shift = updateCentres(X, n, d, labels, () => dist, C, k, next, counts);
    [C, next] = [next, C];
    if (labels.every((l, i) => l === old[i])) {
      strict = true;
      break;
    }
    if (shift <= tol) break;
    old.set(labels);
  }
  if (!strict) assign(X, n, d, C, k, labels, dist);
  return { centres: C, labels, nIter: Math.min(it + 1, maxIter) };
}

test("bounded Lloyd = plain Lloyd (labels, centres, iterations) on random data, with and without exact ties", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 6 }), fc.double({ min: 0.1, max: 10, noNaN: true }), fc.boolean(), (seed, k, d, spread, grid) => {
      const rng = createRng(seed);
      const n = 200;
      const mu = Float64Array.from({ length: 5 * d }, () => rng.normal() * spread);
      const X = Float64Array.from({ length: n * d }, (_, t) => mu[(Math.floor(t / d) % 5) * d + (t % d)] + rng.normal());
      // On a coarse integer grid many rows coincide and many distances tie exactly.
      if (grid) X.forEach((v, t) => (X[t] = Math.round(v)));
      const init = centresAtRows(X, d, randomRows(n, k, rng));
      const tol = absoluteTolerance(X, n, d, 1e-4);
      for (const maxIter of [1, 3, 300]) {
        const b = plainLloyd(X, n, d, init, k, maxIter, tol);
        for (const bounds of ["elkan", "hamerly"] as const) {
          const a = lloyd(X, n, d, init, k, { maxIter, tol, bounds });
          assert.deepEqual(a.labels, b.labels, bounds);
          assert.equal(a.nIter, b.nIter, bounds);
          a.centres.forEach((v, i) => assert.ok(Math.abs(v - b.centres[i]) <= 1e-12 * (1 + Math.abs(v)), bounds));
        }
      }
    }),
    { numRuns: 60, seed: 7 },
  );
});
