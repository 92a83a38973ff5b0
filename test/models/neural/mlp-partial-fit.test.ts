/**
 * mlp partial_fit: one epoch of the solver over the given rows from the stored weights. With plain
 * sgd (a stateless stepper) and rows in order, partial_fit after k epochs is exactly the fit of
 * k + 1 epochs, for classifiers and regressors and every BP mode; with adam the state continues
 * (one more epoch recorded, the parent untouched) and repeated passes bring the training loss down.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { makeFrame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import type { FitContext, TrainingSet } from "../../../src/models/contract.js";
import { mlp } from "../../../src/models/neural/mlp.js";
import { mlpParams } from "../../../src/models/neural/params.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";

const ctx = (seed: number): FitContext => ({ rng: createRng(seed), progress: () => {} });

function dataset(rows: readonly (readonly [number, number])[], task: "classification" | "regression"): TrainingSet {
  const X = makeFrame(["a", "b"].map((name, j) => ({ type: "numeric" as const, name, values: Float64Array.from(rows, (r) => r[j]) })));
  if (task === "regression") return { X, target: { task, y: Float64Array.from(rows, (r) => r[0] - 2 * r[1]) } };
  return { X, target: { task, classes: ["n", "p", "z"], y: Int32Array.from(rows, (r, i) => (i < 3 ? i : r[0] + r[1] > 0 ? 1 : r[0] + r[1] < 0 ? 0 : 2)) } };
}

function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string): void {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < expected.length; i++) assert.ok(Math.abs(actual[i] - expected[i]) <= 1e-9 * Math.max(1, Math.abs(expected[i])), `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
}

const roundTrip = (s: ReturnType<typeof mlp.fit>) => mlp.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s)))));

describe("mlp partial_fit", () => {
  test("sgd in order: partial_fit after k epochs = the fit of k + 1 epochs", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true })), { minLength: 6, maxLength: 30 }),
        fc.constantFrom("classification" as const, "regression" as const),
        fc.constantFrom("standard", "accumulated", "minibatch"),
        fc.integer({ min: 1, max: 3 }),
        (rows, task, bp, k) => {
          const set = dataset(rows, task);
          const base = { solver: "sgd", hidden_layer_sizes: [3], bp, ...(bp === "minibatch" ? { batch_size: 4 } : {}), ...(bp === "accumulated" ? {} : { shuffle: false }), tol: 0, n_iter_no_change: 1000, learning_rate_init: 0.05 };
          const p = (max_iter: number) => mlpParams.parse({ ...base, max_iter });
          const before = mlp.fit(set, p(k), ctx(5));
          const continued = mlp.partialFit!(roundTrip(before), set, p(k), ctx(11));
          const longer = mlp.fit(set, p(k + 1), ctx(5));
          // To rounding: the continued pass runs in a network of its own, whose sums may round in the last bit.
          assertClose(continued.params, longer.params, "params");
          assert.equal(continued.n_iter, longer.n_iter);
          assertClose(continued.loss_curve, longer.loss_curve, "loss_curve");
        },
      ),
      { numRuns: 40 },
    );
  });

  test("adam: the state continues (one epoch more, the parent untouched) and passes over the rows lower the loss", () => {
    const rows = Array.from({ length: 40 }, (_, i) => [Math.sin(i), Math.cos(3 * i)] as const);
    const set = dataset(rows, "regression");
    const p = mlpParams.parse({ solver: "adam", hidden_layer_sizes: [4], max_iter: 5, learning_rate_init: 0.01 });
    const first = mlp.fit(set, p, ctx(1));
    const saved = Float64Array.from(first.params);
    let state = first;
    for (let pass = 0; pass < 30; pass++) state = mlp.partialFit!(state, set, p, ctx(pass));
    assert.deepEqual(first.params, saved, "the parent's weights are not modified");
    assert.equal(state.n_iter, first.n_iter + 30);
    assert.equal(state.loss_curve.length, first.loss_curve.length + 30);
    assert.ok(state.loss_curve.at(-1)! < first.loss_curve.at(-1)!, `${state.loss_curve.at(-1)} < ${first.loss_curve.at(-1)}`);
  });

  test("rows with another class list are refused", () => {
    const set = dataset([[1, 1], [-1, -1], [0, 0], [2, 1]], "classification");
    const p = mlpParams.parse({ max_iter: 2 });
    const s = mlp.fit(set, p, ctx(1));
    const other: TrainingSet = { X: set.X, target: { task: "classification", classes: ["n", "p"], y: Int32Array.of(0, 1, 0, 1) } };
    assert.throws(() => mlp.partialFit!(s, other, p, ctx(1)), /classes/);
  });
});
