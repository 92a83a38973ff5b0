import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { linearRegression } from "../../../src/models/linear/linear-regression.js";
import { ridge } from "../../../src/models/linear/ridge.js";
import { lasso } from "../../../src/models/linear/lasso.js";
import { elasticNet } from "../../../src/models/linear/elastic-net.js";
import { METHODS } from "../../../src/models/optim/minimize.js";
import { UnusableInputError } from "../../../src/models/contract.js";
import { assertClose, ctx, frame, names, regressionSet, roundTrip } from "./helpers.js";
import type { Algorithm } from "../../../src/models/contract.js";
import type { RegressorState } from "../../../src/models/linear/linear-state.js";

/** Well-conditioned synthetic problem: 300 rows, 4 features on different scales. */
function synthetic(seed = 5, noise = 0.3) {
  const rng = createRng(seed);
  const scales = [1, 10, 0.1, 3];
  const beta = [2, -0.3, 15, 0.5];
  const rows: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < 300; i++) {
    const r = scales.map((s) => s * rng.normal() + 1);
    rows.push(r);
    y.push(4 + r.reduce((a, v, j) => a + v * beta[j], 0) + noise * rng.normal());
  }
  return { X: frame(names(4), rows), y, beta };
}

describe("linear_regression: closed form and every solver agree", () => {
  const { X, y } = synthetic();
  const exact = linearRegression.fit(regressionSet(X, y), linearRegression.params.parse({}), ctx());
  const tuned: Record<string, object> = {
    adagrad: { learning_rate_init: 1, max_iter: 20000 },
    rmsprop: { learning_rate_init: 0.01, learning_rate: "adaptive", max_iter: 20000 },
    adam: { learning_rate_init: 0.05, max_iter: 20000 },
    momentum: { learning_rate_init: 0.05 },
    nesterov: { learning_rate_init: 0.05 },
  };
  for (const solver of METHODS) {
    test(solver, () => {
      const params = linearRegression.params.parse({ solver, tol: 1e-10, max_iter: 5000, ...tuned[solver] });
      const state = linearRegression.fit(regressionSet(X, y), params, ctx());
      assertClose(state.coef, exact.coef, 0, 1e-4, solver);
      assert.ok(Math.abs(state.intercept - exact.intercept) < 1e-4, `${solver} intercept ${state.intercept} vs ${exact.intercept}`);
    });
  }
  test("without normalize_features plain gd crawls along the elongated valley (seed 000)", () => {
    const fit = (normalize_features: boolean) =>
      linearRegression.fit(regressionSet(X, y), linearRegression.params.parse({ solver: "gd", normalize_features, learning_rate_init: normalize_features ? 0.1 : 0.004, max_iter: 300, tol: 1e-8 }), ctx());
    const fast = fit(true);
    const slow = fit(false);
    assert.equal(fast.diagnostics.converged, true);
    assert.equal(slow.diagnostics.converged, false);
    assert.ok(slow.diagnostics.grad_norm! > 1e-3);
  });
  test("a run stopped by max_iter is kept and says converged: false", () => {
    const state = linearRegression.fit(regressionSet(X, y), linearRegression.params.parse({ solver: "gd", max_iter: 3 }), ctx());
    assert.deepEqual({ ...state.diagnostics, loss: 0, grad_norm: 0 }, { solver: "gd", converged: false, iterations: 3, loss: 0, grad_norm: 0 });
    assert.ok(state.coef.every(Number.isFinite));
  });
});

describe("least squares on a rank-deficient design", () => {
  test("a duplicated column gets the minimum-norm split, not an inversion of a singular matrix", () => {
    const rng = createRng(2);
    const rows: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 50; i++) {
      const a = rng.normal();
      const b = rng.normal();
      rows.push([a, a, b]);
      y.push(1 + 3 * a - b);
    }
    const state = linearRegression.fit(regressionSet(frame(["a", "a_copy", "b"], rows), y), linearRegression.params.parse({}), ctx());
    assertClose(state.coef, [1.5, 1.5, -1], 0, 1e-10);
    assert.ok(Math.abs(state.intercept - 1) < 1e-10);
  });
  test("a full one-hot block with an intercept predicts the group means", () => {
    // Three groups, every level one-hot encoded: columns sum to the intercept column.
    const rows: number[][] = [];
    const y: number[] = [];
    const means = [10, 20, 40];
    for (let i = 0; i < 30; i++) {
      const g = i % 3;
      rows.push([g === 0 ? 1 : 0, g === 1 ? 1 : 0, g === 2 ? 1 : 0]);
      y.push(means[g] + (i % 2 === 0 ? 1 : -1));
    }
    const X = frame(["g0", "g1", "g2"], rows);
    const state = linearRegression.fit(regressionSet(X, y), linearRegression.params.parse({}), ctx());
    const pred = linearRegression.predict(state, frame(["g0", "g1", "g2"], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]));
    assert.equal(pred.task, "regression");
    if (pred.task === "regression") assertClose(pred.values, [10, 20, 40], 0, 1e-9);
    // Minimum norm: the coefficients sum to zero across the block (the intercept takes the mean).
    assert.ok(Math.abs(state.coef[0] + state.coef[1] + state.coef[2]) < 1e-9);
  });
});

