/**
 * gradient_boosting: scikit-learn parity on its bundled datasets (same split, scores in
 * test/fixtures/gbdt/sklearn-parity.json from scripts/fixtures/gbdt_sklearn.py), training
 * loss never rising, determinism, artifact round trip, native categorical and missing
 * values, weights, early stopping, losses per task, explain.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { makeFrame, type Frame } from "../../../../src/data/frame.js";
import { createRng } from "../../../../src/data/random.js";
import type { Target, TrainingSet } from "../../../../src/models/contract.js";
import { UnusableInputError } from "../../../../src/models/contract.js";
import { noImprovement } from "../../../../src/models/ensemble/gradient-boosting/boost.js";
import { gradientBoosting } from "../../../../src/models/ensemble/gradient-boosting/gradient-boosting.js";
import type { BoosterState } from "../../../../src/models/ensemble/gradient-boosting/state.js";
import { decodeState, encodeState } from "../../../../src/models/state-codec.js";
import { accuracy, ctx, fixturePath, r2, realData } from "../../tree/fixtures.js";

const params = (p: object = {}) => gradientBoosting.params.parse(p);
const fit = (train: TrainingSet, p: object = {}, seed = 0) => gradientBoosting.fit(train, params(p), ctx(seed));

const parity = JSON.parse(readFileSync(fixturePath("gbdt/sklearn-parity.json"), "utf8")) as { sklearn_version: string; datasets: Record<string, { metric: string; mean: number }> };

describe(`parity with scikit-learn ${parity.sklearn_version} HistGradientBoosting, default parameters`, () => {
  for (const name of ["iris", "wine", "breast-cancer", "digits", "diabetes"] as const) {
    test(`${name}: ${parity.datasets[name].metric} not below scikit-learn's by more than 0.02`, () => {
      const d = realData(name);
      const s = fit(d.train);
      const p = gradientBoosting.predict(s, d.testX);
      const t = d.testTarget;
      const score = p.task === "classification" && t.task === "classification" ? accuracy(p.labels, t.y) : r2((p as { values: Float64Array }).values, t.y as Float64Array);
      const sk = parity.datasets[name].mean;
      assert.ok(score >= sk - 0.02, `${name}: ${score} vs scikit-learn ${sk}`);
    });
  }
});

/** y = sin(x0) + x1² + noise, with x2 pure noise. */
function regressionSet(n: number, seed = 5): TrainingSet {
  const rng = createRng(seed);
  const x = [0, 1, 2].map(() => new Float64Array(n));
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (const c of x) c[i] = rng.normal();
    y[i] = Math.sin(2 * x[0][i]) + x[1][i] ** 2 + 0.3 * rng.normal();
  }
  return { X: makeFrame(x.map((values, j) => ({ type: "numeric" as const, name: `x${j}`, values }))), target: { task: "regression", y } };
}

test("squared error without subsampling: the training loss never rises from one iteration to the next", () => {
  for (const p of [{}, { learning_rate: 1 }, { max_leaf_nodes: 2 }, { l2_regularization: 5, max_depth: 2 }]) {
    const s = fit(regressionSet(600), { ...p, max_iter: 60, early_stopping: false });
    for (let t = 1; t < s.trainLoss.length; t++) assert.ok(s.trainLoss[t] <= s.trainLoss[t - 1] + 1e-12, `${JSON.stringify(p)} iteration ${t}: ${s.trainLoss[t]} > ${s.trainLoss[t - 1]}`);
    assert.ok(s.trainLoss[s.trainLoss.length - 1] < 0.5 * s.trainLoss[0]);
  }
});

test("same seed → same model, with row and feature sampling and early stopping; another seed differs", () => {
  const d = realData("breast-cancer");
  const p = { subsample: 0.7, colsample: 0.5, early_stopping: true, max_iter: 40 };
  const a = encodeState(fit(d.train, p, 3));
  assert.deepEqual(encodeState(fit(d.train, p, 3)), a);
  assert.notDeepEqual(encodeState(fit(d.train, p, 4)), a);
});

