// Seed 000/003: a perceptron (no hidden layer) cannot represent XOR; one hidden layer can.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame } from "../../../src/data/frame.js";
import { mlp } from "../../../src/models/neural/mlp.js";
import { mlpParams } from "../../../src/models/neural/params.js";
import { context, labelsOf, probaOf } from "../../fixtures/svm-mlp/load.js";

const X = makeFrame([
  { type: "numeric", name: "x1", values: Float64Array.of(0, 0, 1, 1) },
  { type: "numeric", name: "x2", values: Float64Array.of(0, 1, 0, 1) },
]);
const train = { X, target: { task: "classification" as const, y: Int32Array.of(0, 1, 1, 0), classes: ["0", "1"] } };

describe("XOR", () => {
  test("one hidden layer of 2 sigmoid units, the seed's standard BP with sgd, learns XOR exactly", () => {
    const params = mlpParams.parse({ hidden_layer_sizes: [2], loss: "squared_error", bp: "standard", solver: "sgd", learning_rate_init: 2, alpha: 0, max_iter: 3000, tol: 0, n_iter_no_change: 3000, n_restarts: 4 });
    const state = mlp.fit(train, params, context(2));
    assert.deepEqual(Array.from(labelsOf(mlp.predict(state, X))), [0, 1, 1, 0]);
    const p = probaOf(mlp.predict(state, X));
    for (const [i, yi] of [0, 1, 1, 0].entries()) assert.ok(Math.abs(p[2 * i + 1] - yi) < 0.1, `row ${i}: ${p[2 * i + 1]}`);
    // With this seed the first initialisation ends in a local minimum (one row wrong);
    // a restart escapes it (seed 003), and the run with the lowest final loss is kept.
    assert.equal(state.run_scores.length, 5);
    assert.ok(state.run_scores[0] > 0.05, `first run ${state.run_scores[0]}`);
    assert.equal(state.loss_curve.at(-1), Math.min(...state.run_scores));
  });

  test("adam and 8 tanh units learn it too", () => {
    const params = mlpParams.parse({ hidden_layer_sizes: [8], activation: "tanh", learning_rate_init: 0.05, alpha: 0, max_iter: 500, tol: 0, n_iter_no_change: 500 });
    assert.deepEqual(Array.from(labelsOf(mlp.predict(mlp.fit(train, params, context(2)), X))), [0, 1, 1, 0]);
  });

  test("without a hidden layer (a single sigmoid unit) at most 3 of the 4 rows can be right", () => {
    const params = mlpParams.parse({ hidden_layer_sizes: [], learning_rate_init: 0.1, alpha: 0, max_iter: 500 });
    const labels = labelsOf(mlp.predict(mlp.fit(train, params, context(1)), X));
    const right = [0, 1, 1, 0].filter((y, i) => labels[i] === y).length;
    assert.ok(right <= 3);
  });
});
