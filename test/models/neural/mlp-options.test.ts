// mlp's init and dropout options: uniform_0_1 is the seed's BP initialisation (weights and
// thresholds in (0, 1)); inverted dropout's backward pass is the gradient of the masked network
// (numerical check), prediction never drops, and the defaults leave the model as it was.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { mlp } from "../../../src/models/neural/mlp.js";
import { initialParams, layoutOf, Network, type NetworkSpec } from "../../../src/models/neural/network.js";
import { mlpParams } from "../../../src/models/neural/params.js";
import { accuracy, context, labelsOf, loadDataset, split, standardised } from "../../fixtures/svm-mlp/load.js";

describe("init", () => {
  test("uniform_0_1 puts every weight and threshold in [0, 1); glorot is the default and stays within its bound", () => {
    const spec: NetworkSpec = { sizes: [5, 7, 3], activation: "tanh", output: "softmax", loss: "cross_entropy" };
    const u = initialParams(spec, createRng(1), "uniform_0_1");
    assert.equal(u.length, layoutOf(spec.sizes).total);
    assert.ok(u.every((v) => v >= 0 && v < 1));
    assert.ok(u.some((v) => v > 0.5) && u.some((v) => v < 0.5));
    assert.deepEqual(initialParams(spec, createRng(1)), initialParams(spec, createRng(1), "glorot"));
    assert.ok(initialParams(spec, createRng(1)).every((v) => Math.abs(v) <= Math.sqrt(6 / (7 + 3))), "within the widest layer bound");
    assert.equal(mlpParams.parse({}).init, "glorot");
  });

  test("trained from uniform_0_1, iris still reaches 0.9 accuracy; same seed, same model", () => {
    const ds = loadDataset("iris");
    const s = split(ds, standardised(ds));
    const params = mlpParams.parse({ hidden_layer_sizes: [8], init: "uniform_0_1", learning_rate_init: 0.01, max_iter: 300 });
    const state = mlp.fit(s.train, params, context(2));
    assert.deepEqual(mlp.fit(s.train, params, context(2)), state);
    assert.ok(accuracy(labelsOf(mlp.predict(state, s.testX)), s.testY) >= 0.9);
    assert.notDeepEqual(mlp.fit(s.train, mlpParams.parse({ ...params, init: "glorot" }), context(2)).params, state.params);
  });
});

describe("dropout", () => {
  const X = Float64Array.from({ length: 6 * 3 }, (_, i) => Math.sin(i * 1.3));
  const Y = Float64Array.from({ length: 6 * 2 }, (_, i) => (i % 2 === Math.floor(i / 4) % 2 ? 1 : 0));

  for (const activation of ["sigmoid", "tanh", "relu"] as const) {
    test(`${activation}: the backward pass is the numerical gradient of the network under the same masks`, () => {
      const spec: NetworkSpec = { sizes: [3, 5, 4, 2], activation, output: "softmax", loss: "cross_entropy" };
      const params = initialParams(spec, createRng(3));
      // A generator with the same seed draws the same masks, so each evaluation sees one fixed masked network.
      const masked = () => new Network(spec, 6, { rate: 0.4, rng: createRng(21) });
      const loss = (p: Float64Array) => masked().lossAndGradient(p, X, Y, 6, 0.01, new Float64Array(p.length));
      const grad = new Float64Array(params.length);
      masked().lossAndGradient(params, X, Y, 6, 0.01, grad);
      const h = 1e-6;
      let zeros = 0;
      for (let i = 0; i < params.length; i++) {
        const plus = Float64Array.from(params);
        const minus = Float64Array.from(params);
        plus[i] += h;
        minus[i] -= h;
        const numeric = (loss(plus) - loss(minus)) / (2 * h);
        assert.ok(Math.abs(numeric - grad[i]) < 1e-6 * (1 + Math.abs(numeric)), `param ${i}: ${grad[i]} vs ${numeric}`);
        if (grad[i] === 0) zeros++;
      }
      assert.ok(zeros > 0 || activation === "relu", "some units were dropped: their incoming weights get no gradient");
    });
  }

  test("prediction uses every unit: a network built with dropout predicts as one without", () => {
    const spec: NetworkSpec = { sizes: [3, 5, 2], activation: "tanh", output: "softmax", loss: "cross_entropy" };
    const params = initialParams(spec, createRng(3));
    const a = new Float64Array(12);
    const b = new Float64Array(12);
    new Network(spec, 6, { rate: 0.5, rng: createRng(1) }).predictInto(params, X, 6, a);
    new Network(spec, 6).predictInto(params, X, 6, b);
    assert.deepEqual(a, b);
  });

  test("on iris: accuracy ≥ 0.9 with dropout 0.2, seeded; dropout 0 is the default model", () => {
    const ds = loadDataset("iris");
    const s = split(ds, standardised(ds));
    const params = mlpParams.parse({ hidden_layer_sizes: [32], dropout: 0.2, learning_rate_init: 0.01, max_iter: 300 });
    const state = mlp.fit(s.train, params, context(4));
    assert.deepEqual(mlp.fit(s.train, params, context(4)), state);
    assert.ok(accuracy(labelsOf(mlp.predict(state, s.testX)), s.testY) >= 0.9);
    const plain = mlp.fit(s.train, mlpParams.parse({ ...params, dropout: 0 }), context(4));
    assert.notDeepEqual(plain.params, state.params);
    assert.deepEqual(mlp.fit(s.train, mlpParams.parse({ hidden_layer_sizes: [32], learning_rate_init: 0.01, max_iter: 300 }), context(4)), plain);
    assert.ok(!mlpParams.safeParse({ dropout: 1 }).success, "dropout is a probability below 1");
  });
});