test("save → load → identical predictions and state (multinomial, with missing cells)", () => {
  const d = realData("wine");
  const X = makeFrame(d.testX.columns.map((c, j) => (c.type === "numeric" && j % 3 === 0 ? { ...c, values: c.values.map((v, i) => (i % 4 === 0 ? NaN : v)) } : c)));
  const s = fit(d.train);
  const back = gradientBoosting.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s))))) as BoosterState;
  assert.deepEqual(gradientBoosting.predict(back, X), gradientBoosting.predict(s, X));
  assert.deepEqual(encodeState(back), encodeState(s));
});

test("probabilities sum to 1 in classes order; labels are their argmax", () => {
  const d = realData("iris");
  const s = fit(d.train);
  const p = gradientBoosting.predict(s, d.testX);
  assert.equal(p.task, "classification");
  if (p.task !== "classification" || !p.proba) return;
  const K = s.classes.length;
  assert.equal(s.outputs, K);
  for (let i = 0; i < p.labels.length; i++) {
    const row: number[] = Array.from(p.proba.subarray(i * K, (i + 1) * K));
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    assert.equal(p.labels[i], row.indexOf(Math.max(...row)));
  }
});

test("a categorical split separates a non-ordinal set of levels in one split", () => {
  const levels = ["a", "b", "c", "d", "e"];
  const n = 200;
  const codes = Int32Array.from({ length: n }, (_, i) => i % 5);
  // a, c, e → yes; b, d → no: no threshold on the codes does this.
  const y = Int32Array.from(codes, (c) => (c % 2 === 0 ? 1 : 0));
  const train: TrainingSet = { X: makeFrame([{ type: "categorical", name: "g", codes, levels }]), target: { task: "classification", y, classes: ["no", "yes"] } };
  const s = fit(train, { max_leaf_nodes: 2, max_iter: 20 });
  const p = gradientBoosting.predict(s, train.X);
  assert.equal(p.task === "classification" && accuracy(p.labels, y), 1);
  assert.equal(s.feature[0], 0);
  // An unseen or missing level follows the learned missing direction, never throws.
  const unseen = gradientBoosting.predict(s, makeFrame([{ type: "categorical", name: "g", codes: Int32Array.of(0, -1), levels: ["zz"] }]));
  assert.equal(unseen.task, "classification");
});

test("missing values learn their own direction", () => {
  const n = 300;
  const rng = createRng(2);
  const x = new Float64Array(n);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = rng.next();
    // Missing cells are positives, although they sit among low values in a naive imputation.
    if (i % 3 === 0) {
      x[i] = NaN;
      y[i] = 1;
    } else {
      x[i] = v;
      y[i] = v > 0.5 ? 1 : 0;
    }
  }
  const train: TrainingSet = { X: makeFrame([{ type: "numeric", name: "x", values: x }]), target: { task: "classification", y, classes: ["0", "1"] } };
  const s = fit(train, { max_iter: 30 });
  const p = gradientBoosting.predict(s, makeFrame([{ type: "numeric", name: "x", values: Float64Array.of(NaN, 0.2, 0.8) }]));
  assert.deepEqual(p.task === "classification" && Array.from(p.labels), [1, 0, 1]);
});

