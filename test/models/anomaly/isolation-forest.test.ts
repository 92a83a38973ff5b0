/**
 * isolation_forest: the paper's formulas (Liu, Ting & Zhou 2008), outliers known by
 * construction, the ranking quality of scikit-learn 1.2's IsolationForest on the same data
 * (scripts/fixtures/anomaly_sklearn.py: random trees, so only the AUC compares), determinism.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { createRng } from "../../../src/data/random.js";
import type { Prediction } from "../../../src/models/contract.js";
import { rocAuc } from "../../../src/evaluation/curves/roc.js";
import { anomalyScore, averagePathLength, growIsolationTree, heightLimit, pathLength } from "../../../src/models/anomaly/isolation-tree.js";
import { isolationForest, percentile, sampleSize, type IsolationForestParams } from "../../../src/models/anomaly/isolation-forest.js";
import { ctx, frameOfRows } from "../projection/helpers.js";

interface Set {
  name: string;
  X: number[][];
  outlier: number[];
  sklearn_auc: number;
}
const fixture = JSON.parse(readFileSync(new URL("../../fixtures/anomaly/sklearn.json", import.meta.url), "utf8")) as { sets: Set[] };
const set = (name: string) => fixture.sets.find((s) => s.name === name)!;

const params = (p: Partial<IsolationForestParams> = {}) => isolationForest.params.parse(p);
const anomaly = (p: Prediction) => (p.task === "anomaly" ? p : assert.fail(`predicted ${p.task}`));

function fitPredict(rows: number[][], p: Partial<IsolationForestParams>, seed: number) {
  const X = frameOfRows(rows);
  const state = isolationForest.fit({ X, target: null }, params(p), ctx(seed));
  return { state, prediction: anomaly(isolationForest.predict(state, X)) };
}

/** H(i) summed exactly. */
const harmonic = (i: number) => Array.from({ length: i }, (_, k) => 1 / (k + 1)).reduce((a, b) => a + b, 0);

test("c(n) = 2H(n−1) − 2(n−1)/n with H(i) ≈ ln i + γ: c(1) = 0, c(2) = 1, within 1/(n−1) of the exact harmonic sum", () => {
  assert.equal(averagePathLength(1), 0);
  assert.equal(averagePathLength(2), 1);
  for (const n of [3, 4, 10, 100, 256, 1000]) {
    const exact = 2 * harmonic(n - 1) - (2 * (n - 1)) / n;
    assert.ok(Math.abs(averagePathLength(n) - exact) < 1 / (n - 1), `n = ${n}: ${averagePathLength(n)} vs ${exact}`);
  }
  // The paper's height limit for its default ψ = 256 is 8.
  assert.equal(heightLimit(256), 8);
  assert.equal(heightLimit(257), 9);
});

test("s(x, ψ) = 2^(−E/c(ψ)): E = c(ψ) → 0.5, E → 0 → 1, E → ψ − 1 → towards 0, decreasing in E", () => {
  for (const psi of [16, 256]) {
    const c = averagePathLength(psi);
    assert.ok(Math.abs(anomalyScore(c, psi) - 0.5) < 1e-15);
    assert.equal(anomalyScore(0, psi), 1);
    assert.ok(anomalyScore(psi - 1, psi) < 0.2);
    assert.ok(anomalyScore(1, psi) > anomalyScore(2, psi));
  }
});

test("a hand-grown tree: two distinct rows split once, each alone in a leaf (h = 1); identical rows stay in one leaf (h = c(size))", () => {
  const X = Float64Array.from([0, 10]);
  const tree = growIsolationTree(X, 1, Int32Array.from([0, 1]), Int32Array.from([0]), heightLimit(2), createRng(3));
  assert.equal(tree.feature.length, 3);
  assert.ok(tree.threshold[0] >= 0 && tree.threshold[0] < 10);
  assert.equal(pathLength(tree, X, 1, 0), 1);
  assert.equal(pathLength(tree, X, 1, 1), 1);
  const same = Float64Array.from([4, 4, 4, 4]);
  const leaf = growIsolationTree(same, 1, Int32Array.from([0, 1, 2, 3]), Int32Array.from([0]), heightLimit(4), createRng(3));
  assert.equal(leaf.feature.length, 1);
  assert.equal(pathLength(leaf, same, 1, 2), averagePathLength(4));
});

