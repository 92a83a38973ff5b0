// mlp's init, dropout and weight_search options: uniform_0_1 is the seed's BP initialisation
// (weights and thresholds in (0, 1)); inverted dropout's backward pass is the gradient of the
// masked network (numerical check), prediction never drops; simulated annealing and a genetic
// search move BP's starting point out of a local minimum; the defaults leave the model as it was.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { mlp } from "../../../src/models/neural/mlp.js";
import { initialParams, layoutOf, Network, type NetworkSpec } from "../../../src/models/neural/network.js";
import { mlpParams } from "../../../src/models/neural/params.js";
import { MAX_SEARCH_WEIGHTS, searchWeights, weightSearchSchema } from "../../../src/models/neural/weight-search.js";
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

describe("weight_search", () => {
  const X = makeFrame([
    { type: "numeric", name: "x1", values: Float64Array.of(0, 0, 1, 1) },
    { type: "numeric", name: "x2", values: Float64Array.of(0, 1, 0, 1) },
  ]);
  const train = { X, target: { task: "classification" as const, y: Int32Array.of(0, 1, 1, 0), classes: ["0", "1"] } };
  // The seed's standard BP on XOR (xor.test.ts): from seed 2's initialisation it ends in a local minimum.
  const base = { hidden_layer_sizes: [2], loss: "squared_error", bp: "standard", solver: "sgd", learning_rate_init: 2, alpha: 0, max_iter: 3000, tol: 0, n_iter_no_change: 3000 } as const;

  test("seed 2: BP alone is stuck with a row wrong; started from an annealed or evolved point it learns XOR", () => {
    const stuck = mlp.fit(train, mlpParams.parse(base), context(2));
    assert.ok(stuck.run_scores[0] > 0.05);
    assert.notDeepEqual(Array.from(labelsOf(mlp.predict(stuck, X))), [0, 1, 1, 0]);
    for (const weight_search of [{ kind: "simulated_annealing" }, { kind: "genetic" }]) {
      const state = mlp.fit(train, mlpParams.parse({ ...base, weight_search }), context(2));
      assert.deepEqual(Array.from(labelsOf(mlp.predict(state, X))), [0, 1, 1, 0], weight_search.kind);
      assert.deepEqual(mlp.fit(train, mlpParams.parse({ ...base, weight_search }), context(2)), state, "seeded");
    }
  });

  test("the searched point is never worse than the initialisation it started from (any seed)", () => {
    const spec: NetworkSpec = { sizes: [2, 3, 1], activation: "sigmoid", output: "sigmoid", loss: "squared_error" };
    const Xr = Float64Array.of(0, 0, 0, 1, 1, 0, 1, 1);
    const Yr = Float64Array.of(0, 1, 1, 0);
    for (let seed = 0; seed < 10; seed++) {
      const net = new Network(spec, 4);
      const w0 = initialParams(spec, createRng(seed));
      const loss = (w: Float64Array) => net.meanLoss(w, Xr, Yr, 4);
      for (const search of [weightSearchSchema.parse({ kind: "simulated_annealing", iterations: 200 }), weightSearchSchema.parse({ kind: "genetic", population: 6, generations: 20 })]) {
        const w = searchWeights(search, w0, { net, X: Xr, Y: Yr, n: 4, alpha: 0, init: "glorot" }, createRng(seed + 100));
        assert.ok(loss(w) <= loss(w0), `seed ${seed} ${search.kind}: ${loss(w)} vs ${loss(w0)}`);
      }
    }
  });

  test("bounded: at most MAX_SEARCH_WEIGHTS weights (a fit error) and MAX_SEARCH_EVALUATIONS evaluations (a parameter error)", () => {
    const big = mlpParams.parse({ hidden_layer_sizes: [200, 100], weight_search: { kind: "simulated_annealing", iterations: 1 }, max_iter: 1 });
    assert.throws(() => mlp.fit(train, big, context(1)), /tiny networks/);
    assert.ok(MAX_SEARCH_WEIGHTS < (2 + 1) * 200 + (200 + 1) * 100);
    const tooMany = mlpParams.safeParse({ weight_search: { kind: "genetic", population: 1000, generations: 1000 } });
    assert.ok(!tooMany.success);
    assert.deepEqual(tooMany.error.issues[0].path, ["weight_search", "generations"]);
  });
});
