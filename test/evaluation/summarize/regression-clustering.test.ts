import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { summarizeClustering, summarizeRegression } from "../../../src/evaluation/index.js";
import { assertClose, f64, i32 } from "../helpers.js";

describe("summarizeRegression", () => {
  test("mse, rmse, mae, r2 by hand", () => {
    const s = summarizeRegression(f64([1, 2, 3, 4]), f64([1, 3, 2, 4]));
    assert.deepEqual(s.metrics, { mse: 0.5, rmse: Math.sqrt(0.5), mae: 0.5, r2: 1 - 2 / 5 });
  });

  test("a constant target gives r2 1 when perfect, 0 otherwise; empty input gives null", () => {
    assert.equal(summarizeRegression(f64([2, 2]), f64([2, 2])).metrics.r2, 1);
    assert.equal(summarizeRegression(f64([2, 2]), f64([2, 3])).metrics.r2, 0);
    assert.deepEqual(summarizeRegression(f64([]), f64([])).metrics, { mse: null, rmse: null, mae: null, r2: null });
  });
});

describe("summarizeClustering", () => {
  test("the seed's pair counts on a small example", () => {
    // reference λ*: {0,1,2} {3,4}; clustering λ: {0,1} {2,3,4}
    const s = summarizeClustering({ reference: i32([0, 0, 0, 1, 1]), labels: i32([5, 5, 7, 7, 7]) });
    // SS: (0,1) (3,4) → a = 2; SD: (2,3) (2,4) → b = 2; DS: (0,2) (1,2) → c = 2; d = 10 − 6 = 4
    assert.deepEqual(s.pair_counts, { a: 2, b: 2, c: 2, d: 4 });
    assertClose(s.metrics.jaccard, 2 / 6, 1e-15, "JC");
    assertClose(s.metrics.fowlkes_mallows, 0.5, 1e-15, "FM");
    assertClose(s.metrics.rand_index, 0.6, 1e-15, "RI");
    assert.equal("silhouette" in s.metrics, false);
  });

  test("internal indices on two well separated blobs", () => {
    const X = f64([0, 0, 0, 1, 1, 0, 10, 10, 10, 11, 11, 10]);
    const s = summarizeClustering({ labels: i32([0, 0, 0, 1, 1, 1]), points: { X, nFeatures: 2 } });
    assert.ok((s.metrics.silhouette as number) > 0.9);
    assert.ok((s.metrics.davies_bouldin as number) < 0.1);
    // closest pair across: (1,0)–(10,10) and (0,1)–(10,10) at √181; widest within: √2
    assertClose(s.metrics.dunn, Math.sqrt(181) / Math.sqrt(2), 1e-12, "dunn");
    // each cluster: (0,0) (0,1) (1,0) around (1/3, 1/3) → 2/9 + 5/9 + 5/9 = 4/3
    assertClose(s.metrics.sse, 8 / 3, 1e-12, "sse");
    assert.equal(s.pair_counts, undefined);
  });

  test("one cluster (or all singletons) gives null internal indices", () => {
    const points = { X: f64([0, 1, 2]), nFeatures: 1 };
    assert.deepEqual(summarizeClustering({ labels: i32([0, 0, 0]), points }).metrics, { sse: 2, silhouette: null, davies_bouldin: null, calinski_harabasz: null, dunn: null });
    assert.equal(summarizeClustering({ labels: i32([0, 1, 2]), points }).metrics.silhouette, null);
  });

  test("a sampled silhouette (and Dunn index) is seeded: same rng seed, same value", () => {
    const rng = createRng(1);
    const n = 200;
    const X = new Float64Array(n * 2);
    const labels = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      labels[i] = i % 2;
      X[2 * i] = labels[i] * 3 + rng.normal();
      X[2 * i + 1] = rng.normal();
    }
    const dunnOf = (seed: number) => summarizeClustering({ labels, points: { X, nFeatures: 2 }, silhouetteSampleSize: 50, rng: createRng(seed) }).metrics.dunn;
    assert.equal(dunnOf(4), dunnOf(4));
    const run = (seed: number) =>
      summarizeClustering({ labels, points: { X, nFeatures: 2 }, silhouetteSampleSize: 50, rng: createRng(seed) }).metrics.silhouette;
    assert.equal(run(9), run(9));
    const full = summarizeClustering({ labels, points: { X, nFeatures: 2 } }).metrics.silhouette as number;
    assert.ok(Math.abs((run(9) as number) - full) < 0.15);
  });
});
