// cascade_correlation (seed 003, §5.5.5): XOR and a two-spirals-lite table, which no linear
// output layer separates, solved by grown units; regression; determinism; the state schema.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { cascadeCorrelation as cc, cascadeCorrelationParams as params, cascadeCorrelationState } from "../../../src/models/neural/cascade-correlation.js";
import { accuracy, context, labelsOf, loadDataset, probaOf, r2, split, standardised, valuesOf } from "../../fixtures/svm-mlp/load.js";
import { frameOf } from "../cluster/helpers.js";

const xorX = frameOf([0, 0, 0, 1, 1, 0, 1, 1], 4, 2);
const xor = { X: xorX, target: { task: "classification" as const, y: Int32Array.of(0, 1, 1, 0), classes: ["0", "1"] } };

/** Two interleaved arms of 1.5 turns… of a spiral, 50 rows each (class 0: the arm, class 1: the arm turned by 180°). */
function spirals() {
  const X: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = (i / 50) * 1.5 * Math.PI + 0.3;
    for (const c of [0, 1]) {
      const s = c ? -1 : 1;
      X.push((s * t * Math.cos(t)) / 5, (s * t * Math.sin(t)) / 5);
      y.push(c);
    }
  }
  return { X: frameOf(X, 100, 2), target: { task: "classification" as const, y: Int32Array.from(y), classes: ["a", "b"] } };
}

const right = (labels: Int32Array, y: Int32Array) => labels.filter((l, i) => l === y[i]).length / y.length;

describe("cascade_correlation", () => {
  test("XOR: with no hidden unit the best linear fit is the constant ½ (mean squared error ¼); one grown unit fits it", () => {
    const linear = cc.fit(xor, params.parse({ max_hidden_units: 0, alpha: 0 }), context(1));
    assert.equal(linear.n_hidden, 0);
    assert.ok(Math.abs(linear.mse_curve[0] - 0.25) < 1e-12, String(linear.mse_curve[0]));
    assert.ok(right(labelsOf(cc.predict(linear, xorX)), xor.target.y) < 1);
    for (const seed of [1, 2, 3]) {
      const state = cc.fit(xor, params.parse({}), context(seed));
      assert.ok(state.n_hidden >= 1);
      assert.ok(state.mse_curve[1] < 1e-6, `seed ${seed}: ${state.mse_curve}`);
      assert.deepEqual(Array.from(labelsOf(cc.predict(state, xorX))), [0, 1, 1, 0]);
      const p = probaOf(cc.predict(state, xorX));
      for (let i = 0; i < 4; i++) assert.ok(Math.abs(p[2 * i] + p[2 * i + 1] - 1) < 1e-12);
    }
  });

  test("two spirals (lite): the linear layer gets at most 70% of the training rows, five grown units all of them", () => {
    const data = spirals();
    const linear = cc.fit(data, params.parse({ max_hidden_units: 0 }), context(1));
    assert.ok(right(labelsOf(cc.predict(linear, data.X)), data.target.y) <= 0.7);
    const grown = cc.fit(data, params.parse({ max_hidden_units: 5 }), context(1));
    assert.equal(right(labelsOf(cc.predict(grown, data.X)), data.target.y), 1);
    // Every kept unit lowered the training error.
    for (let k = 1; k < grown.mse_curve.length; k++) assert.ok(grown.mse_curve[k] < grown.mse_curve[k - 1]);
  });

  // Seed 003: fast to train, but prone to over-fit small data — on diabetes each unit past the first lowers the test R².
  test("iris and diabetes (standardised, scikit-learn's splits): accuracy ≥ 0.92, R² ≥ 0.3 with one unit", () => {
    const iris = loadDataset("iris");
    const si = split(iris, standardised(iris));
    const acc = accuracy(labelsOf(cc.predict(cc.fit(si.train, params.parse({ max_hidden_units: 5 }), context(1)), si.testX)), si.testY);
    assert.ok(acc >= 0.92, String(acc));
    const diabetes = loadDataset("diabetes");
    const sd = split(diabetes, standardised(diabetes));
    const score = r2(valuesOf(cc.predict(cc.fit(sd.train, params.parse({ max_hidden_units: 1 }), context(1)), sd.testX)), sd.testY);
    assert.ok(score >= 0.3, String(score));
  });

  test("same seed, same network; the schema checks the cascade's shape; explain within max_values", () => {
    const data = spirals();
    const p = params.parse({ max_hidden_units: 3, candidate_epochs: 50 });
    const a = cc.fit(data, p, context(4));
    assert.deepEqual(cc.fit(data, p, context(4)), a);
    assert.ok(cascadeCorrelationState.safeParse(a).success);
    assert.ok(!cascadeCorrelationState.safeParse({ ...a, n_hidden: a.n_hidden + 1 }).success);
    assert.ok(!cascadeCorrelationState.safeParse({ ...a, hidden_weights: a.hidden_weights.subarray(1) }).success);
    const full = cc.explain!(a) as { hidden: { weights: Record<string, number> }[]; outputs: unknown[] };
    assert.equal(full.hidden.length, a.n_hidden);
    // Unit k sees the inputs and the k units before it.
    full.hidden.forEach((h, k) => assert.equal(Object.keys(h.weights).length, 2 + k));
    const cut = cc.explain!(a, { maxValues: 4 }) as { hidden: unknown[]; hidden_truncated?: boolean };
    assert.equal(cut.hidden.length, 0);
    assert.equal(cut.hidden_truncated, true);
  });
});
