// rbf_network (seed 003, §5.5.1): XOR solved by four units at the four points, worked by hand;
// accuracy floors on scikit-learn's iris / breast cancer / digits splits and diabetes.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame } from "../../../src/data/frame.js";
import { rbfNetwork, rbfNetworkParams, rbfNetworkState } from "../../../src/models/neural/rbf-network.js";
import { accuracy, context, labelsOf, loadDataset, probaOf, r2, split, standardised, valuesOf } from "../../fixtures/svm-mlp/load.js";

const X = makeFrame([
  { type: "numeric", name: "x1", values: Float64Array.of(0, 0, 1, 1) },
  { type: "numeric", name: "x2", values: Float64Array.of(0, 1, 0, 1) },
]);
const xor = Int32Array.of(0, 1, 1, 0);
const point = (x1: number, x2: number) =>
  makeFrame([
    { type: "numeric", name: "x1", values: Float64Array.of(x1) },
    { type: "numeric", name: "x2", values: Float64Array.of(x2) },
  ]);

describe("XOR with one unit per point (β = 1, no penalty)", () => {
  const params = rbfNetworkParams.parse({ n_centers: 4, centers: "random_rows", gamma: { kind: "value", value: 1 }, alpha: 0 });

  test("regression on the 0/1 target: interpolates, with the weights worked by hand", () => {
    const state = rbfNetwork.fit({ X, target: { task: "regression", y: Float64Array.from(xor) } }, params, context(3));
    const out = valuesOf(rbfNetwork.predict(state, X));
    out.forEach((v, i) => assert.ok(Math.abs(v - xor[i]) < 1e-9, `row ${i}: ${v}`));
    // Φ has eigenvector 1 (eigenvalue 1 + 2/e + 1/e²) and (−1, 1, 1, −1) (eigenvalue (1 − 1/e)²);
    // centring the columns removes the first, so the minimum-norm weights are ±u on the second,
    // u = 1 / (2(1 − 1/e)²) = 1.25131…, and the bias is the mean target ½.
    const u = 1 / (2 * (1 - 1 / Math.E) ** 2);
    for (let i = 0; i < 4; i++) {
      const c = state.centers.subarray(2 * i, 2 * i + 2);
      const sign = c[0] !== c[1] ? 1 : -1;
      assert.ok(Math.abs(state.weights[i] - sign * u) < 1e-9, `unit at (${c[0]}, ${c[1]}): ${state.weights[i]}`);
    }
    assert.ok(Math.abs(state.biases[0] - 0.5) < 1e-9);
    // The middle is equally near every unit: the weights cancel, the bias is left.
    assert.ok(Math.abs(valuesOf(rbfNetwork.predict(state, point(0.5, 0.5)))[0] - 0.5) < 1e-9);
  });

  test("classification: every row right, probabilities sum to 1", () => {
    const state = rbfNetwork.fit({ X, target: { task: "classification", y: xor, classes: ["0", "1"] } }, params, context(3));
    const prediction = rbfNetwork.predict(state, X);
    assert.deepEqual(Array.from(labelsOf(prediction)), [0, 1, 1, 0]);
    const p = probaOf(prediction);
    for (let i = 0; i < 4; i++) {
      assert.ok(Math.abs(p[2 * i] + p[2 * i + 1] - 1) < 1e-12);
      assert.ok(Math.abs(p[2 * i + xor[i]] - 1) < 1e-9, `row ${i}: ${p[2 * i + xor[i]]}`);
    }
  });

  test("the mean-distance width: σ = (4·1 + 2·√2)/6 between the four points, β = 1/(2σ²)", () => {
    const state = rbfNetwork.fit({ X, target: { task: "classification", y: xor, classes: ["0", "1"] } }, rbfNetworkParams.parse({ n_centers: 4, centers: "random_rows", alpha: 0 }), context(3));
    const sigma = (4 + 2 * Math.SQRT2) / 6;
    assert.ok(Math.abs(state.gamma - 1 / (2 * sigma * sigma)) < 1e-12, String(state.gamma));
    assert.deepEqual(Array.from(labelsOf(rbfNetwork.predict(state, X))), [0, 1, 1, 0]);
  });

  test("a single unit cannot separate XOR (a radial function of one centre puts two rows of different classes at equal distance)", () => {
    const state = rbfNetwork.fit({ X, target: { task: "classification", y: xor, classes: ["0", "1"] } }, rbfNetworkParams.parse({ n_centers: 1, alpha: 0 }), context(3));
    const labels = labelsOf(rbfNetwork.predict(state, X));
    assert.ok(labels.filter((l, i) => l === xor[i]).length < 4);
  });
});

