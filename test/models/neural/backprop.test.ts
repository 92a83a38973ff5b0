// Seed 003's BP equations 5.1–5.7 (single hidden layer, sigmoid units, E_k = ½Σ(ŷ−y)²)
// written out in the seed's own notation, against the network's generic backward
// pass; then every output/loss/activation pairing against a numerical gradient.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { initialParams, layoutOf, Network, type NetworkSpec } from "../../../src/models/neural/network.js";
import { mlpParams } from "../../../src/models/neural/params.js";
import { trainRun } from "../../../src/models/neural/trainer.js";

const f = (z: number) => 1 / (1 + Math.exp(-z));

/** The seed's BP step for one row: returns Δv, Δγ, Δw, Δθ by eqs. 5.1–5.7. */
function seedStep(x: number[], y: number[], v: number[][], gamma: number[], w: number[][], theta: number[], eta: number) {
  const d = x.length;
  const q = gamma.length;
  const l = theta.length;
  const alpha = Array.from({ length: q }, (_, h) => x.reduce((s, xi, i) => s + v[i][h] * xi, 0));
  const b = alpha.map((a, h) => f(a - gamma[h]));
  const beta = Array.from({ length: l }, (_, j) => b.reduce((s, bh, h) => s + w[h][j] * bh, 0));
  const yHat = beta.map((bj, j) => f(bj - theta[j])); // (5.1)
  const g = yHat.map((yj, j) => yj * (1 - yj) * (y[j] - yj)); // (5.2)
  const e = b.map((bh, h) => bh * (1 - bh) * g.reduce((s, gj, j) => s + w[h][j] * gj, 0)); // (5.3)
  return {
    dw: b.map((bh) => g.map((gj) => eta * gj * bh)), // (5.4)
    dtheta: g.map((gj) => -eta * gj), // (5.5)
    dv: Array.from({ length: d }, (_, i) => e.map((eh) => eta * eh * x[i])), // (5.6)
    dgamma: e.map((eh) => -eta * eh), // (5.7)
    E: 0.5 * yHat.reduce((s, yj, j) => s + (yj - y[j]) ** 2, 0),
  };
}

describe("BP equations 5.1–5.7", () => {
  const spec: NetworkSpec = { sizes: [3, 4, 2], activation: "sigmoid", output: "sigmoid", loss: "squared_error" };
  const layout = layoutOf(spec.sizes);
  const params = initialParams(spec, createRng(11));
  const x = [0.697, 0.46, 1]; // 密度, 含糖率 and a constant feature
  const y = [1, 0];
  // Our layout: W1 (3×4) | b1 (4) | W2 (4×2) | b2 (2), with b = −threshold.
  const v = [0, 1, 2].map((i) => Array.from(params.subarray(i * 4, i * 4 + 4)));
  const gamma = Array.from(params.subarray(layout.biases[0], layout.biases[0] + 4), (b) => -b);
  const w = [0, 1, 2, 3].map((h) => Array.from(params.subarray(layout.weights[1] + h * 2, layout.weights[1] + h * 2 + 2)));
  const theta = Array.from(params.subarray(layout.biases[1], layout.biases[1] + 2), (b) => -b);
  const eta = 0.1;
  const seed = seedStep(x, y, v, gamma, w, theta, eta);

  test("the backward pass gives −Δ/η of every equation and the loss E_k", () => {
    const net = new Network(spec, 1);
    const grad = new Float64Array(layout.total);
    const E = net.lossAndGradient(params, Float64Array.from(x), Float64Array.from(y), 1, 0, grad);
    assert.ok(Math.abs(E - seed.E) < 1e-15);
    const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-15, `${what}: ${a} vs ${b}`);
    for (let i = 0; i < 3; i++) for (let h = 0; h < 4; h++) close(-eta * grad[i * 4 + h], seed.dv[i][h], `Δv[${i}][${h}]`);
    for (let h = 0; h < 4; h++) close(eta * grad[layout.biases[0] + h], seed.dgamma[h], `Δγ[${h}]`);
    for (let h = 0; h < 4; h++) for (let j = 0; j < 2; j++) close(-eta * grad[layout.weights[1] + h * 2 + j], seed.dw[h][j], `Δw[${h}][${j}]`);
    for (let j = 0; j < 2; j++) close(eta * grad[layout.biases[1] + j], seed.dtheta[j], `Δθ[${j}]`);
  });

  test("one epoch of standard BP with plain sgd on one row is exactly the seed's update", () => {
    const p = mlpParams.parse({ hidden_layer_sizes: [4], bp: "standard", solver: "sgd", learning_rate_init: eta, alpha: 0, max_iter: 1, shuffle: false });
    // trainRun draws its initial weights from the rng it is given: the same seed as `params` above.
    const run = trainRun(spec, p, { X: Float64Array.from(x), Y: Float64Array.from(y), n: 1 }, null, createRng(11), undefined, () => {});
    const after = run.params;
    for (let i = 0; i < 3; i++) for (let h = 0; h < 4; h++) assert.ok(Math.abs(after[i * 4 + h] - (v[i][h] + seed.dv[i][h])) < 1e-15);
    for (let h = 0; h < 4; h++) assert.ok(Math.abs(-after[layout.biases[0] + h] - (gamma[h] + seed.dgamma[h])) < 1e-15);
    for (let h = 0; h < 4; h++) for (let j = 0; j < 2; j++) assert.ok(Math.abs(after[layout.weights[1] + h * 2 + j] - (w[h][j] + seed.dw[h][j])) < 1e-15);
    for (let j = 0; j < 2; j++) assert.ok(Math.abs(-after[layout.biases[1] + j] - (theta[j] + seed.dtheta[j])) < 1e-15);
  });
});

