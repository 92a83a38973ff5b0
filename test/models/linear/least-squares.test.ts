import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { indicatorLayout } from "../../../src/models/linear/indicators.js";
import { leastSquares } from "../../../src/models/linear/least-squares.js";

/** x1 ~ N(0,1), x2 = x1 + gap·N(0,1), x3 ~ N(0,1): κ(X) grows like 1/gap. y exact from β = (2, −1, 0.5), b = 3. */
function nearlyCollinear(gap: number, n = 2000) {
  const rng = createRng(17);
  const x1 = new Float64Array(n);
  const x2 = new Float64Array(n);
  const x3 = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x1[i] = rng.normal();
    x2[i] = x1[i] + gap * rng.normal();
    x3[i] = rng.normal();
    y[i] = 3 + 2 * x1[i] - x2[i] + 0.5 * x3[i];
  }
  return { columns: [x1, x2, x3], y, n };
}

describe("least squares: normal equations with refinement, or QR + SVD", () => {
  test("κ ≈ 1e4 takes the refined normal equations and still recovers β to 1e-9", () => {
    const { columns, y, n } = nearlyCollinear(1e-4);
    const r = leastSquares(columns, y, n, { fitIntercept: true });
    assert.equal(r.method, "normal_equations");
    [2, -1, 0.5].forEach((b, j) => assert.ok(Math.abs(r.coef[j] - b) < 1e-9, `β${j} = ${r.coef[j]}`));
    assert.ok(Math.abs(r.intercept - 3) < 1e-9);
  });
  test("κ ≈ 1e7 goes to QR + SVD, which recovers β to 1e-6", () => {
    const { columns, y, n } = nearlyCollinear(1e-7);
    const r = leastSquares(columns, y, n, { fitIntercept: true });
    assert.equal(r.method, "qr_svd");
    assert.equal(r.rank, 3);
    [2, -1, 0.5].forEach((b, j) => assert.ok(Math.abs(r.coef[j] - b) < 1e-6, `β${j} = ${r.coef[j]}`));
  });
  test("both paths agree: a duplicated column (QR) gets half the weight of the single one (normal equations)", () => {
    const rng = createRng(3);
    const n = 500;
    const cols = [0, 1, 2].map(() => Float64Array.from({ length: n }, () => rng.normal()));
    const y = Float64Array.from({ length: n }, (_, i) => cols[0][i] - 2 * cols[2][i] + rng.normal());
    const fast = leastSquares(cols, y, n, { fitIntercept: true });
    const slow = leastSquares([...cols, cols[2]], y, n, { fitIntercept: true });
    assert.equal(fast.method, "normal_equations");
    assert.equal(slow.method, "qr_svd");
    assert.equal(slow.rank, 3);
    for (const j of [0, 1]) assert.ok(Math.abs(slow.coef[j] - fast.coef[j]) < 1e-12, `β${j}`);
    assert.ok(Math.abs(slow.coef[2] - fast.coef[2] / 2) < 1e-12 && Math.abs(slow.coef[3] - fast.coef[2] / 2) < 1e-12);
    assert.ok(Math.abs(slow.residualSumOfSquares - fast.residualSumOfSquares) < 1e-9 * fast.residualSumOfSquares);
    // Ridge makes the duplicated design well conditioned: fast path, equal split.
    const ridged = leastSquares([...cols, cols[2]], y, n, { fitIntercept: true, alpha: 10 });
    assert.equal(ridged.method, "normal_equations");
    assert.ok(Math.abs(ridged.coef[2] - ridged.coef[3]) < 1e-12);
    const plain = fast;
    let rss = 0;
    for (let i = 0; i < n; i++) {
      const r = y[i] - plain.intercept - cols.reduce((s, c, j) => s + c[i] * plain.coef[j], 0);
      rss += r * r;
    }
    assert.ok(Math.abs(plain.residualSumOfSquares - rss) < 1e-8 * rss);
  });
});

/** Two numeric columns (one in the thousands) and three one-hot blocks, one with empty rows (a missing level). */
function withIndicators(n = 300) {
  const rng = createRng(5);
  const num = () => Float64Array.from({ length: n }, () => rng.normal() * 1e3 + 50);
  const block = (levels: number, emptyShare: number) => {
    const codes = Int32Array.from({ length: n }, () => (rng.next() < emptyShare ? -1 : Math.floor(rng.next() * levels)));
    return { codes, columns: Array.from({ length: levels }, (_, k) => Float64Array.from(codes, (c) => (c === k ? 1 : 0))) };
  };
  const a = block(7, 0.1);
  const b = block(20, 0);
  const c = block(4, 0);
  const x0 = num();
  const x1 = num();
  const columns = [x0, ...a.columns, x1, ...b.columns, ...c.columns];
  const y = Float64Array.from({ length: n }, (_, i) => 0.01 * x0[i] + b.codes[i] - 2 * (a.codes[i] === 3 ? 1 : 0) + rng.normal());
  const weights = Float64Array.from({ length: n }, () => 2 * rng.next());
  return { columns, y, n, weights, codes: [a.codes, b.codes, c.codes] };
}

describe("least squares over one-hot blocks kept as codes", () => {
  test("the blocks are found as codes; numeric columns stay dense", () => {
    const { columns, n, codes } = withIndicators();
    const layout = indicatorLayout(columns, n);
    assert.deepEqual(Array.from(layout.dense), [0, 8]);
    assert.deepEqual(
      layout.groups.map((g) => Array.from(g.columns)),
      [Array.from({ length: 7 }, (_, k) => 1 + k), Array.from({ length: 20 }, (_, k) => 9 + k), Array.from({ length: 4 }, (_, k) => 29 + k)],
    );
    layout.groups.forEach((g, b) => assert.deepEqual(Array.from(g.codes), Array.from(codes[b])));
  });
  for (const [name, options] of [
    ["ridge with an intercept", { fitIntercept: true, alpha: 1 }],
    ["ridge without an intercept", { fitIntercept: false, alpha: 0.5 }],
    ["weighted ridge", { fitIntercept: true, alpha: 2, weights: withIndicators().weights }],
  ] as const) {
    test(`${name}: the same coefficients as the dense path to 1e-10`, () => {
      const { columns, y, n } = withIndicators();
      const sparse = leastSquares(columns, y, n, options);
      const dense = leastSquares(columns, y, n, { ...options, dense: true });
      assert.equal(sparse.method, "normal_equations");
      for (let j = 0; j < columns.length; j++) assert.ok(Math.abs(sparse.coef[j] - dense.coef[j]) < 1e-10, `β${j}: ${sparse.coef[j]} vs ${dense.coef[j]}`);
      assert.ok(Math.abs(sparse.intercept - dense.intercept) < 1e-10);
      assert.ok(Math.abs(sparse.residualSumOfSquares - dense.residualSumOfSquares) < 1e-9 * dense.residualSumOfSquares);
    });
  }
  test("OLS on complete blocks with an intercept is rank-deficient: refused there, solved by QR + SVD as before", () => {
    const { columns, y, n } = withIndicators();
    const r = leastSquares(columns, y, n, { fitIntercept: true });
    const dense = leastSquares(columns, y, n, { fitIntercept: true, dense: true });
    assert.equal(r.method, "qr_svd");
    assert.equal(r.rank, columns.length - 2);
    assert.deepEqual(Array.from(r.coef), Array.from(dense.coef));
  });
});
