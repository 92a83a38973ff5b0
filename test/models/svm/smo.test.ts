import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { rowMajor } from "../../../src/models/design-matrix.js";
import { resolveGamma, type KernelSpec } from "../../../src/models/svm/kernel.js";
import { solveSvc } from "../../../src/models/svm/svc-problem.js";
import { solveSvr } from "../../../src/models/svm/svr-problem.js";
import { buildModel, decisionValues } from "../../../src/models/svm/support-vector-model.js";
import { svm, svmParams } from "../../../src/models/svm/svm.js";
import { context, frameOf, loadDataset, split } from "../../fixtures/svm-mlp/load.js";

const settings = (tol: number, shrinking = true, cacheBytes = 1 << 20) => ({ tol, shrinking, maxIter: null, cacheBytes });

function toy() {
  const ds = loadDataset("toy-classification");
  const s = split(ds);
  const X = rowMajor(s.train.X);
  const isClass1 = Uint8Array.from(s.train.target!.y as Int32Array);
  return { X, n: 60, d: 3, isClass1 };
}

describe("SMO solution", () => {
  for (const [kind, C] of [["rbf", 1], ["rbf", 10], ["poly", 1], ["linear", 0.5]] as const) {
    test(`KKT conditions hold within tol (${kind}, C=${C})`, () => {
      const { X, n, d, isClass1 } = toy();
      const tol = 1e-3;
      const kernel: KernelSpec = { kind, gamma: resolveGamma({ kind: "scale" }, X, d), degree: 3, coef0: 1 };
      const Cv = new Float64Array(n).fill(C);
      const sol = solveSvc(X, n, d, isClass1, Cv, kernel, settings(tol));
      assert.ok(sol.solver.gap < tol, `final violation ${sol.solver.gap}`);
      const f = decisionValues(buildModel(kernel, X, d, sol.support, sol.coef, sol.intercept), X, n);
      let balance = 0;
      let free = 0;
      for (let i = 0; i < n; i++) {
        const y = isClass1[i] ? 1 : -1;
        const a = sol.alpha[i];
        const yf = y * f[i];
        balance += a * y;
        assert.ok(a >= 0 && a <= C, `0 ≤ α ≤ C at ${i}`);
        if (a === 0) assert.ok(yf >= 1 - tol, `α=0 needs y·f ≥ 1 at ${i}: ${yf}`);
        else if (a === C) assert.ok(yf <= 1 + tol, `α=C needs y·f ≤ 1 at ${i}: ${yf}`);
        else {
          free++;
          assert.ok(Math.abs(yf - 1) <= tol, `free α needs y·f = 1 at ${i}: ${yf}`);
        }
      }
      assert.ok(Math.abs(balance) < 1e-10, "Σ α_i y_i = 0");
      assert.ok(free > 0);
    });
  }

  test("ε-SVR: KKT conditions of the tube hold within tol", () => {
    const ds = loadDataset("toy-regression");
    const s = split(ds);
    const X = rowMajor(s.train.X);
    const y = s.train.target!.y as Float64Array;
    const kernel: KernelSpec = { kind: "rbf", gamma: resolveGamma({ kind: "scale" }, X, 3), degree: 3, coef0: 0 };
    const C = 50;
    const eps = 5;
    const tol = 1e-3;
    const sol = solveSvr(X, 60, 3, y, new Float64Array(60).fill(C), eps, kernel, settings(tol));
    const f = decisionValues(buildModel(kernel, X, 3, sol.support, sol.coef, sol.intercept), X, 60);
    const coef = new Float64Array(60);
    sol.support.forEach((i, k) => (coef[i] = sol.coef[k]));
    let sum = 0;
    for (let i = 0; i < 60; i++) {
      const r = y[i] - f[i];
      sum += coef[i];
      if (coef[i] === 0) assert.ok(Math.abs(r) <= eps + tol, `inside the tube at ${i}: ${r}`);
      else if (Math.abs(coef[i]) < C) assert.ok(Math.abs(Math.abs(r) - eps) <= tol, `on the tube at ${i}: ${r}`);
      else assert.ok(Math.abs(r) >= eps - tol && Math.sign(r) === Math.sign(coef[i]), `outside the tube at ${i}: ${r}`);
    }
    assert.ok(Math.abs(sum) < 1e-10, "Σ (α − α*) = 0");
  });

  test("separable data: hard margin w = (1, 0), b = −1 and the margin equals 2/‖w‖", () => {
    // Class 0 on x = 0 and x = −1, class 1 on x = 2 and x = 3: the widest gap is x ∈ (0, 2).
    const X = Float64Array.of(0, 0, 0, 1, -1, 0.5, 2, 0, 2, 1, 3, 0.5);
    const isClass1 = Uint8Array.of(0, 0, 0, 1, 1, 1);
    const kernel: KernelSpec = { kind: "linear", gamma: 1, degree: 3, coef0: 0 };
    const sol = solveSvc(X, 6, 2, isClass1, new Float64Array(6).fill(1e6), kernel, settings(1e-6));
    const model = buildModel(kernel, X, 2, sol.support, sol.coef, sol.intercept);
    const w = model.weights!;
    assert.ok(Math.abs(w[0] - 1) < 1e-6 && Math.abs(w[1]) < 1e-6, `w = ${Array.from(w)}`);
    assert.ok(Math.abs(model.intercept + 1) < 1e-6, `b = ${model.intercept}`);
    assert.ok(Math.abs(2 / Math.hypot(w[0], w[1]) - 2) < 1e-6);
  });

  test("random separable data: min y·f = 1 on both sides, so the gap between the classes along w is 2/‖w‖", () => {
    const rng = createRng(7);
    const n = 80;
    const X = new Float64Array(n * 2);
    const isClass1 = new Uint8Array(n);
    const u = [Math.cos(0.6), Math.sin(0.6)];
    for (let i = 0; i < n; i++) {
      // Points at signed distance ±(0.5 … 3) from the line u·x = 0.3.
      const side = i % 2;
      const along = rng.next() * 6 - 3;
      const dist = (0.5 + rng.next() * 2.5) * (side ? 1 : -1) + 0.3;
      X[2 * i] = dist * u[0] - along * u[1];
      X[2 * i + 1] = dist * u[1] + along * u[0];
      isClass1[i] = side;
    }
    const kernel: KernelSpec = { kind: "linear", gamma: 1, degree: 3, coef0: 0 };
    const sol = solveSvc(X, n, 2, isClass1, new Float64Array(n).fill(1e5), kernel, settings(1e-6));
    const model = buildModel(kernel, X, 2, sol.support, sol.coef, sol.intercept);
    const w = model.weights!;
    const norm = Math.hypot(w[0], w[1]);
    let lowest1 = Infinity;
    let highest0 = -Infinity;
    for (let i = 0; i < n; i++) {
      const proj = (w[0] * X[2 * i] + w[1] * X[2 * i + 1]) / norm;
      if (isClass1[i]) lowest1 = Math.min(lowest1, proj);
      else highest0 = Math.max(highest0, proj);
    }
    assert.ok(Math.abs(lowest1 - highest0 - 2 / norm) < 1e-5, `${lowest1 - highest0} vs ${2 / norm}`);
    // The true gap of the generator is 1 (distances ±0.5 from the line): the SVM finds at least that.
    assert.ok(2 / norm >= 1 - 1e-6);
    assert.ok(sol.alpha.every((a) => a < 1e5), "no multiplier at the bound: the data is separable");
  });

  test("a tiny kernel cache gives bit-identical solutions to a large one", () => {
    const { X, n, d, isClass1 } = toy();
    const kernel: KernelSpec = { kind: "rbf", gamma: 0.5, degree: 3, coef0: 0 };
    const C = new Float64Array(n).fill(10);
    const big = solveSvc(X, n, d, isClass1, C, kernel, settings(1e-3, true, 100 << 20));
    const tiny = solveSvc(X, n, d, isClass1, C, kernel, settings(1e-3, true, 8));
    assert.deepEqual(tiny.alpha, big.alpha);
    assert.equal(tiny.intercept, big.intercept);
  });

  test("shrinking changes the path, not the answer", () => {
    const { X, n, d, isClass1 } = toy();
    const kernel: KernelSpec = { kind: "rbf", gamma: 0.5, degree: 3, coef0: 0 };
    const C = new Float64Array(n).fill(10);
    const a = solveSvc(X, n, d, isClass1, C, kernel, settings(1e-6, true));
    const b = solveSvc(X, n, d, isClass1, C, kernel, settings(1e-6, false));
    for (let i = 0; i < n; i++) assert.ok(Math.abs(a.alpha[i] - b.alpha[i]) < 1e-4);
    assert.ok(Math.abs(a.intercept - b.intercept) < 1e-5);
  });

  test("max_iter caps the iterations and leaves a feasible point", () => {
    const { X, n, d, isClass1 } = toy();
    const kernel: KernelSpec = { kind: "rbf", gamma: 0.5, degree: 3, coef0: 0 };
    const sol = solveSvc(X, n, d, isClass1, new Float64Array(n).fill(10), kernel, { ...settings(1e-6), maxIter: 5 });
    assert.equal(sol.solver.iterations, 5);
    assert.ok(sol.solver.reachedMaxIter);
    let balance = 0;
    for (let i = 0; i < n; i++) balance += sol.alpha[i] * (isClass1[i] ? -1 : 1);
    assert.ok(Math.abs(balance) < 1e-12);
  });

  test("an aborted signal stops the fit", () => {
    const ds = loadDataset("breast_cancer");
    const s = split(ds);
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    assert.throws(() => svm.fit(s.train, svmParams.parse({}), { ...context(), signal: controller.signal }), /cancelled/);
  });

  test("gamma 'scale' is 1/(d·Var(X)) over every cell, 'auto' 1/d", () => {
    const X = Float64Array.of(1, 2, 3, 4);
    assert.equal(resolveGamma({ kind: "scale" }, X, 2), 1 / (2 * 1.25));
    assert.equal(resolveGamma({ kind: "auto" }, X, 2), 0.5);
    assert.equal(resolveGamma({ kind: "value", value: 0.3 }, X, 2), 0.3);
    assert.equal(resolveGamma({ kind: "scale" }, Float64Array.of(2, 2), 2), 1);
    assert.ok(frameOf(X, 2, ["a", "b"]).rowCount === 2);
  });
});
