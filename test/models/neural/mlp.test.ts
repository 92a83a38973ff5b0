import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { mlp } from "../../../src/models/neural/mlp.js";
import { Network, type NetworkSpec } from "../../../src/models/neural/network.js";
import { mlpParams } from "../../../src/models/neural/params.js";
import { trainRun } from "../../../src/models/neural/trainer.js";
import { accuracy, context, labelsOf, loadDataset, probaOf, split, standardised } from "../../fixtures/svm-mlp/load.js";

const iris = loadDataset("iris");
const s = split(iris, standardised(iris));
const LEARNING_RATES = {
  standard: { sgd: 0.1, momentum: 0.01, adam: 0.01 },
  accumulated: { sgd: 0.5, momentum: 0.5, adam: 0.05 },
  minibatch: { sgd: 0.1, momentum: 0.1, adam: 0.01 },
} as const;
const quick = { hidden_layer_sizes: [8], learning_rate_init: 0.01, max_iter: 60, batch_size: 16 } as const;

describe("mlp training modes", () => {
  for (const bp of ["standard", "accumulated", "minibatch"] as const) {
    for (const solver of ["sgd", "momentum", "adam"] as const) {
      test(`bp ${bp}, solver ${solver}: the loss falls and iris is learned`, () => {
        // Full-batch updates are few per epoch: a larger step and more epochs; per-row
        // updates with momentum (step ≈ η/(1 − μ)) a smaller one.
        const lr = LEARNING_RATES[bp][solver];
        const epochs = bp === "accumulated" ? 300 : bp === "standard" ? 40 : 100;
        // batch_size only means something to bp "minibatch" (given elsewhere, it is refused).
        const { batch_size, ...rest } = quick;
        const batch = bp === "minibatch" ? { batch_size } : {};
        const state = mlp.fit(s.train, mlpParams.parse({ ...rest, ...batch, bp, solver, learning_rate_init: lr, max_iter: epochs, activation: "tanh" }), context());
        const curve = state.loss_curve;
        assert.ok(curve.at(-1)! < 0.5 * curve[0], `${curve[0]} → ${curve.at(-1)}`);
        const acc = accuracy(labelsOf(mlp.predict(state, s.testX)), s.testY);
        assert.ok(acc >= 0.85, `${bp}/${solver}: ${acc}`);
      });
    }
  }

  test("the seed's network: sigmoid outputs per class with squared error, probabilities normalised", () => {
    const state = mlp.fit(s.train, mlpParams.parse({ ...quick, output: "sigmoid", loss: "squared_error", learning_rate_init: 0.05, max_iter: 200 }), context());
    assert.deepEqual(state.sizes, [4, 8, 3]);
    const proba = probaOf(mlp.predict(state, s.testX));
    for (let i = 0; i < s.testY.length; i++) assert.ok(Math.abs(proba[3 * i] + proba[3 * i + 1] + proba[3 * i + 2] - 1) < 1e-12);
    assert.ok(accuracy(labelsOf(mlp.predict(state, s.testX)), s.testY) >= 0.85);
  });

  test("tol and n_iter_no_change stop a run that no longer improves", () => {
    const state = mlp.fit(s.train, mlpParams.parse({ ...quick, max_iter: 1000, tol: 1e-2, n_iter_no_change: 5 }), context());
    assert.ok(state.n_iter < 1000);
    assert.equal(state.loss_curve.length, state.n_iter);
  });
});

describe("early stopping (seed 003)", () => {
  test("the run returns the weights of its lowest validation loss, not its last", () => {
    // A wide net with no penalty and a large step over-fits a small noisy training set.
    const rng = createRng(4);
    const make = (n: number) => {
      const X = Float64Array.from({ length: n * 2 }, () => rng.normal());
      const Y = Float64Array.from({ length: n }, (_, i) => (X[2 * i] + 0.8 * rng.normal() > 0 ? 1 : 0));
      return { X, Y, n };
    };
    const spec: NetworkSpec = { sizes: [2, 64, 1], activation: "tanh", output: "sigmoid", loss: "cross_entropy" };
    const params = mlpParams.parse({ hidden_layer_sizes: [64], activation: "tanh", learning_rate_init: 0.02, alpha: 0, max_iter: 300, tol: 0, n_iter_no_change: 300, batch_size: 10 });
    const validation = make(200);
    const run = trainRun(spec, params, make(30), validation, createRng(1), undefined, () => {});
    const curve = run.validationCurve;
    const best = Math.min(...curve);
    assert.equal(curve.length, 300);
    assert.ok(curve.indexOf(best) < 250 && curve.at(-1)! > best + 0.05, "validation loss rose after its minimum");
    assert.equal(run.validationLoss, best);
    const net = new Network(spec, 200);
    assert.equal(net.meanLoss(run.params, validation.X, validation.Y, validation.n), best);
  });

  test("through mlp: a seeded stratified hold-out, its curve and best loss in the state", () => {
    const state = mlp.fit(s.train, mlpParams.parse({ ...quick, early_stopping: true, validation_fraction: 0.2, max_iter: 80 }), context());
    assert.ok(state.validation_curve.length > 0);
    assert.equal(state.validation_loss, Math.min(...state.validation_curve));
    assert.ok(accuracy(labelsOf(mlp.predict(state, s.testX)), s.testY) >= 0.85);
  });
});

