import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { minimize, METHODS, FIRST_ORDER_METHODS, type Method, type MinimizeOptions, type Objective } from "../../../src/models/optim/minimize.js";

/** Mean squared error ½·mean((Xw − y)²) over a row-major design, with mini-batches. */
function leastSquares(X: Float64Array, y: Float64Array, n: number, p: number): Objective {
  const batch = (w: Float64Array, g: Float64Array, order: Int32Array | null, start: number, end: number): number => {
    g.fill(0);
    let loss = 0;
    for (let t = start; t < end; t++) {
      const i = order ? order[t] : t;
      let r = -y[i];
      for (let j = 0; j < p; j++) r += X[i * p + j] * w[j];
      loss += 0.5 * r * r;
      for (let j = 0; j < p; j++) g[j] += r * X[i * p + j];
    }
    const m = end - start;
    for (let j = 0; j < p; j++) g[j] /= m;
    return loss / m;
  };
  return {
    size: p,
    terms: n,
    valueAndGradient: (w, g) => batch(w, g, null, 0, n),
    batchValueAndGradient: (w, g, order, s, e) => batch(w, g, order, s, e),
    hessian(_w, h) {
      h.fill(0);
      for (let i = 0; i < n; i++) for (let a = 0; a < p; a++) for (let b = 0; b < p; b++) h[a * p + b] += (X[i * p + a] * X[i * p + b]) / n;
    },
  };
}

function problem(noise: number): { X: Float64Array; y: Float64Array; n: number; p: number; wTrue: number[] } {
  const rng = createRng(7);
  const n = 200;
  const p = 4;
  const wTrue = [1.5, -2, 0.5, 3];
  const X = new Float64Array(n * p);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < p; j++) {
      X[i * p + j] = j === 0 ? 1 : rng.normal();
      s += X[i * p + j] * wTrue[j];
    }
    y[i] = s + noise * rng.normal();
  }
  return { X, y, n, p, wTrue };
}

/** Closed form by the normal equations (4 × 4, well conditioned). */
function normalEquations(X: Float64Array, y: Float64Array, n: number, p: number): number[] {
  const A = Array.from({ length: p }, () => new Array<number>(p + 1).fill(0));
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < p; a++) {
      for (let b = 0; b < p; b++) A[a][b] += X[i * p + a] * X[i * p + b];
      A[a][p] += X[i * p + a] * y[i];
    }
  }
  for (let c = 0; c < p; c++) {
    for (let r = c + 1; r < p; r++) {
      const f = A[r][c] / A[c][c];
      for (let k = c; k <= p; k++) A[r][k] -= f * A[c][k];
    }
  }
  const w = new Array<number>(p).fill(0);
  for (let r = p - 1; r >= 0; r--) {
    let s = A[r][p];
    for (let k = r + 1; k < p; k++) s -= A[r][k] * w[k];
    w[r] = s / A[r][r];
  }
  return w;
}

const settings: Record<Method, Partial<MinimizeOptions>> = {
  gd: { learningRate: 0.3, maxIter: 5000 },
  momentum: { learningRate: 0.05, maxIter: 5000 },
  nesterov: { learningRate: 0.05, maxIter: 5000 },
  adagrad: { learningRate: 0.5, maxIter: 20000 },
  rmsprop: { learningRate: 0.01, maxIter: 20000, schedule: "adaptive" },
  adam: { learningRate: 0.05, maxIter: 20000 },
  newton: {},
  dfp: {},
  bfgs: {},
  lbfgs: {},
};

describe("every method reaches the least-squares closed form", () => {
  const { X, y, n, p } = problem(0.5);
  const exact = normalEquations(X, y, n, p);
  for (const method of METHODS) {
    test(method, () => {
      const r = minimize(leastSquares(X, y, n, p), new Float64Array(p), { method, tol: 1e-9, ...settings[method] });
      for (let j = 0; j < p; j++) assert.ok(Math.abs(r.x[j] - exact[j]) < 1e-4, `${method}: w[${j}] = ${r.x[j]}, closed form ${exact[j]}`);
      assert.ok(r.gradNorm < 1e-4, `${method} gradNorm ${r.gradNorm}`);
    });
  }
  test("newton needs one step on a quadratic", () => {
    const r = minimize(leastSquares(X, y, n, p), new Float64Array(p), { method: "newton", tol: 1e-9 });
    assert.equal(r.iterations, 1);
    assert.ok(r.converged);
  });
});

describe("mini-batch and stochastic gradient descent", () => {
  // Noise-free, so every mini-batch gradient vanishes at the solution and a
  // constant rate converges to it exactly.
  const { X, y, n, p, wTrue } = problem(0);
  for (const batchSize of [1, 16]) {
    for (const method of FIRST_ORDER_METHODS.filter((m) => m === "gd" || m === "momentum" || m === "adam")) {
      test(`${method}, batch ${batchSize}`, () => {
        const lr = method === "adam" ? 0.01 : batchSize === 1 ? 0.02 : 0.05;
        const opts: MinimizeOptions = { method, batchSize, learningRate: lr, momentum: 0.5, maxIter: 400, tol: 1e-12, rng: createRng(3) };
        const r = minimize(leastSquares(X, y, n, p), new Float64Array(p), opts);
        for (let j = 0; j < p; j++) assert.ok(Math.abs(r.x[j] - wTrue[j]) < 1e-4, `w[${j}] = ${r.x[j]}`);
        assert.ok(r.converged);
      });
    }
  }
  test("same seed, same result; another seed, another path", () => {
    const { X: Xn, y: yn } = problem(0.5);
    const run = (seed: number) =>
      minimize(leastSquares(Xn, yn, n, p), new Float64Array(p), { method: "gd", batchSize: 8, learningRate: 0.05, maxIter: 5, rng: createRng(seed) }).x;
    assert.deepEqual(run(11), run(11));
    assert.notDeepEqual(run(11), run(12));
  });
  test("invscaling decays the rate", () => {
    const { X: Xn, y: yn } = problem(0.5);
    const r = minimize(leastSquares(Xn, yn, n, p), new Float64Array(p), { method: "gd", batchSize: 1, learningRate: 0.05, schedule: "invscaling", powerT: 0.5, maxIter: 60, rng: createRng(1) });
    const exact = normalEquations(Xn, yn, n, p);
    for (let j = 0; j < p; j++) assert.ok(Math.abs(r.x[j] - exact[j]) < 0.05, `w[${j}] = ${r.x[j]} vs ${exact[j]}`);
  });
});

