/**
 * Every registered clustering algorithm, held to the contract on one table (scikit-learn's
 * estimator checks, cut to what clustering needs): same seed → same state; the input is not
 * mutated; an aborted fit stops; trainingLabels has one label per training row; predict
 * (where defined) labels a batch as it labels each row alone, and probabilities sum to 1;
 * transductive methods refuse predict.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { takeRows } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { listAlgorithms } from "../../../src/models/registry.js";
import { blobs, frameOf } from "./helpers.js";

const { X: flat } = blobs(120, 3, 3, 31);
const X = frameOf(flat, 120, 3);
const PARAMS: Record<string, Record<string, unknown>> = { kmeans: { n_clusters: 3 }, bisecting_kmeans: { n_clusters: 3 }, kmedoids: { n_clusters: 3 }, gmm: { n_components: 3 }, agnes: { cut: { kind: "n_clusters", n_clusters: 3 } }, dbscan: { eps: 1.5, min_samples: 4 }, constrained_kmeans: { n_clusters: 3, must_link: [[0, 3]], cannot_link: [[0, 1]] } };
const ctx = (seed: number) => ({ rng: createRng(seed), progress: () => {} });

for (const algorithm of listAlgorithms().filter((a) => a.tasks.includes("clustering"))) {
  test(`${algorithm.name}: the clustering contract`, () => {
    // Semi-supervised clustering (constrained_kmeans: constraints instead of labels) is of the semi family;
    // the competitive networks of seed 003 (som, art) of the neural family.
    assert.ok(["cluster", "semi", "neural"].includes(algorithm.family), algorithm.family);
    assert.ok(algorithm.trainingLabels, "trainingLabels is required of clustering methods");
    const params = algorithm.params.parse(PARAMS[algorithm.name] ?? {});
    const before = structuredClone(X);
    const state = algorithm.fit({ X, target: null }, params, ctx(4));
    assert.deepEqual(X, before, "the training frame is not mutated");
    assert.deepEqual(algorithm.fit({ X, target: null }, params, ctx(4)), state, "same seed, same state");
    assert.ok(algorithm.state.safeParse(state).success, "the state passes its own schema");
    const labels = algorithm.trainingLabels!(state);
    assert.equal(labels.length, 120);
    assert.ok(labels.every((l) => l >= -1), "labels are cluster indices or −1");
    const stop = new Error("stop");
    assert.throws(() => algorithm.fit({ X, target: null }, params, { ...ctx(4), signal: { aborted: true, reason: stop } }), (e) => e === stop, "an aborted fit stops");
    assert.throws(() => algorithm.fit({ X, target: { task: "regression", y: new Float64Array(120) } }, params, ctx(4)), /without a target/);
    if (algorithm.transductive) {
      assert.throws(() => algorithm.predict(state, X), /transductive/);
      return;
    }
    const batch = algorithm.predict(state, X);
    assert.ok(batch.task === "clustering");
    for (const i of [0, 1, 57, 119]) {
      const one = algorithm.predict(state, takeRows(X, [i]));
      assert.ok(one.task === "clustering");
      assert.equal(one.labels[0], batch.labels[i], `row ${i} alone`);
      if (batch.proba) assert.deepEqual(Array.from(one.proba!), Array.from(batch.proba.subarray(i * 3, i * 3 + 3)));
    }
    if (batch.proba) for (let i = 0; i < 120; i++) assert.ok(Math.abs(batch.proba.subarray(i * 3, i * 3 + 3).reduce((a, b) => a + b, 0) - 1) < 1e-12);
  });
}
