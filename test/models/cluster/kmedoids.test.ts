/** kmedoids (PAM): the result is a local optimum no single swap improves; BUILD's first medoid; blobs; round trip. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createRng } from "../../../src/data/random.js";
import { kmedoids, kmedoidsParams } from "../../../src/models/cluster/kmedoids.js";
import { build, distanceMatrix, pam } from "../../../src/models/cluster/pam.js";
import { rowMajor } from "../../../src/models/design-matrix.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { blobs, ctx, frameOf, partition, watermelon4 } from "./helpers.js";

function costOf(D: Float64Array, n: number, medoids: number[]): number {
  let s = 0;
  for (let j = 0; j < n; j++) s += Math.min(...medoids.map((m) => D[j * n + m]));
  return s;
}

test("PAM ends where no exchange of a medoid for another row lowers the total distance (brute force)", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 1, max: 5 }), (seed, k) => {
      const rng = createRng(seed);
      const n = 25;
      const X = Float64Array.from({ length: n * 2 }, () => rng.normal());
      const D = distanceMatrix(X, n, 2);
      const r = pam(D, n, k, 1000);
      const medoids = Array.from(r.medoids);
      assert.ok(Math.abs(r.cost - costOf(D, n, medoids)) < 1e-9);
      for (let c = 0; c < k; c++) {
        for (let h = 0; h < n; h++) {
          if (medoids.includes(h)) continue;
          const swapped = medoids.map((m, i) => (i === c ? h : m));
          assert.ok(costOf(D, n, swapped) >= r.cost - 1e-9, `swap ${c} ↔ ${h} improves`);
        }
      }
      // Labels: each row's nearest medoid.
      for (let j = 0; j < n; j++) assert.equal(D[j * n + medoids[r.labels[j]]], Math.min(...medoids.map((m) => D[j * n + m])));
    }),
    { numRuns: 40, seed: 3 },
  );
});

test("BUILD starts at the row with the smallest total distance (watermelon 4.0)", () => {
  const M = rowMajor(watermelon4());
  const D = distanceMatrix(M, 30, 2);
  const totals = Array.from({ length: 30 }, (_, h) => Array.from({ length: 30 }, (_, j) => D[j * 30 + h]).reduce((a, b) => a + b, 0));
  assert.equal(build(D, 30, 3)[0], totals.indexOf(Math.min(...totals)));
});

test("blobs: recovered; deterministic; predict = training labels; state round trip", () => {
  const { X, truth } = blobs(300, 3, 4, 17);
  const F = frameOf(X, 300, 3);
  const s = kmedoids.fit({ X: F, target: null }, kmedoidsParams.parse({ n_clusters: 4 }), ctx(1));
  assert.deepEqual(partition(s.labels), partition(truth));
  assert.deepEqual(kmedoids.fit({ X: F, target: null }, kmedoidsParams.parse({ n_clusters: 4 }), ctx(2)), s);
  assert.deepEqual(kmedoids.predict(s, F), { task: "clustering", labels: s.labels });
  s.medoid_rows.forEach((r, c) => assert.equal(s.labels[r], c));
  const loaded = kmedoids.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s)))));
  assert.deepEqual(loaded, s);
});
