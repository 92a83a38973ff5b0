/**
 * Hand-computed examples, one per projection: answers known by construction.
 *   x = 0, 1, 3 on the diagonal y = x: one principal direction (1, 1)/√2 carrying all the
 *   variance (2 · 7/3 = 14/3); its projections (x − 4/3)·√2, the largest (row 2) positive.
 *   The same three values in one column: classical MDS gives back x − 4/3 (up to sign),
 *   eigenvalue Σ(x − x̄)² = 14/3.
 *   Five points along an L, each joined to its 2 nearest: the graph is the chain, so the
 *   geodesics are arc lengths s = 0, 1, 2.5, 3.7, 5.1 and Isomap unrolls the L to s − 2.46.
 *   Kernel PCA with the linear kernel is PCA: the same projections, eigenvalues (n − 1)·variance.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Prediction } from "../../../src/models/contract.js";
import { isomap } from "../../../src/models/projection/isomap.js";
import { kernelPca } from "../../../src/models/projection/kernel-pca.js";
import { mds } from "../../../src/models/projection/mds.js";
import { pca } from "../../../src/models/projection/pca.js";
import { ctx, frameOfRows } from "./helpers.js";

const close = (a: number, b: number, what: string, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);
const values = (p: Prediction) => (p.task === "projection" ? Array.from(p.values) : assert.fail(p.task));

test("pca: points on the diagonal have one component, (1, 1)/√2, with all the variance", () => {
  const X = frameOfRows([[0, 0], [1, 1], [3, 3]]);
  const s = pca.fit({ X, target: null }, pca.params.parse({ n_components: 1 }), ctx());
  close(s.components[0], Math.SQRT1_2, "component x");
  close(s.components[1], Math.SQRT1_2, "component y");
  close(s.explained_variance[0], 14 / 3, "variance");
  close(s.explained_variance_ratio[0], 1, "ratio");
  values(pca.predict(s, X)).forEach((v, i) => close(v, ([0, 1, 3][i] - 4 / 3) * Math.SQRT2, `row ${i}`));
});

test("mds: one column's values come back centred, up to sign", () => {
  const X = frameOfRows([[0], [1], [3]]);
  const s = mds.fit({ X, target: null }, mds.params.parse({ n_components: 1 }), ctx());
  close(s.eigenvalues[0], 14 / 3, "eigenvalue", 1e-10);
  const got = values(mds.predict(s, X));
  const sign = Math.sign(got[2]);
  got.forEach((v, i) => close(sign * v, [0, 1, 3][i] - 4 / 3, `row ${i}`, 1e-10));
});

test("isomap: an L of five points unrolls to its arc lengths", () => {
  const X = frameOfRows([[0, 0], [1, 0], [2.5, 0], [2.5, 1.2], [2.5, 2.6]]);
  const s = isomap.fit({ X, target: null }, isomap.params.parse({ n_neighbors: 2, n_components: 1 }), ctx());
  const arc = [0, 1, 2.5, 3.7, 5.1];
  assert.equal(s.graph_components, 1);
  arc.forEach((a, i) => arc.forEach((b, j) => close(s.dist_matrix[i * 5 + j], Math.abs(a - b), `geodesic ${i}–${j}`)));
  values(isomap.predict(s, X)).forEach((v, i) => close(v, arc[i] - 2.46, `row ${i}`, 1e-10));
});

test("kernel_pca with the linear kernel is pca", () => {
  const rows = [[5.1, 3.5, 1.4], [4.9, 3, 1.4], [6.3, 3.3, 6], [5.8, 2.7, 5.1], [7.1, 3, 5.9], [5, 3.4, 1.5]];
  const X = frameOfRows(rows);
  const linear = kernelPca.fit({ X, target: null }, kernelPca.params.parse({ kernel: "linear", n_components: 2 }), ctx());
  const principal = pca.fit({ X, target: null }, pca.params.parse({ n_components: 2 }), ctx());
  const a = values(kernelPca.predict(linear, X));
  values(pca.predict(principal, X)).forEach((v, i) => close(a[i], v, `value ${i}`, 1e-10));
  principal.explained_variance.forEach((v, k) => close(linear.eigenvalues[k], (rows.length - 1) * v, `eigenvalue ${k}`, 1e-10));
});