test("weight 2 on a row gives the model of the row duplicated", () => {
  const base = regressionSet(120);
  const y = base.target as Extract<Target, { task: "regression" }>;
  const dup = Array.from({ length: 120 }, (_, i) => i).flatMap((i) => (i % 4 === 0 ? [i, i] : [i]));
  const Xd = makeFrame(base.X.columns.map((c) => ({ ...c, values: Float64Array.from(dup, (r) => (c as { values: Float64Array }).values[r]) })) as Frame["columns"]);
  const weights = Float64Array.from({ length: 120 }, (_, i) => (i % 4 === 0 ? 2 : 1));
  const p = { min_samples_leaf: 1, max_iter: 20, early_stopping: false };
  const weighted = fit({ ...base, weights }, p);
  const duplicated = fit({ X: Xd, target: { task: "regression", y: Float64Array.from(dup, (r) => y.y[r]) } }, p);
  const a = gradientBoosting.predict(weighted, base.X) as { values: Float64Array };
  const b = gradientBoosting.predict(duplicated, base.X) as { values: Float64Array };
  a.values.forEach((v, i) => assert.ok(Math.abs(v - b.values[i]) < 1e-9, `row ${i}: ${v} vs ${b.values[i]}`));
});

test("early stopping ends the fit when the held-out loss stops improving, by scikit-learn's rule", () => {
  assert.equal(noImprovement([5, 4, 3, 3, 3], 2, 0), true);
  assert.equal(noImprovement([5, 4, 3, 3, 2.9], 2, 0), false);
  assert.equal(noImprovement([5, 4, 3, 3, 2.9], 2, 0.5), true);
  assert.equal(noImprovement([5, 4], 2, 0), false);
  const s = fit(regressionSet(800), { early_stopping: true, learning_rate: 0.5, max_iter: 500, n_iter_no_change: 5 });
  assert.ok(s.iterations < 500, `${s.iterations} iterations`);
  assert.equal(s.validationLoss?.length, s.iterations + 1);
  assert.equal(fit(regressionSet(800), { max_iter: 7 }).validationLoss, null, "auto is off below 10,000 rows");
});

test("absolute_error and huber resist wild targets better than squared_error", () => {
  const train = regressionSet(600);
  const test = regressionSet(300, 9);
  const y = Float64Array.from((train.target as { y: Float64Array }).y, (v, i) => (i % 10 === 0 ? v + 200 : v));
  const noisy: TrainingSet = { X: train.X, target: { task: "regression", y } };
  const score = (loss: string) => r2((gradientBoosting.predict(fit(noisy, { loss }), test.X) as { values: Float64Array }).values, (test.target as { y: Float64Array }).y);
  const squared = score("squared_error");
  for (const loss of ["absolute_error", "huber"]) assert.ok(score(loss) > squared + 0.1, `${loss}: ${score(loss)} vs squared_error ${squared}`);
});

test("a loss of the other task is refused as unusable input", () => {
  const d = realData("iris");
  assert.throws(() => fit(d.train, { loss: "squared_error" }), UnusableInputError);
  assert.throws(() => fit(regressionSet(50), { loss: "log_loss" }), UnusableInputError);
});

test("explain: losses per iteration and feature importances by gain and split count", () => {
  const s = fit(regressionSet(500), { max_iter: 30, early_stopping: true });
  const e = gradientBoosting.explain!(s) as {
    train_loss: number[];
    validation_loss: number[];
    iterations: number;
    feature_importances: { feature: string; gain: number; gain_share: number; splits: number }[];
  };
  assert.equal(e.train_loss.length, e.iterations + 1);
  assert.equal(e.validation_loss.length, e.iterations + 1);
  assert.deepEqual(
    e.feature_importances.map((f) => f.feature).slice(0, 2).sort(),
    ["x0", "x1"],
    "the two informative features lead",
  );
  assert.ok(Math.abs(e.feature_importances.reduce((a, f) => a + f.gain_share, 0) - 1) < 1e-9);
  assert.equal(e.feature_importances.reduce((a, f) => a + f.splits, 0), Array.from(s.feature).filter((f) => f >= 0).length);
  const small = gradientBoosting.explain!(s, { maxValues: 8 }) as { train_loss: number[]; train_loss_truncated?: boolean; feature_importances: unknown[] };
  assert.ok(small.feature_importances.length + small.train_loss.length <= 8);
  assert.equal(small.train_loss_truncated, true);
});
