/**
 * Explanations are built on the request thread: their size is bounded whatever the
 * model's (issue 10 follow-up). SVM/SVR list at most max_values coefficients, an MLP
 * at most max_values weights per layer, a tree node its best 20 split candidates.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../src/data/random.js";
import { makeFrame, type Frame } from "../../src/data/frame.js";
import type { FitContext } from "../../src/models/contract.js";
import { EXPLAIN_DEFAULT_MAX_VALUES } from "../../src/models/explain-bounds.js";
import { mlp } from "../../src/models/neural/mlp.js";
import { mlpParams } from "../../src/models/neural/params.js";
import { svm, svmParams } from "../../src/models/svm/svm.js";
import { svr, svrParams } from "../../src/models/svm/svr.js";
import { cart } from "../../src/models/tree/cart.js";
import { EXPLAIN_MAX_CANDIDATES, type TreeExplanation } from "../../src/models/tree/explain.js";

const ctx = (): FitContext => ({ rng: createRng(1), progress: () => {} });

/** n rows × d columns of seeded noise. */
function noise(n: number, d: number, seed = 3): Frame {
  const rng = createRng(seed);
  return makeFrame(Array.from({ length: d }, (_, j) => ({ type: "numeric" as const, name: `x${j}`, values: Float64Array.from({ length: n }, () => rng.normal()) })));
}

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

describe("svr", () => {
  // Noise targets with a tiny epsilon: nearly every row is a support vector.
  const X = noise(1500, 3);
  const rng = createRng(9);
  const state = svr.fit({ X, target: { task: "regression", y: Float64Array.from({ length: 1500 }, () => rng.normal()) } }, svrParams.parse({ epsilon: 0.001 }), ctx());

  test("lists at most max_values dual coefficients and says it left some out; the counts are whole", () => {
    const e = svr.explain!(state) as { n_support: number; dual_coef: number[]; dual_coef_truncated?: boolean };
    assert.ok(e.n_support > EXPLAIN_DEFAULT_MAX_VALUES, `${e.n_support} support vectors`);
    assert.equal(e.dual_coef.length, EXPLAIN_DEFAULT_MAX_VALUES);
    assert.equal(e.dual_coef_truncated, true);
    const small = svr.explain!(state, { maxValues: 10 }) as { dual_coef: number[] };
    assert.deepEqual(small.dual_coef, Array.from(state.model.coef.subarray(0, 10)));
    assert.ok(bytes(small) < 1000, `${bytes(small)} bytes`);
  });

  test("a linear kernel's coefficients by feature come first and are bounded too", () => {
    const wide = noise(200, 40);
    const y = Float64Array.from({ length: 200 }, (_, i) => wide.columns.reduce((s, c) => s + (c as { values: Float64Array }).values[i], 0));
    const linear = svr.fit({ X: wide, target: { task: "regression", y } }, svrParams.parse({ kernel: "linear" }), ctx());
    const e = svr.explain!(linear, { maxValues: 15 }) as { coefficients: Record<string, number>; coefficients_truncated?: boolean; dual_coef: number[] };
    assert.deepEqual(Object.keys(e.coefficients), Array.from({ length: 15 }, (_, j) => `x${j}`));
    assert.equal(e.coefficients_truncated, true);
    assert.deepEqual(e.dual_coef, []);
  });
});

