import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { linearRegression } from "../../../src/models/linear/linear-regression.js";
import { ridge } from "../../../src/models/linear/ridge.js";
import { lasso } from "../../../src/models/linear/lasso.js";
import { elasticNet } from "../../../src/models/linear/elastic-net.js";
import type { Algorithm } from "../../../src/models/contract.js";
import type { RegressorState } from "../../../src/models/linear/linear-state.js";
import { assertClose, ctx, fixture, frame, regressionSet } from "./helpers.js";

interface Case {
  estimator: string;
  params: Record<string, number>;
  weighted: boolean;
  coef: number[];
  intercept: number;
}
const data = fixture<{ features: string[]; X: number[][]; y: number[]; weights: number[]; cases: Case[] }>("diabetes_regression.json");
const X = frame(data.features, data.X);

// Relative to the largest coefficient (diabetes coefficients run to ~800).
const REL = 1e-4;

const runs: Record<string, (c: Case) => { algorithm: Algorithm<unknown, RegressorState>; params: unknown }> = {
  LinearRegression: () => ({ algorithm: linearRegression as Algorithm<unknown, RegressorState>, params: linearRegression.params.parse({}) }),
  Ridge: (c) => ({ algorithm: ridge as Algorithm<unknown, RegressorState>, params: ridge.params.parse({ alpha: c.params.alpha }) }),
  Lasso: (c) => ({ algorithm: lasso as Algorithm<unknown, RegressorState>, params: lasso.params.parse({ alpha: c.params.alpha, tol: 1e-12, max_iter: 100_000 }) }),
  ElasticNet: (c) => ({
    algorithm: elasticNet as Algorithm<unknown, RegressorState>,
    params: elasticNet.params.parse({ alpha: c.params.alpha, l1_ratio: c.params.l1_ratio, tol: 1e-12, max_iter: 100_000 }),
  }),
};

describe("against scikit-learn 1.2 on diabetes (coefficients within 1e-4 relative)", () => {
  for (const c of data.cases) {
    test(`${c.estimator} ${JSON.stringify(c.params)}${c.weighted ? " weighted" : ""}`, () => {
      const { algorithm, params } = runs[c.estimator](c);
      const state = algorithm.fit(regressionSet(X, data.y, c.weighted ? data.weights : undefined), params, ctx());
      assertClose(state.coef, c.coef, REL, 1e-9, c.estimator);
      assert.ok(Math.abs(state.intercept - c.intercept) < REL * Math.abs(c.intercept), `intercept ${state.intercept} vs ${c.intercept}`);
      assert.equal(state.diagnostics.converged, true);
    });
  }
  test("lasso's zeros are where scikit-learn's are", () => {
    const c = data.cases.find((k) => k.estimator === "Lasso" && !k.weighted)!;
    const state = lasso.fit(regressionSet(X, data.y), lasso.params.parse({ alpha: 0.1, tol: 1e-12, max_iter: 100_000 }), ctx());
    const zeros = c.coef.map((v) => v === 0);
    assert.ok(zeros.some(Boolean), "the fixture has exact zeros");
    assert.deepEqual([...state.coef].map((v) => v === 0), zeros);
  });
  test("R² of least squares on diabetes is the textbook 0.518", () => {
    const state = linearRegression.fit(regressionSet(X, data.y), linearRegression.params.parse({}), ctx());
    const pred = linearRegression.predict(state, X);
    assert.equal(pred.task, "regression");
    if (pred.task !== "regression") return;
    const mean = data.y.reduce((a, b) => a + b, 0) / data.y.length;
    let ssr = 0;
    let sst = 0;
    data.y.forEach((v, i) => {
      ssr += (v - pred.values[i]) ** 2;
      sst += (v - mean) ** 2;
    });
    assert.ok(Math.abs(1 - ssr / sst - 0.5177) < 1e-3, `R² ${1 - ssr / sst}`);
  });
});
