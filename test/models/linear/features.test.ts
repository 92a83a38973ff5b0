import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { columnMajor } from "../../../src/models/linear/blocks.js";
import { moments, safeScale } from "../../../src/models/linear/design.js";
import { denseFeatures, standardisedFeatures } from "../../../src/models/linear/features.js";
import { binaryLogisticLoss, multinomialLoss } from "../../../src/models/linear/logistic-loss.js";
import { squaredLoss } from "../../../src/models/linear/squared-loss.js";

/** A numeric column, a 6-level block with empty rows, a numeric column, a 9-level block. */
function design(n = 240) {
  const rng = createRng(11);
  const a = Int32Array.from({ length: n }, () => (rng.next() < 0.15 ? -1 : Math.floor(rng.next() * 6)));
  const b = Int32Array.from({ length: n }, () => Math.floor(rng.next() * 9));
  const indicator = (codes: Int32Array, levels: number) => Array.from({ length: levels }, (_, k) => Float64Array.from(codes, (c) => (c === k ? 1 : 0)));
  const x0 = Float64Array.from({ length: n }, () => 100 * rng.normal() + 30);
  const x1 = Float64Array.from({ length: n }, () => rng.normal());
  const columns = [x0, ...indicator(a, 6), x1, ...indicator(b, 9)];
  const y = Int32Array.from({ length: n }, (_, i) => (x1[i] + (a[i] === 2 ? 1.5 : 0) - (b[i] > 5 ? 1 : 0) + rng.normal() > 0 ? (b[i] % 3 === 0 ? 2 : 1) : 0));
  return { columns, y, n, rng };
}

describe("standardised features with one-hot blocks kept as codes", () => {
  test("scores and gradients equal those of the dense standardised copy, for mini-batches too", () => {
    const { columns, n, rng } = design();
    const { mean, std } = moments(columns, n);
    const scale = safeScale(std);
    const sparse = standardisedFeatures(columns, n, mean, scale);
    const dense = denseFeatures(columnMajor(columns, n, mean, scale), n, columns.length);
    const p = columns.length;
    const x = Float64Array.from({ length: 2 * p }, () => rng.normal());
    const order = Int32Array.from({ length: n }, (_, i) => (i * 7) % n);
    for (const [rows, start, len] of [[null, 0, n], [order, 13, 100]] as const) {
      const a = new Float64Array(len);
      const b = new Float64Array(len);
      sparse.scores(x, p, 0.3, rows, start, len, a);
      dense.scores(x, p, 0.3, rows, start, len, b);
      for (let i = 0; i < len; i++) assert.ok(Math.abs(a[i] - b[i]) < 1e-12, `score ${i}`);
      const r = Float64Array.from({ length: len }, () => rng.normal());
      const ga = new Float64Array(2 * p);
      const gb = new Float64Array(2 * p);
      sparse.gradient(r, rows, start, len, ga, p);
      dense.gradient(r, rows, start, len, gb, p);
      for (let j = 0; j < 2 * p; j++) assert.ok(Math.abs(ga[j] - gb[j]) < 1e-11, `gradient ${j}`);
    }
    assert.deepEqual(Array.from(sparse.dense()), Array.from(dense.dense()));
  });

  test("bound scorers give the scores bit for bit, each slot keeping its own parameters", () => {
    const { columns, n, rng } = design();
    const { mean, std } = moments(columns, n);
    const sparse = standardisedFeatures(columns, n, mean, safeScale(std));
    const p = columns.length;
    const x = Float64Array.from({ length: 2 * p }, () => rng.normal());
    const first = sparse.bind(x, 0, 0.3, 0);
    const second = sparse.bind(x, p, -1.2, 1);
    const order = Int32Array.from({ length: n }, (_, i) => (i * 7) % n);
    for (const [rows, start, len] of [[null, 0, n], [null, 40, 90], [order, 13, 100]] as const) {
      for (const [scorer, offset, c] of [[first, 0, 0.3], [second, p, -1.2]] as const) {
        const a = new Float64Array(len);
        const b = new Float64Array(len);
        scorer(rows, start, len, a);
        sparse.scores(x, offset, c, rows, start, len, b);
        assert.deepEqual(a, b);
      }
    }
  });

  test("the logistic and squared losses over the codes equal those over the dense copy (value, gradient, Hessian)", () => {
    const { columns, y, n, rng } = design();
    const { mean, std } = moments(columns, n);
    const scale = safeScale(std);
    const p = columns.length;
    const sparse = standardisedFeatures(columns, n, mean, scale);
    const dense = denseFeatures(columnMajor(columns, n, mean, scale), n, p);
    const weights = Float64Array.from({ length: n }, () => 0.5 + rng.next());
    const options = { fitIntercept: true, weights, l2: Float64Array.from({ length: p }, () => 0.1 * rng.next()) };
    const binary = Float64Array.from(y, (c) => (c > 0 ? 1 : 0));
    const pairs = [
      [multinomialLoss(sparse, y, 3, options), multinomialLoss(dense, y, 3, options)],
      [binaryLogisticLoss(sparse, binary, options), binaryLogisticLoss(dense, binary, options)],
      [squaredLoss(sparse, binary, options), squaredLoss(dense, binary, options)],
    ] as const;
    for (const [a, b] of pairs) {
      const x = Float64Array.from({ length: a.size }, () => rng.normal());
      const ga = new Float64Array(a.size);
      const gb = new Float64Array(a.size);
      assert.ok(Math.abs(a.valueAndGradient(x, ga) - b.valueAndGradient(x, gb)) < 1e-12);
      for (let j = 0; j < a.size; j++) assert.ok(Math.abs(ga[j] - gb[j]) < 1e-12, `gradient ${j}`);
      const ha = new Float64Array(a.size * a.size);
      const hb = new Float64Array(a.size * a.size);
      a.hessian!(x, ha);
      b.hessian!(x, hb);
      for (let j = 0; j < ha.length; j++) assert.ok(Math.abs(ha[j] - hb[j]) < 1e-12, `hessian ${j}`);
    }
  });
});