describe("svm", () => {
  test("one-vs-one with 12 classes: problems listed while the allowance lasts, each list cut and flagged", () => {
    const n = 600;
    const X = noise(n, 4);
    const classes = Array.from({ length: 12 }, (_, k) => `c${String(k).padStart(2, "0")}`);
    const state = svm.fit({ X, target: { task: "classification", y: Int32Array.from({ length: n }, (_, i) => i % 12), classes } }, svmParams.parse({}), ctx());
    const full = svm.explain!(state, { maxValues: 1e9 }) as { problems: { dual_coef: number[] }[] };
    const allCoefficients = full.problems.reduce((s, p) => s + p.dual_coef.length, 0);
    const e = svm.explain!(state, { maxValues: 120 }) as {
      problem_count: number;
      problems_truncated: boolean;
      total_support_vectors: number;
      problems: { dual_coef: number[]; dual_coef_truncated?: boolean }[];
    };
    assert.equal(e.problem_count, 66);
    assert.equal(e.total_support_vectors, allCoefficients);
    assert.ok(e.problems_truncated && e.problems.length < 66, `${e.problems.length} problems listed`);
    assert.ok(e.problems.reduce((s, p) => s + p.dual_coef.length, 0) <= 120);
    assert.ok(bytes(e) * 5 < bytes(full), `${bytes(e)} bytes bounded against ${bytes(full)}`);
    const cut = e.problems.find((p) => p.dual_coef_truncated);
    assert.ok(cut, "the problem where the allowance ran out is flagged");
  });
});

describe("mlp", () => {
  test("a 2 × 300 network lists its layer shapes and at most max_values weights per layer", () => {
    const n = 100;
    const X = noise(n, 50);
    const state = mlp.fit({ X, target: { task: "classification", y: Int32Array.from({ length: n }, (_, i) => i % 2), classes: ["a", "b"] } }, mlpParams.parse({ hidden_layer_sizes: [300, 300], max_iter: 1 }), ctx());
    type Layer = { shape: { inputs: number; units: number }; inputs: string[]; units: string[]; weights: number[][]; biases: number[]; truncated: boolean };
    const e = mlp.explain!(state) as { layers: Layer[] };
    assert.deepEqual(e.layers.map((l) => [l.shape.inputs, l.shape.units]), [[50, 300], [300, 300], [300, 1]]);
    for (const l of e.layers) {
      const listed = l.weights.reduce((s, row) => s + row.length, 0);
      assert.ok(listed <= EXPLAIN_DEFAULT_MAX_VALUES, `${listed} weights listed`);
      assert.equal(l.weights.length, l.inputs.length, "one input name per listed row");
      assert.equal(l.weights[0].length, l.units.length, "one unit name per listed column");
    }
    assert.deepEqual(e.layers.map((l) => l.truncated), [true, true, false]);
    assert.ok(bytes(e) < 100_000, `${bytes(e)} bytes (the weights alone are 105,300 numbers)`);
    // The listed weights are the state's: row i of layer 0 starts at i × 300.
    assert.deepEqual(e.layers[0].weights[1].slice(0, 3), Array.from(state.params.subarray(300, 303)));
  });
});

describe("tree candidates", () => {
  test("a node lists its best 20 candidates by score, in column order, and counts the rest", () => {
    const n = 400;
    const X = noise(n, 60);
    const x7 = (X.columns[7] as { values: Float64Array }).values;
    const y = Int32Array.from(x7, (v) => (v > 0 ? 1 : 0));
    const state = cart.fit({ X, target: { task: "classification", y, classes: ["n", "p"] } }, cart.params.parse({ max_depth: 1 }), ctx());
    const root = (cart.explain!(state) as TreeExplanation).tree;
    const split = root.split!;
    assert.equal(split.candidates.length, EXPLAIN_MAX_CANDIDATES);
    assert.equal(split.more_candidates, 60 - EXPLAIN_MAX_CANDIDATES);
    const listed = split.candidates.map((c) => Number(c.feature.slice(1)));
    assert.deepEqual(listed, [...listed].sort((a, b) => a - b), "column order");
    assert.ok(listed.includes(7), "the chosen split is among them");
    // gini_index: lower is better, so no left-out candidate scores below the worst listed one.
    const worstListed = Math.max(...split.candidates.map((c) => c.score));
    const all = [...state.candScore.subarray(state.candOffset[0], state.candOffset[1])];
    assert.equal(all.length, 60);
    assert.ok(all.filter((s) => s < worstListed).length < EXPLAIN_MAX_CANDIDATES);
  });
});
