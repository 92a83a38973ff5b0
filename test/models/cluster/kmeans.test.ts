/** kmeans: SEEDS.md's watermelon 4.0 example (k = 3, initial centres rows 6, 12, 27), restarts, determinism, round trip. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { kmeans, kmeansParams } from "../../../src/models/cluster/kmeans.js";
import { assign, centresAtRows, updateCentres } from "../../../src/models/cluster/kmeans-engine.js";
import { rowMajor } from "../../../src/models/design-matrix.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { assertClose, blobs, ctx, frameOf, partition, seedPartition, watermelon4 } from "./helpers.js";

const X = watermelon4();
const rows = [6, 12, 27].map((r) => r - 1);

test("first round on watermelon 4.0: the means of SEEDS.md", () => {
  const M = rowMajor(X);
  const C = centresAtRows(M, 2, rows);
  const labels = new Int32Array(30);
  const dist = new Float64Array(30);
  assign(M, 30, 2, C, 3, labels, dist);
  const next = new Float64Array(6);
  updateCentres(M, 30, 2, labels, () => dist, C, 3, next, new Float64Array(3));
  const expected = [0.473, 0.214, 0.394, 0.066, 0.623, 0.388];
  expected.forEach((v, i) => assertClose(next[i], v, 0.002, `centre value ${i}`));
});

test("final clusters on watermelon 4.0: SEEDS.md's partition, numbered by the initial rows", () => {
  const s = kmeans.fit({ X, target: null }, kmeansParams.parse({ n_clusters: 3, init: { kind: "rows", rows } }), ctx());
  const expected = [
    [5, 6, 7, 8, 9, 10, 13, 14, 15, 17, 18, 19, 20, 23],
    [11, 12, 16],
    [1, 2, 3, 4, 21, 22, 24, 25, 26, 27, 28, 29, 30],
  ];
  assert.deepEqual(partition(kmeans.trainingLabels!(s)), seedPartition(expected));
  // Cluster c grew from the c-th initial row.
  rows.forEach((r, c) => assert.equal(s.labels[r], c));
  assert.deepEqual(Array.from(s.sizes), [14, 3, 13]);
  // predict on the training rows agrees with the training labels (the assignment is stable).
  assert.deepEqual(kmeans.predict(s, X), { task: "clustering", labels: s.labels });
  const e = kmeans.explain!(s) as { inertia: number; n_iter: number; centres: Record<string, number>[] };
  assert.equal(e.centres.length, 3);
  assert.ok(e.inertia > 0 && e.n_iter >= 2);
});

test("explicit rows must match n_clusters and be training rows", () => {
  assert.throws(() => kmeans.fit({ X, target: null }, kmeansParams.parse({ n_clusters: 2, init: { kind: "rows", rows } }), ctx()), /3 rows for 2 clusters/);
  assert.throws(() => kmeans.fit({ X, target: null }, kmeansParams.parse({ n_clusters: 1, init: { kind: "rows", rows: [30] } }), ctx()), /not a training row/);
  assert.throws(() => kmeans.fit({ X, target: null }, kmeansParams.parse({ n_clusters: 31 }), ctx()), /only 30 training rows/);
});

test("k-means++ and random restarts find well-separated blobs; same seed → same clustering; state round trip", () => {
  const { X: B, truth } = blobs(600, 4, 5);
  const F = frameOf(B, 600, 4);
  for (const init of [{ kind: "k-means++" }, { kind: "random" }] as const) {
    const params = kmeansParams.parse({ n_clusters: 5, init, n_init: init.kind === "random" ? 20 : 3 });
    const a = kmeans.fit({ X: F, target: null }, params, ctx(11));
    const b = kmeans.fit({ X: F, target: null }, params, ctx(11));
    assert.deepEqual(a, b);
    assert.deepEqual(partition(a.labels), partition(truth));
    const loaded = kmeans.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(a)))));
    assert.deepEqual(kmeans.predict(loaded, F), kmeans.predict(a, F));
  }
});

test("an empty cluster takes the row farthest from its centre", () => {
  // Two identical initial centres: the second one is empty after the first assignment (ties go to the lowest index).
  const F = frameOf([0, 0, 1, 0, 10, 0, 11, 0], 4, 2);
  const s = kmeans.fit({ X: F, target: null }, kmeansParams.parse({ n_clusters: 2, init: { kind: "rows", rows: [0, 0] } }), ctx());
  assert.deepEqual(partition(s.labels), [
    [0, 1],
    [2, 3],
  ]);
});
