/** bisecting_kmeans: blobs are recovered, each split lowers the SSE of the cluster split, numbering, determinism, round trip. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { bisectingKmeans, bisectingKmeansParams } from "../../../src/models/cluster/bisecting-kmeans.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { blobs, ctx, frameOf, partition, watermelon4 } from "./helpers.js";

test("well-separated blobs: the partition is recovered, state round trip, same seed → same model", () => {
  const { X, truth } = blobs(500, 3, 4, 9);
  const F = frameOf(X, 500, 3);
  const params = bisectingKmeansParams.parse({ n_clusters: 4, n_init: 3 });
  const s = bisectingKmeans.fit({ X: F, target: null }, params, ctx(2));
  assert.deepEqual(partition(s.labels), partition(truth));
  assert.deepEqual(bisectingKmeans.fit({ X: F, target: null }, params, ctx(2)), s);
  const loaded = bisectingKmeans.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s)))));
  assert.deepEqual(bisectingKmeans.predict(loaded, F), bisectingKmeans.predict(s, F));
  // On separated blobs the nearest centre is the cluster the splits gave.
  assert.deepEqual(bisectingKmeans.predict(s, F), { task: "clustering", labels: s.labels });
});

test("watermelon 4.0: each further split lowers the total SSE; k splits give k clusters of the rows", () => {
  const X = watermelon4();
  let last = Infinity;
  for (const k of [1, 2, 3, 4, 5]) {
    const s = bisectingKmeans.fit({ X, target: null }, bisectingKmeansParams.parse({ n_clusters: k, n_init: 5 }), ctx(4));
    assert.equal(partition(s.labels).length, k);
    assert.equal(s.sizes.reduce((a, b) => a + b, 0), 30);
    assert.ok(s.inertia < last, `${k}: ${s.inertia} after ${last}`);
    last = s.inertia;
    // Numbering: the first split keeps 0 for one half, the other half is 1, and so on: every index below k is used.
    assert.deepEqual([...new Set(s.labels)].sort(), Array.from({ length: k }, (_, i) => i));
  }
});

test("the second split takes the cluster with the most rows (largest_cluster) or the largest SSE (biggest_inertia)", () => {
  const X = watermelon4();
  for (const strategy of ["largest_cluster", "biggest_inertia"] as const) {
    const fit = (k: number) => bisectingKmeans.fit({ X, target: null }, bisectingKmeansParams.parse({ n_clusters: k, bisecting_strategy: strategy }), ctx(4));
    const two = fit(2);
    const three = fit(3);
    // The same seed makes the same first split; the cluster not chosen second survives unchanged.
    const sse = [0, 1].map((c) => {
      let t = 0;
      two.labels.forEach((l, i) => {
        if (l !== c) return;
        const row = [0, 1].map((j) => (X.columns[j] as { values: Float64Array }).values[i]);
        t += (row[0] - two.centres[2 * c]) ** 2 + (row[1] - two.centres[2 * c + 1]) ** 2;
      });
      return t;
    });
    const split = strategy === "largest_cluster" ? (two.sizes[1] > two.sizes[0] ? 1 : 0) : sse[1] > sse[0] ? 1 : 0;
    const kept = partition(two.labels).find((g) => two.labels[g[0]] === 1 - split)!;
    assert.ok(partition(three.labels).some((g) => JSON.stringify(g) === JSON.stringify(kept)), strategy);
  }
});
