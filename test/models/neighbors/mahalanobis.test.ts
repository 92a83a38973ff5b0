/**
 * knn's Mahalanobis whitening (src/models/neighbors/mahalanobis.ts): ‖W(x − y)‖ equals
 * sqrt((x − y)ᵀ Σ⁻¹ (x − y)) with Σ the n − 1 covariance, computed here by an explicit
 * inverse; with a singular Σ (a copied column) the pseudo-inverse distance is the distance of
 * the table without the copy (the map is invariant under an injective linear re-encoding).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Matrix, inverse } from "ml-matrix";
import { fitWhitening, whiten } from "../../../src/models/neighbors/mahalanobis.js";

const rows = [
  [1, 2, 0.5],
  [2, 1, 1.5],
  [3, 5, 2],
  [4, 3, 1],
  [0, 1, 3],
  [5, 6, 2.5],
  [2, 2, 2],
];
const n = rows.length;

function covariance(data: number[][]): Matrix {
  const d = data[0].length;
  const mean = Array.from({ length: d }, (_, j) => data.reduce((s, r) => s + r[j], 0) / data.length);
  const c = Matrix.zeros(d, d);
  for (const r of data) for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) c.set(a, b, c.get(a, b) + (r[a] - mean[a]) * (r[b] - mean[b]));
  return c.div(data.length - 1);
}

function whitenedDistance(data: number[][], i: number, j: number): number {
  const d = data[0].length;
  const X = Float64Array.from(data.flat());
  const w = fitWhitening(X, data.length, d);
  const Z = whiten(X, data.length, d, w);
  let s = 0;
  for (let k = 0; k < w.rank; k++) s += (Z[i * w.rank + k] - Z[j * w.rank + k]) ** 2;
  return Math.sqrt(s);
}

test("the whitened Euclidean distance is the Mahalanobis distance under the inverse covariance", () => {
  const VI = inverse(covariance(rows));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const diff = Matrix.columnVector(rows[i].map((v, k) => v - rows[j][k]));
      const want = Math.sqrt(diff.transpose().mmul(VI).mmul(diff).get(0, 0));
      assert.ok(Math.abs(whitenedDistance(rows, i, j) - want) < 1e-10, `rows ${i}, ${j}`);
    }
  }
});

test("a copied column makes the covariance singular: the rank drops and the distances do not change", () => {
  const copied = rows.map((r) => [...r, r[0]]);
  const w = fitWhitening(Float64Array.from(copied.flat()), n, 4);
  assert.equal(w.rank, 3);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) assert.ok(Math.abs(whitenedDistance(copied, i, j) - whitenedDistance(rows, i, j)) < 1e-9);
});

test("rows that do not vary, or a single row, are refused with a reason", () => {
  assert.throws(() => fitWhitening(Float64Array.from([1, 2, 1, 2, 1, 2]), 3, 2), /do not vary/);
  assert.throws(() => fitWhitening(Float64Array.from([1, 2]), 1, 2), /at least two/);
});