const rosenbrock: Objective = {
  size: 2,
  valueAndGradient(x, g) {
    const [a, b] = [x[0], x[1]];
    g[0] = -400 * a * (b - a * a) - 2 * (1 - a);
    g[1] = 200 * (b - a * a);
    return 100 * (b - a * a) ** 2 + (1 - a) ** 2;
  },
  hessian(x, h) {
    const [a, b] = [x[0], x[1]];
    h[0] = 1200 * a * a - 400 * b + 2;
    h[1] = h[2] = -400 * a;
    h[3] = 200;
  },
};

describe("second-order and quasi-Newton methods on Rosenbrock", () => {
  for (const method of ["newton", "dfp", "bfgs", "lbfgs"] as const) {
    test(`${method} reaches (1, 1)`, () => {
      const r = minimize(rosenbrock, new Float64Array([-1.2, 1]), { method, tol: 1e-8, maxIter: 2000 });
      assert.ok(r.converged, `${method} did not converge: ${JSON.stringify({ it: r.iterations, g: r.gradNorm })}`);
      assert.ok(Math.abs(r.x[0] - 1) < 1e-5 && Math.abs(r.x[1] - 1) < 1e-5, `${method}: ${[...r.x]}`);
    });
  }
  test("newton at a point where the Hessian is indefinite still descends", () => {
    // At (0, 1) the Hessian is diag(−398, 200): a plain Newton step would head for a saddle.
    const r = minimize(rosenbrock, new Float64Array([0, 1]), { method: "newton", tol: 1e-8, maxIter: 200 });
    assert.ok(r.converged);
    assert.ok(Math.abs(r.x[0] - 1) < 1e-6);
  });
  test("newton on a concave-at-start one-dimensional double well", () => {
    // f = x⁴/4 − x²/2 + 0.1x: f'' = 3x² − 1 < 0 at x = 0.2.
    const well: Objective = {
      size: 1,
      valueAndGradient: (x, g) => {
        g[0] = x[0] ** 3 - x[0] + 0.1;
        return x[0] ** 4 / 4 - x[0] ** 2 / 2 + 0.1 * x[0];
      },
      hessian: (x, h) => {
        h[0] = 3 * x[0] ** 2 - 1;
      },
    };
    const r = minimize(well, new Float64Array([0.2]), { method: "newton", tol: 1e-10 });
    assert.ok(r.converged);
    assert.ok(Math.abs(r.x[0] ** 3 - r.x[0] + 0.1) < 1e-10);
    assert.ok(3 * r.x[0] ** 2 - 1 > 0, "ended at a minimum, not the local maximum");
  });
});

describe("L1 penalty", () => {
  // ½‖x − a‖² + λ‖x‖₁ is minimised by the soft threshold of a.
  const a = new Float64Array([3, -0.5, 0.2, -2, 0]);
  const lam = 0.8;
  const quad: Objective = {
    size: 5,
    valueAndGradient(x, g) {
      let f = 0;
      for (let i = 0; i < 5; i++) {
        g[i] = x[i] - a[i];
        f += 0.5 * g[i] * g[i];
      }
      return f;
    },
  };
  const expected = [2.2, 0, 0, -1.2, 0];
  for (const method of ["gd", "lbfgs"] as const) {
    test(`${method} gives the soft threshold with exact zeros`, () => {
      const r = minimize(quad, new Float64Array(5).fill(1), { method, l1: new Float64Array(5).fill(lam), learningRate: 0.5, tol: 1e-10, maxIter: 500 });
      assert.ok(r.converged);
      expected.forEach((e, i) => (e === 0 ? assert.equal(r.x[i], 0) : assert.ok(Math.abs(r.x[i] - e) < 1e-8, `${i}: ${r.x[i]}`)));
    });
  }
  test("other methods refuse an L1 term", () => {
    assert.throws(() => minimize(quad, new Float64Array(5), { method: "bfgs", l1: new Float64Array(5).fill(lam) }), /L1/);
  });
});

describe("non-convergence is reported, not thrown", () => {
  const { X, y, n, p } = problem(0.5);
  for (const method of ["gd", "lbfgs", "bfgs"] as const) {
    test(method, () => {
      const r = minimize(leastSquares(X, y, n, p), new Float64Array(p), { method, maxIter: 2, learningRate: 0.01, tol: 1e-12 });
      assert.equal(r.converged, false);
      assert.equal(r.iterations, 2);
      assert.ok(Number.isFinite(r.loss) && r.gradNorm > 1e-12);
    });
  }
});
