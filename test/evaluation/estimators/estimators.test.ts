import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { biasVarianceDecomposition, bootstrap632 } from "../../../src/evaluation/index.js";
import { assertClose } from "../helpers.js";

describe(".632 bootstrap", () => {
  test("blends 0.368 of the training error with 0.632 of the out-of-bag error, averaged over rounds", () => {
    const r = bootstrap632([0.0, 0.1], [0.3, 0.4]);
    assertClose(r.estimate, (0.632 * 0.3 + 0.632 * 0.4 + 0.368 * 0.1) / 2, 1e-15, "estimate");
    assertClose(r.train_mean, 0.05, 1e-15, "train");
    assertClose(r.oob_mean, 0.35, 1e-15, "oob");
    assert.equal(r.rounds, 2);
  });

  test("no rounds: null estimate; mismatched lists: error", () => {
    assert.equal(bootstrap632([], []).estimate, null);
    assert.throws(() => bootstrap632([0.1], []), RangeError);
  });
});

describe("bias–variance decomposition (seed 002)", () => {
  test("hand example: two models, two rows, labels observed only", () => {
    // models predict [1, 3] and [3, 5]; y_D = [2, 2]
    const r = biasVarianceDecomposition({ predictions: [1, 3, 3, 5], nModels: 2, yObserved: [2, 2] });
    // f̄ = [2, 4]; var = [1, 1] → 1; bias² = [0, 4] → 2; noise 0; error = mean(1,1,1,9) = 3
    assert.deepEqual(
      { error: r.error, bias2: r.bias2, variance: r.variance, noise: r.noise, true_label: r.true_label },
      { error: 3, bias2: 2, variance: 1, noise: 0, true_label: "observed" },
    );
  });

  test("repeated x: noise is the labels' spread around their group mean, and the parts add up exactly", () => {
    const rng = createRng(4);
    const nModels = 7;
    const n = 40;
    const groups = Float64Array.from({ length: n }, (_, i) => i % 10); // ten distinct x, four labels each
    const yObserved = Float64Array.from(groups, (g) => g * 0.5 + rng.normal());
    const predictions = new Float64Array(nModels * n);
    const offsets = Array.from({ length: nModels }, () => rng.normal() * 0.3);
    for (let r = 0; r < nModels; r++) for (let i = 0; i < n; i++) predictions[r * n + i] = 0.45 * groups[i] + offsets[r];
    const d = biasVarianceDecomposition({ predictions, nModels, yObserved, groups });
    assert.equal(d.true_label, "group_mean");
    assert.ok(d.noise > 0.3 && d.noise < 2, `noise ${d.noise} near the unit label noise`);
    assertClose(d.error, d.bias2 + d.variance + d.noise, 1e-12, "error = bias² + var + ε²");
    const mean = offsets.reduce((a, b) => a + b) / nModels;
    assertClose(d.variance, offsets.reduce((s, o) => s + (o - mean) ** 2, 0) / nModels, 1e-12, "variance of the offsets");
  });

  test("with the true function known: bias² measures the systematic miss", () => {
    const yTrue = [0, 1, 2, 3];
    const yObserved = [0.5, 0.5, 2.5, 2.5];
    const predictions = [1, 2, 3, 4, 1, 2, 3, 4]; // two identical models, each 1 above the truth
    const d = biasVarianceDecomposition({ predictions, nModels: 2, yObserved, yTrue });
    assert.deepEqual([d.bias2, d.variance, d.noise, d.true_label], [1, 0, 0.25, "given"]);
  });

  test("shape errors", () => {
    assert.throws(() => biasVarianceDecomposition({ predictions: [1, 2, 3], nModels: 2, yObserved: [1, 2] }), RangeError);
    assert.throws(() => biasVarianceDecomposition({ predictions: [], nModels: 0, yObserved: [] }), RangeError);
  });
});