describe("accuracy on real data (standardised with the training rows, scikit-learn's splits)", () => {
  for (const [name, params, floor] of [
    ["iris", { n_centers: 10 }, 0.95],
    ["breast_cancer", { n_centers: 30 }, 0.93],
    ["digits", { n_centers: 30 }, 0.9],
    ["iris", { n_centers: 10, centers: "random_rows" }, 0.95],
  ] as const) {
    test(`${name} ${JSON.stringify(params)}: accuracy ≥ ${floor}`, () => {
      const ds = loadDataset(name);
      const s = split(ds, standardised(ds));
      const state = rbfNetwork.fit(s.train, rbfNetworkParams.parse(params), context(1));
      const acc = accuracy(labelsOf(rbfNetwork.predict(state, s.testX)), s.testY);
      assert.ok(acc >= floor, `${acc}`);
    });
  }

  test("diabetes: R² ≥ 0.3 with 10 units", () => {
    const ds = loadDataset("diabetes");
    const s = split(ds, standardised(ds));
    const state = rbfNetwork.fit(s.train, rbfNetworkParams.parse({ n_centers: 10 }), context(1));
    const score = r2(valuesOf(rbfNetwork.predict(state, s.testX)), s.testY);
    assert.ok(score >= 0.3, `${score}`);
  });
});

describe("state", () => {
  const ds = loadDataset("iris");
  const s = split(ds, standardised(ds));

  test("same seed, same model; another seed, other random rows", () => {
    const params = rbfNetworkParams.parse({ n_centers: 5, centers: "random_rows" });
    const a = rbfNetwork.fit(s.train, params, context(7));
    assert.deepEqual(rbfNetwork.fit(s.train, params, context(7)), a);
    assert.notDeepEqual(rbfNetwork.fit(s.train, params, context(8)).centers, a.centers);
  });

  test("never more units than training rows", () => {
    const state = rbfNetwork.fit({ X, target: { task: "regression", y: Float64Array.from(xor) } }, rbfNetworkParams.parse({ n_centers: 50, centers: "random_rows" }), context(1));
    assert.equal(state.centers.length, 8);
  });

  test("the schema refuses shapes that do not chain, and non-finite weights", () => {
    const state = rbfNetwork.fit(s.train, rbfNetworkParams.parse({ n_centers: 5 }), context(1));
    assert.ok(rbfNetworkState.safeParse(state).success);
    assert.ok(!rbfNetworkState.safeParse({ ...state, weights: state.weights.subarray(1) }).success);
    assert.ok(!rbfNetworkState.safeParse({ ...state, centers: state.centers.subarray(1) }).success);
    assert.ok(!rbfNetworkState.safeParse({ ...state, biases: Float64Array.of(0, 0) }).success);
    const bad = Float64Array.from(state.weights);
    bad[3] = NaN;
    assert.ok(!rbfNetworkState.safeParse({ ...state, weights: bad }).success);
  });

  test("explain lists β, the outputs' weights and the centres within max_values", () => {
    const state = rbfNetwork.fit(s.train, rbfNetworkParams.parse({ n_centers: 10 }), context(1));
    const full = rbfNetwork.explain!(state) as { gamma: number; outputs: { weights: number[] }[]; centers: unknown[] };
    assert.equal(full.gamma, state.gamma);
    assert.equal(full.outputs.length, 3);
    assert.equal(full.centers.length, 10);
    const cut = rbfNetwork.explain!(state, { maxValues: 15 }) as { outputs: { weights: number[]; truncated?: boolean }[]; centers_truncated?: boolean };
    assert.equal(cut.outputs.reduce((t, o) => t + o.weights.length, 0), 15);
    assert.equal(cut.centers_truncated, true);
  });
});
