/** dbscan: SEEDS.md's watermelon 4.0 example (eps 0.11, MinPts 5), predict for new rows, determinism, round trip. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { dbscan, dbscanLabels, dbscanParams } from "../../../src/models/cluster/dbscan.js";
import { bruteForceRadius } from "../../../src/models/cluster/radius.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { blobs, ctx, frameOf, partition, seedPartition, watermelon4 } from "./helpers.js";

const X = watermelon4();
const s = dbscan.fit({ X, target: null }, dbscanParams.parse({ eps: 0.11, min_samples: 5 }), ctx());

test("watermelon 4.0: SEEDS.md's 13 core objects, four clusters and noise {11, 15}; border row 7 joins row 3's cluster (scikit-learn's rule)", () => {
  assert.deepEqual(Array.from(s.core_rows), [3, 5, 6, 8, 9, 13, 14, 18, 19, 24, 25, 28, 29].map((r) => r - 1));
  const expected = [
    [6, 8, 10, 12, 18, 19, 20, 23],
    [3, 4, 5, 7, 9, 13, 14, 16, 17, 21],
    [1, 2, 22, 26, 29],
    [24, 25, 27, 28, 30],
  ];
  assert.deepEqual(partition(dbscan.trainingLabels!(s)), seedPartition(expected));
  assert.deepEqual([10, 14].map((r) => s.labels[r]), [-1, -1]);
  // Clusters are numbered by their lowest core row: row 3 (index 2) starts cluster 0.
  assert.equal(s.labels[2], 0);
  const e = dbscan.explain!(s) as { n_clusters: number; noise_count: number; core_sample_ids: number[] };
  assert.deepEqual([e.n_clusters, e.noise_count, e.core_sample_ids.length], [4, 2, 13]);
});

test("predict: the cluster of the nearest core object within eps, else noise", () => {
  const p = dbscan.predict(s, X);
  assert.ok(p.task === "clustering");
  // Core rows keep their own cluster; noise rows have no core object within eps.
  for (const r of s.core_rows) assert.equal(p.labels[r], s.labels[r]);
  assert.deepEqual([10, 14].map((r) => p.labels[r]), [-1, -1]);
  const far = frameOf([5, 5], 1, 2);
  const renamed = { ...far, columns: far.columns.map((c, j) => ({ ...c, name: X.columns[j].name })) };
  assert.deepEqual(Array.from((dbscan.predict(s, renamed) as { labels: Int32Array }).labels), [-1]);
});

test("min_samples above the rows: all noise; blobs: recovered; same seed → same model; round trip", () => {
  const none = dbscan.fit({ X, target: null }, dbscanParams.parse({ eps: 0.11, min_samples: 31 }), ctx());
  assert.deepEqual([none.n_clusters, none.core_rows.length, Math.max(...none.labels)], [0, 0, -1]);
  const { X: B, truth } = blobs(300, 2, 3, 21);
  const F = frameOf(B, 300, 2);
  const params = dbscanParams.parse({ eps: 1.2, min_samples: 4 });
  const b = dbscan.fit({ X: F, target: null }, params, ctx(1));
  assert.deepEqual(dbscan.fit({ X: F, target: null }, params, ctx(2)), b);
  const found = partition(b.labels);
  // Every found cluster lies inside one true blob.
  for (const g of found) assert.equal(new Set(g.map((r) => truth[r])).size, 1);
  assert.equal(found.length, 3);
  const loaded = dbscan.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(b)))));
  assert.deepEqual(dbscan.predict(loaded, F), dbscan.predict(b, F));
});

/** scikit-learn's dbscan_inner one row at a time on the plain scan: the reference for the blocked search. */
function referenceDbscan(X: Float64Array, n: number, d: number, eps: number, minSamples: number): Int32Array {
  const index = bruteForceRadius(X, n, d, eps);
  const buf = new Int32Array(n);
  const core = Array.from({ length: n }, (_, i) => index.query(X.subarray(i * d, i * d + d), buf) >= minSamples);
  const labels = new Int32Array(n).fill(-1);
  let cluster = 0;
  for (let start = 0; start < n; start++) {
    if (labels[start] !== -1 || !core[start]) continue;
    const stack = [start];
    while (stack.length > 0) {
      const i = stack.pop()!;
      if (labels[i] !== -1) continue;
      labels[i] = cluster;
      if (!core[i]) continue;
      const count = index.query(X.subarray(i * d, i * d + d), buf);
      for (let t = 0; t < count; t++) if (labels[buf[t]] === -1) stack.push(buf[t]);
    }
    cluster++;
  }
  return labels;
}

test("blocked radius queries (20 dimensions: brute force; 2: kd-tree) give the row-at-a-time labels, border rows included, neighbourhoods kept or queried again", () => {
  for (const d of [2, 20]) {
    const n = 1300;
    let s = 11;
    const rand = () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      return s / 2 ** 31;
    };
    // Four blobs plus uniform noise, so clusters, border rows and noise all occur.
    const X = Float64Array.from({ length: n * d }, (_, i) => (Math.floor(i / d) % 5 === 4 ? rand() * 40 : (Math.floor(i / d) % 4) * 10 + rand() * 4));
    const eps = d === 2 ? 0.6 : 6;
    const want = referenceDbscan(X, n, d, eps, 6);
    // Neighbourhoods kept from the core pass, and (a budget of 0) queried again while growing.
    assert.deepEqual(Array.from(dbscanLabels(X, n, d, eps, 6).labels), Array.from(want), `d = ${d}, kept`);
    assert.deepEqual(Array.from(dbscanLabels(X, n, d, eps, 6, undefined, undefined, 0).labels), Array.from(want), `d = ${d}, queried again`);
    const noise = want.filter((l) => l < 0).length;
    assert.ok(noise > 0 && noise < n && Math.max(...want) >= 1, `d = ${d}: clusters and noise (${noise})`);
  }
});