test("percentile is numpy's linear interpolation; ψ follows max_samples", () => {
  assert.equal(percentile(Float64Array.from([4, 1, 3, 2]), 50), 2.5);
  assert.equal(percentile(Float64Array.from([4, 1, 3, 2]), 25), 1.75);
  assert.equal(percentile(Float64Array.from([7]), 90), 7);
  assert.equal(sampleSize(params(), 1000), 256);
  assert.equal(sampleSize(params(), 100), 100);
  assert.equal(sampleSize(params({ max_samples: 50 }), 100), 50);
  assert.equal(sampleSize(params({ max_samples: 500 }), 100), 100);
  assert.equal(sampleSize(params({ max_samples_fraction: 0.5 }), 101), 50);
  assert.equal(isolationForest.params.safeParse({ max_samples: 10, max_samples_fraction: 0.5 }).success, false);
  assert.equal(isolationForest.params.safeParse({ contamination: 0.6 }).success, false);
  assert.equal(isolationForest.params.safeParse({ contamination: 0 }).success, false);
});

test("a blob and six far rows: the six score highest, contamination = 6/306 flags exactly them, and \"auto\" (s > 0.5) flags them too", () => {
  const { X, outlier } = set("far");
  const known = outlier.flatMap((o, i) => (o ? [i] : []));
  for (const seed of [1, 2, 3]) {
    const { prediction } = fitPredict(X, { contamination: known.length / X.length }, seed);
    const top = Array.from(prediction.scores.keys()).sort((a, b) => prediction.scores[b] - prediction.scores[a]).slice(0, known.length);
    assert.deepEqual(top.sort((a, b) => a - b), known);
    assert.deepEqual(Array.from(prediction.labels.keys()).filter((i) => prediction.labels[i] === 1), known);
    const auto = fitPredict(X, {}, seed).prediction;
    for (const i of known) assert.equal(auto.labels[i], 1, `row ${i} (score ${auto.scores[i]})`);
    assert.ok(auto.labels.reduce((s, l) => s + l, 0) < X.length / 10, "auto flags few blob rows");
  }
});

for (const name of ["far", "mixed"]) {
  test(`${name}: ROC AUC of the scores against the known outliers ≥ scikit-learn's − 0.02 (mean over 10 seeds each)`, () => {
    const { X, outlier, sklearn_auc } = set(name);
    let total = 0;
    for (let seed = 0; seed < 10; seed++) total += rocAuc(outlier, fitPredict(X, {}, seed).prediction.scores) as number;
    const auc = total / 10;
    assert.ok(auc >= sklearn_auc - 0.02, `${auc} vs scikit-learn ${sklearn_auc}`);
  });
}

test("same seed → the same forest; another seed → another; explain gives the tree count, ψ, threshold, offset and mean depth", () => {
  const { X } = set("mixed");
  const a = fitPredict(X, { n_estimators: 20, contamination: 0.05 }, 7);
  const b = fitPredict(X, { n_estimators: 20, contamination: 0.05 }, 7);
  const c = fitPredict(X, { n_estimators: 20, contamination: 0.05 }, 8);
  assert.deepEqual(a.state, b.state);
  assert.notDeepEqual(a.state.trees, c.state.trees);
  const e = isolationForest.explain!(a.state) as Record<string, number>;
  assert.equal(e.n_estimators, 20);
  assert.equal(e.sample_size, 256);
  assert.equal(e.height_limit, 8);
  assert.equal(e.offset, -e.threshold);
  assert.ok(e.mean_depth > 0 && e.mean_depth <= 8);
  // 5 % of 420 training rows is 21: the threshold is their 95th percentile, so 21 rows lie above it.
  assert.equal(a.prediction.labels.reduce((s, l) => s + l, 0), 21);
});

