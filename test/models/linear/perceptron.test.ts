import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { isMulticlassPerceptron, perceptron } from "../../../src/models/linear/perceptron.js";
import { UnusableInputError } from "../../../src/models/contract.js";
import { classificationSet, ctx, fixture, frame, roundTrip, accuracy } from "./helpers.js";

const inputs = [[0, 0], [0, 1], [1, 0], [1, 1]];
const X = frame(["a", "b"], inputs);

function labels(state: ReturnType<typeof perceptron.fit>, x = X): number[] {
  const p = perceptron.predict(state, x);
  return p.task === "classification" ? [...p.labels] : [];
}

describe("perceptron on the logic functions (seeds 002/003)", () => {
  for (const [name, y] of [
    ["AND", [0, 0, 0, 1]],
    ["OR", [0, 1, 1, 1]],
  ] as const) {
    for (const shuffle of [false, true]) {
      test(`${name}${shuffle ? " (shuffled)" : ""} is learnt and reported converged`, () => {
        const state = perceptron.fit(classificationSet(X, y), perceptron.params.parse({ shuffle }), ctx());
        assert.deepEqual(labels(state), [...y]);
        assert.equal(state.diagnostics.converged, true);
        assert.equal(state.diagnostics.loss, 0);
      });
    }
  }
  test("NOT (one input)", () => {
    const x = frame(["a"], [[0], [1]]);
    const state = perceptron.fit(classificationSet(x, [1, 0]), perceptron.params.parse({}), ctx());
    assert.deepEqual(labels(state, x), [1, 0]);
    assert.equal(state.diagnostics.converged, true);
  });
  test("AND from zero weights, in order, η = 1: the hand-computed weights", () => {
    // The rule w ← w + η(y − ŷ)x, θ ← θ − η(y − ŷ), ŷ = [wᵀx − θ ≥ 0], traced by hand:
    // after epochs 1–5 (w; θ) = (1,1; 0), (2,1; 1), (2,1; 2), (2,2; 2), (2,1; 3);
    // epoch 6 makes no mistake.
    const state = perceptron.fit(classificationSet(X, [0, 0, 0, 1]), perceptron.params.parse({ shuffle: false }), ctx());
    assert.ok(!isMulticlassPerceptron(state));
    assert.deepEqual([...state.coef], [2, 1]);
    assert.equal(state.threshold, 3);
    assert.equal(state.diagnostics.iterations, 6);
  });
  test("XOR is not linearly separable: stops at max_iter with converged: false", () => {
    const state = perceptron.fit(classificationSet(X, [0, 1, 1, 0]), perceptron.params.parse({ max_iter: 50 }), ctx());
    assert.equal(state.diagnostics.converged, false);
    assert.equal(state.diagnostics.iterations, 50);
    assert.ok((state.diagnostics.loss ?? 0) > 0);
    assert.notDeepEqual(labels(state), [0, 1, 1, 0]);
  });
});

describe("perceptron contract", () => {
  test("separable half of iris (setosa vs versicolor): perfect", () => {
    const iris = fixture<{ features: string[]; X: number[][]; y: number[] }>("iris_lda.json");
    const rows = iris.X.filter((_, i) => iris.y[i] < 2);
    const y = iris.y.filter((v) => v < 2);
    const x = frame(iris.features, rows);
    const state = perceptron.fit(classificationSet(x, y), perceptron.params.parse({}), ctx());
    assert.equal(state.diagnostics.converged, true);
    assert.equal(accuracy(Int32Array.from(labels(state, x)), y), 1);
  });
  test("more than two classes go through the multiclass wrapper (one-vs-rest by default); two classes stay one flat model", () => {
    const three = perceptron.fit(classificationSet(frame(["a"], [[0], [1], [2]]), [0, 1, 2]), perceptron.params.parse({}), ctx());
    assert.ok(isMulticlassPerceptron(three));
    assert.equal(three.model.strategy, "ovr");
    assert.equal(three.model.models.length, 3);
    const two = perceptron.fit(classificationSet(X, [0, 1, 1, 1]), perceptron.params.parse({ multiclass: "ovo" }), ctx());
    assert.ok(!isMulticlassPerceptron(two));
    assert.throws(() => perceptron.fit(classificationSet(frame(["a"], [[0], [1]]), [0, 0], ["0", "1", "2"]), perceptron.params.parse({}), ctx()), UnusableInputError);
  });
  test("save → load → identical predictions; same seed → same state", () => {
    const y = [0, 1, 1, 1];
    const a = perceptron.fit(classificationSet(X, y), perceptron.params.parse({}), ctx(9));
    const b = perceptron.fit(classificationSet(X, y), perceptron.params.parse({}), ctx(9));
    assert.deepEqual(a, b);
    const back = roundTrip(perceptron, a);
    assert.deepEqual(back, a);
    assert.deepEqual(perceptron.predict(back, X), perceptron.predict(a, X));
  });
  test("explain: weights, threshold as a negative intercept", () => {
    const state = perceptron.fit(classificationSet(X, [0, 0, 0, 1]), perceptron.params.parse({ shuffle: false }), ctx());
    const e = perceptron.explain!(state) as { coefficients: Record<string, number>; intercept: number; threshold: number };
    assert.deepEqual(e.coefficients, { a: 2, b: 1 });
    assert.equal(e.intercept, -3);
  });
});
