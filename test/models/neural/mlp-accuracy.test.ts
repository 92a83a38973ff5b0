// Floors against scikit-learn's MLPClassifier / MLPRegressor with the same settings on
// the same split (scripts/fixtures/svm_mlp_fixtures.py): theirs − 0.03. Inputs are
// standardised with the training rows' statistics on both sides.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mlp } from "../../../src/models/neural/mlp.js";
import { mlpParams } from "../../../src/models/neural/params.js";
import { accuracy, context, labelsOf, loadDataset, r2, readFixture, split, standardised, valuesOf } from "../../fixtures/svm-mlp/load.js";

const ref = readFixture<{ accuracy: Record<string, number>; diabetes_r2: number }>("mlp-reference.json");

// Mirrors the script: logistic (sigmoid) units, adam, alpha 1e-4, every epoch run.
const settings = {
  iris: { hidden_layer_sizes: [16], learning_rate_init: 0.01, max_iter: 300, batch_size: 32 },
  breast_cancer: { hidden_layer_sizes: [32], learning_rate_init: 0.001, max_iter: 200, batch_size: 32 },
  digits: { hidden_layer_sizes: [32], learning_rate_init: 0.01, max_iter: 40, batch_size: 64 },
} as const;

describe("mlp accuracy against scikit-learn's MLPClassifier", () => {
  for (const name of ["iris", "breast_cancer", "digits"] as const) {
    test(name, () => {
      const ds = loadDataset(name);
      const s = split(ds, standardised(ds));
      const s0 = settings[name];
      const state = mlp.fit(s.train, mlpParams.parse({ ...s0, hidden_layer_sizes: [...s0.hidden_layer_sizes], tol: 0, n_iter_no_change: s0.max_iter }), context());
      const acc = accuracy(labelsOf(mlp.predict(state, s.testX)), s.testY);
      assert.ok(acc >= ref.accuracy[name] - 0.03, `${name}: ${acc} vs scikit-learn ${ref.accuracy[name]}`);
    });
  }
});

describe("mlp regression", () => {
  test("diabetes: R² at least scikit-learn's MLPRegressor − 0.03", () => {
    const ds = loadDataset("diabetes");
    const s = split(ds, standardised(ds));
    const params = mlpParams.parse({ hidden_layer_sizes: [16], learning_rate_init: 0.001, max_iter: 200, batch_size: 32, tol: 0, n_iter_no_change: 200 });
    const state = mlp.fit(s.train, params, context());
    const score = r2(valuesOf(mlp.predict(state, s.testX)), s.testY);
    assert.ok(score >= ref.diabetes_r2 - 0.03, `R² ${score} vs scikit-learn ${ref.diabetes_r2}`);
    assert.equal(state.output, "identity");
  });
});