test("the state schema refuses a node whose child points back up (a walk that never ends) or a feature out of range", () => {
  const { state } = fitPredict(set("far").X, { n_estimators: 3 }, 1);
  assert.ok(isolationForest.state.safeParse(state).success);
  const tree = state.trees[0];
  const looping = { ...tree, left: Int32Array.from(tree.left, (v, i) => (i === 0 ? 0 : v)) };
  assert.equal(isolationForest.state.safeParse({ ...state, trees: [looping] }).success, false);
  const wide = { ...tree, feature: Int32Array.from(tree.feature, (v, i) => (i === 0 ? 5 : v)) };
  assert.equal(isolationForest.state.safeParse({ ...state, trees: [wide] }).success, false);
  assert.equal(isolationForest.state.safeParse({ ...state, threshold: Number.NaN }).success, false);
});

test("property: scores lie in (0, 1], a row is an outlier exactly when its score is above the threshold, and a contamination share flags at most that share of the training rows", () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 2, maxLength: 2 }), { minLength: 2, maxLength: 60 }),
      fc.double({ min: 0.01, max: 0.5, noNaN: true }),
      fc.integer({ min: 0, max: 1000 }),
      (rows, contamination, seed) => {
        const { state, prediction } = fitPredict(rows, { n_estimators: 10, contamination }, seed);
        prediction.scores.forEach((s, i) => {
          assert.ok(s > 0 && s <= 1, `score ${s}`);
          assert.equal(prediction.labels[i], s > state.threshold ? 1 : 0);
        });
        const flagged = prediction.labels.reduce((s, l) => s + l, 0);
        assert.ok(flagged <= Math.ceil(contamination * rows.length), `${flagged} of ${rows.length} at ${contamination}`);
      },
    ),
    { numRuns: 60 },
  );
});

test("contract: the input is not mutated, an aborted fit stops, a batch scores as each row alone; bootstrap and max_features fit valid forests", () => {
  const { X: rows } = set("mixed");
  const X = frameOfRows(rows);
  const copy = X.columns.map((c) => Float64Array.from((c as { values: Float64Array }).values));
  const state = isolationForest.fit({ X, target: null }, params({ n_estimators: 15 }), ctx(2));
  X.columns.forEach((c, j) => assert.deepEqual((c as { values: Float64Array }).values, copy[j]));
  const batch = anomaly(isolationForest.predict(state, X));
  for (const i of [0, 17, 419]) {
    const one = anomaly(isolationForest.predict(state, frameOfRows([rows[i]])));
    assert.equal(one.scores[0], batch.scores[i]);
    assert.equal(one.labels[0], batch.labels[i]);
  }
  const aborted = { rng: createRng(1), progress: () => {}, signal: { aborted: true, reason: new Error("cancelled") } };
  assert.throws(() => isolationForest.fit({ X, target: null }, params(), aborted), /cancelled/);
  for (const p of [{ bootstrap: true }, { max_features: 2 }, { max_features_fraction: 0.5, max_samples_fraction: 0.1 }] as const) {
    const s = isolationForest.fit({ X, target: null }, params({ n_estimators: 10, ...p }), ctx(3));
    assert.ok(isolationForest.state.safeParse(s).success, JSON.stringify(p));
    if ("max_features" in p) assert.ok(s.trees.every((t) => new Set(Array.from(t.feature).filter((f) => f >= 0)).size <= 2), "each tree splits on at most max_features features");
    if ("max_samples_fraction" in p) assert.equal(s.sample_size, 42);
  }
  assert.throws(() => isolationForest.fit({ X, target: { task: "regression", y: new Float64Array(rows.length) } }, params(), ctx(1)), /without a target/);
});