describe("gradient = numerical gradient", () => {
  const combos: [NetworkSpec["activation"], NetworkSpec["output"], NetworkSpec["loss"], number][] = [
    ["sigmoid", "sigmoid", "squared_error", 2],
    ["sigmoid", "softmax", "cross_entropy", 3],
    ["tanh", "softmax", "squared_error", 3],
    ["tanh", "sigmoid", "cross_entropy", 1],
    ["relu", "identity", "squared_error", 2],
  ];
  for (const [activation, output, loss, out] of combos) {
    test(`${activation} hidden, ${output} output, ${loss}, two hidden layers, alpha = 0.3, batch of 3`, () => {
      const spec: NetworkSpec = { sizes: [4, 5, 3, out], activation, output, loss };
      const rng = createRng(3);
      const params = initialParams(spec, rng);
      for (let i = 0; i < params.length; i++) params[i] *= 3; // leave the near-linear regime
      const X = Float64Array.from({ length: 12 }, () => rng.normal());
      const Y = new Float64Array(3 * out);
      for (let r = 0; r < 3; r++) {
        if (output === "identity") for (let j = 0; j < out; j++) Y[r * out + j] = rng.normal();
        else if (out === 1) Y[r] = r % 2;
        else Y[r * out + (r % out)] = 1;
      }
      const net = new Network(spec, 3);
      const grad = new Float64Array(params.length);
      net.lossAndGradient(params, X, Y, 3, 0.3, grad);
      const scratch = new Float64Array(params.length);
      const h = 1e-6;
      for (let k = 0; k < params.length; k++) {
        const p = Float64Array.from(params);
        p[k] += h;
        const up = net.lossAndGradient(p, X, Y, 3, 0.3, scratch);
        p[k] -= 2 * h;
        const down = net.lossAndGradient(p, X, Y, 3, 0.3, scratch);
        const numeric = (up - down) / (2 * h);
        assert.ok(Math.abs(numeric - grad[k]) < 1e-7 * Math.max(1, Math.abs(numeric)), `param ${k}: ${grad[k]} vs ${numeric}`);
      }
    });
  }
});

describe("a batch larger than the network's capacity", () => {
  test("goes through in pieces whose summed gradient is the whole batch's (bp accumulated on many rows stays in bounded buffers)", () => {
    const spec: NetworkSpec = { sizes: [3, 6, 4, 3], activation: "tanh", output: "softmax", loss: "cross_entropy" };
    const rng = createRng(5);
    const params = initialParams(spec, rng);
    const B = 50;
    const X = Float64Array.from({ length: B * 3 }, () => rng.normal());
    const Y = new Float64Array(B * 3);
    for (let r = 0; r < B; r++) Y[r * 3 + (r % 3)] = 1;
    const whole = new Float64Array(params.length);
    const pieces = new Float64Array(params.length);
    const a = new Network(spec, B).lossAndGradient(params, X, Y, B, 0.2, whole);
    const b = new Network(spec, 7).lossAndGradient(params, X, Y, B, 0.2, pieces);
    assert.ok(Math.abs(a - b) < 1e-12, `${a} vs ${b}`);
    for (let k = 0; k < params.length; k++) assert.ok(Math.abs(whole[k] - pieces[k]) < 1e-12, `param ${k}: ${whole[k]} vs ${pieces[k]}`);
    assert.ok(whole.some((g) => Math.abs(g) > 1e-3), "a gradient worth comparing");
  });
});
