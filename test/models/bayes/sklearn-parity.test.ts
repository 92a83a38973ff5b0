/**
 * naive_bayes against scikit-learn's GaussianNB and CategoricalNB on the same rows
 * (fixtures from scripts/fixtures/bayes_sklearn.py, scikit-learn version recorded in
 * the JSON). GaussianNB's conventions are params here: population variance, the
 * empirical class prior; CategoricalNB's: alpha, empirical prior. Probabilities to 1e-6.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { takeRows } from "../../../src/data/frame.js";
import { naiveBayes, naiveBayesParams } from "../../../src/models/bayes/naive-bayes.js";
import { ctx, fixturePath, readCsv, realData, trainingSet } from "../tree/fixtures.js";
import { probaOf } from "./helpers.js";

interface GaussianCase {
  dataset: "iris" | "wine" | "breast-cancer";
  name: string;
  var_smoothing: number;
  weights: number[] | null;
  classes: string[];
  theta: number[];
  var: number[];
  proba: number[];
}
interface CategoricalCase {
  dataset: string;
  name: string;
  train_rows: number;
  alpha: number;
  weights: number[] | null;
  classes: string[];
  proba: number[];
}

const ref = JSON.parse(readFileSync(fixturePath("bayes/sklearn-nb.json"), "utf8")) as { sklearn_version: string; gaussian: GaussianCase[]; categorical: CategoricalCase[] };

function close(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number, what: string): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) assert.ok(Math.abs(actual[i] - expected[i]) <= tol, `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
}

describe(`naive_bayes vs GaussianNB (scikit-learn ${ref.sklearn_version})`, () => {
  for (const c of ref.gaussian) {
    test(c.name, () => {
      const d = realData(c.dataset);
      assert.deepEqual((d.train.target as { classes: readonly string[] }).classes, c.classes);
      const params = naiveBayesParams.parse({ variance: "population", class_prior: "empirical", var_smoothing: c.var_smoothing });
      const s = naiveBayes.fit({ ...d.train, ...(c.weights ? { weights: Float64Array.from(c.weights) } : {}) }, params, ctx());
      close(s.mean, c.theta, 1e-9, "theta");
      // var_ includes epsilon; relative tolerance (breast cancer's variances reach 1e5).
      s.var.forEach((v, i) => assert.ok(Math.abs(v - c.var[i]) <= 1e-9 * Math.max(1, c.var[i]), `var[${i}]: ${v} vs ${c.var[i]}`));
      close(probaOf(naiveBayes.predict(s, d.testX)), c.proba, 1e-6, "proba");
    });
  }
});

describe(`naive_bayes vs CategoricalNB (scikit-learn ${ref.sklearn_version})`, () => {
  for (const c of ref.categorical) {
    test(c.name, () => {
      const frame = readCsv(c.dataset === "watermelon-2.0.csv" ? c.dataset : `bayes/${c.dataset}`);
      const all = trainingSet(frame, c.dataset === "watermelon-2.0.csv" ? "好瓜" : "y", ["编号"]);
      const n = frame.rowCount;
      const trainRows = Array.from({ length: c.train_rows }, (_, i) => i);
      const testRows = c.train_rows === n ? trainRows : Array.from({ length: n - c.train_rows }, (_, i) => c.train_rows + i);
      const t = all.target as { task: "classification"; y: Int32Array; classes: string[] };
      assert.deepEqual(t.classes, c.classes);
      const train = { X: takeRows(all.X, trainRows), target: { ...t, y: t.y.subarray(0, c.train_rows) }, ...(c.weights ? { weights: Float64Array.from(c.weights) } : {}) };
      const s = naiveBayes.fit(train, naiveBayesParams.parse({ alpha: c.alpha, class_prior: "empirical" }), ctx());
      close(probaOf(naiveBayes.predict(s, takeRows(all.X, testRows))), c.proba, 1e-6, "proba");
    });
  }
});