describe("mlp contract", () => {
  test("progress reaches 1 through every restart, rising", () => {
    const seen: number[] = [];
    mlp.fit(s.train, mlpParams.parse({ ...quick, max_iter: 10, tol: 0, n_iter_no_change: 10, n_restarts: 2 }), context(1, (f) => seen.push(f)));
    assert.equal(seen.length, 30);
    assert.ok(seen.every((f, i) => i === 0 || f > seen[i - 1]));
    assert.ok(Math.abs(seen.at(-1)! - 1) < 1e-12);
  });

  test("an aborted signal stops the fit", () => {
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    assert.throws(() => mlp.fit(s.train, mlpParams.parse(quick), { ...context(), signal: controller.signal }), /cancelled/);
  });

  test("save → load gives identical predictions (classification and regression)", () => {
    const state = mlp.fit(s.train, mlpParams.parse(quick), context());
    const loaded = mlp.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(state)))));
    assert.deepEqual(mlp.predict(loaded, s.testX), mlp.predict(state, s.testX));
    const diabetes = loadDataset("diabetes");
    const sd = split(diabetes, standardised(diabetes));
    const reg = mlp.fit(sd.train, mlpParams.parse({ ...quick, max_iter: 5 }), context());
    const regLoaded = mlp.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(reg)))));
    assert.deepEqual(mlp.predict(regLoaded, sd.testX), mlp.predict(reg, sd.testX));
  });

  test("same seed → identical state; another seed → other weights", () => {
    const p = mlpParams.parse({ ...quick, max_iter: 5, early_stopping: true });
    assert.deepEqual(mlp.fit(s.train, p, context(3)), mlp.fit(s.train, p, context(3)));
    assert.notDeepEqual(mlp.fit(s.train, p, context(3)).params, mlp.fit(s.train, p, context(4)).params);
  });

  test("params: every default, and heads that do not fit the task are refused", () => {
    const p = mlpParams.parse({});
    assert.deepEqual(p.hidden_layer_sizes, [100]);
    assert.equal(p.activation, "sigmoid");
    assert.throws(() => mlp.fit(s.train, mlpParams.parse({ output: "identity" }), context()), /regression/);
    const diabetes = loadDataset("diabetes");
    assert.throws(() => mlp.fit(split(diabetes).train, mlpParams.parse({ loss: "cross_entropy" }), context()), /classification/);
    assert.throws(() => mlpParams.parse({ hidden_layer_sizes: [0] }));
  });

  test("a diverging learning rate is reported, not returned as NaN weights", () => {
    const diabetes = loadDataset("diabetes");
    const sd = split(diabetes);
    assert.throws(() => mlp.fit(sd.train, mlpParams.parse({ solver: "sgd", learning_rate_init: 1e6, activation: "relu", hidden_layer_sizes: [8], max_iter: 20 }), context()), /diverged/);
  });

  test("explain lists each layer's weights from input to unit", () => {
    const state = mlp.fit(s.train, mlpParams.parse({ ...quick, max_iter: 2 }), context());
    const e = mlp.explain!(state) as { layers: { inputs: string[]; units: string[]; weights: number[][]; biases: number[] }[] };
    assert.equal(e.layers.length, 2);
    assert.deepEqual(e.layers[0].inputs, iris.features);
    assert.deepEqual(e.layers[1].units, iris.classes);
    assert.equal(e.layers[0].weights.length, 4);
    assert.equal(e.layers[0].weights[0].length, 8);
    assert.equal(e.layers[0].weights[2][5], state.params[2 * 8 + 5]);
  });
});