describe("ridge: closed form and iterative solvers agree", () => {
  const { X, y } = synthetic(8);
  const exact = ridge.fit(regressionSet(X, y), ridge.params.parse({ alpha: 25 }), ctx());
  for (const solver of ["lbfgs", "bfgs", "dfp", "newton", "gd", "adam"] as const) {
    test(solver, () => {
      const extra = solver === "adam" ? { learning_rate_init: 0.05, max_iter: 20000 } : {};
      const state = ridge.fit(regressionSet(X, y), ridge.params.parse({ alpha: 25, solver, tol: 1e-10, max_iter: 5000, ...extra }), ctx());
      assertClose(state.coef, exact.coef, 0, 1e-4, solver);
    });
  }
  test("alpha shrinks the coefficient norm", () => {
    const norm = (alpha: number) => ridge.fit(regressionSet(X, y), ridge.params.parse({ alpha }), ctx()).coef.reduce((a, v) => a + v * v, 0);
    assert.ok(norm(1000) < norm(10) && norm(10) < norm(0));
  });
});

describe("lasso and elastic net", () => {
  test("lasso puts irrelevant features at exactly zero", () => {
    const rng = createRng(9);
    const rows: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 200; i++) {
      const r = Array.from({ length: 8 }, () => rng.normal());
      rows.push(r);
      y.push(3 * r[0] - 2 * r[3] + 0.1 * rng.normal());
    }
    const state = lasso.fit(regressionSet(frame(names(8), rows), y), lasso.params.parse({ alpha: 0.5 }), ctx());
    [1, 2, 4, 5, 6, 7].forEach((j) => assert.equal(state.coef[j], 0, `x${j}`));
    // Shrunk by about alpha from the true 3 and −2 (the soft threshold of a near-orthogonal design).
    assert.ok(Math.abs(state.coef[0] - 2.5) < 0.15 && Math.abs(state.coef[3] + 1.5) < 0.15, `${state.coef[0]}, ${state.coef[3]}`);
  });
  test("elastic net with l1_ratio 1 is lasso", () => {
    const { X, y } = synthetic(3);
    const a = lasso.fit(regressionSet(X, y), lasso.params.parse({ alpha: 0.5, tol: 1e-10 }), ctx());
    const b = elasticNet.fit(regressionSet(X, y), elasticNet.params.parse({ alpha: 0.5, l1_ratio: 1, tol: 1e-10 }), ctx());
    assert.deepEqual(a.coef, b.coef);
  });
  test("random selection is seeded: same seed, same model", () => {
    const { X, y } = synthetic(4);
    const params = lasso.params.parse({ alpha: 0.3, selection: "random", max_iter: 5 });
    const a = lasso.fit(regressionSet(X, y), params, ctx(42));
    const b = lasso.fit(regressionSet(X, y), params, ctx(42));
    assert.deepEqual(a, b);
  });
});

describe("contract: save → load, explain, input checks", () => {
  const { X, y } = synthetic(6);
  const algorithms = [
    [linearRegression, { solver: "adam", batch_size: 16, max_iter: 20 }],
    [ridge, {}],
    [lasso, { alpha: 0.2 }],
    [elasticNet, { alpha: 0.2 }],
  ] as const;
  for (const [algo, raw] of algorithms) {
    const algorithm = algo as Algorithm<unknown, RegressorState>;
    test(`${algorithm.name}: identical predictions after a round trip`, () => {
      const state = algorithm.fit(regressionSet(X, y), algorithm.params.parse(raw), ctx(3));
      const back = roundTrip(algorithm, state);
      assert.deepEqual(back, state);
      assert.deepEqual(algorithm.predict(back, X), algorithm.predict(state, X));
    });
  }
  test("same seed → identical state for a stochastic solver; another seed differs", () => {
    const params = linearRegression.params.parse({ solver: "gd", batch_size: 1, max_iter: 5 });
    const a = linearRegression.fit(regressionSet(X, y), params, ctx(7));
    const b = linearRegression.fit(regressionSet(X, y), params, ctx(7));
    const c = linearRegression.fit(regressionSet(X, y), params, ctx(8));
    assert.deepEqual(a, b);
    assert.notDeepEqual(a.coef, c.coef);
  });
  test("explain gives coefficients, intercept and |standardised coefficient| importances by feature", () => {
    const state = linearRegression.fit(regressionSet(X, y), linearRegression.params.parse({}), ctx());
    const e = linearRegression.explain!(state) as { coefficients: Record<string, number>; intercept: number; feature_importances: Record<string, number> };
    assert.deepEqual(Object.keys(e.coefficients), ["x0", "x1", "x2", "x3"]);
    assert.equal(e.coefficients.x2, state.coef[2]);
    assert.equal(e.intercept, state.intercept);
    // x2 has scale 0.1 and coefficient ~15: importance ~1.5; x1 has scale 10 and ~−0.3: ~3.
    assert.ok(Math.abs(e.feature_importances.x2 - 1.5) < 0.2 && Math.abs(e.feature_importances.x1 - 3) < 0.4, JSON.stringify(e.feature_importances));
  });
  test("categorical or missing input is refused with a pointer to the pipeline", () => {
    const cat = { rowCount: 2, columns: [{ type: "categorical" as const, name: "c", codes: Int32Array.from([0, 1]), levels: ["a", "b"] }] };
    assert.throws(() => linearRegression.fit(regressionSet(cat, [1, 2]), linearRegression.params.parse({}), ctx()), UnusableInputError);
    const gap = frame(["a"], [[1], [NaN]]);
    assert.throws(() => ridge.fit(regressionSet(gap, [1, 2]), ridge.params.parse({}), ctx()), /impute/);
  });
  test("every parameter has a default", () => {
    for (const [algorithm] of algorithms) assert.ok(Object.keys(algorithm.params.parse({}) as object).length > 0);
  });
});

