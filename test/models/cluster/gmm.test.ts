/** gmm: SEEDS.md's first E and M step on watermelon 4.0; EM raises the likelihood; probabilities; determinism; round trip. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { eStep, mStep, startAtMeans } from "../../../src/models/cluster/gmm-em.js";
import { gmm, gmmParams, gmmScore } from "../../../src/models/cluster/gmm.js";
import { centresAtRows } from "../../../src/models/cluster/kmeans-engine.js";
import { rowMajor } from "../../../src/models/design-matrix.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { assertClose, blobs, ctx, frameOf, partition, watermelon4 } from "./helpers.js";

const X = watermelon4();
const rows = [6, 22, 27].map((r) => r - 1);

test("watermelon 4.0, the book's start (α = 1/3, means rows 6, 22, 27, Σ = 0.1·I): the first E and M step of SEEDS.md", () => {
  const M = rowMajor(X);
  const start = startAtMeans(centresAtRows(M, 2, rows), 3, 2, "full", 0.1);
  const resp = new Float64Array(30 * 3);
  eStep(M, 30, start, resp);
  [0.219, 0.404, 0.377].forEach((v, c) => assertClose(resp[c], v, 0.002, `row 1, component ${c + 1}`));
  const next = mStep(M, 30, 2, resp, 3, "full", 0);
  [0.361, 0.323, 0.316].forEach((v, c) => assertClose(next.weights[c], v, 0.002, `α${c + 1}`));
  [0.491, 0.251, 0.571, 0.281, 0.534, 0.295].forEach((v, i) => assertClose(next.means[i], v, 0.002, `μ value ${i}`));
  [0.025, 0.004, 0.004, 0.016].forEach((v, i) => assertClose(next.covariances[i], v, 0.002, `Σ₁ entry ${i}`));
});

test("EM from the book's start never lowers the likelihood, for every covariance type", () => {
  for (const type of ["full", "tied", "diag", "spherical"] as const) {
    let last = -Infinity;
    for (const maxIter of [1, 2, 5, 20]) {
      const s = gmm.fit({ X, target: null }, gmmParams.parse({ n_components: 3, covariance_type: type, init: { kind: "rows", rows, variance: 0.1 }, max_iter: maxIter, tol: 0 }), ctx());
      const score = gmmScore(s, X);
      assert.ok(score >= last - 1e-9, `${type}, ${maxIter} iterations: ${score} after ${last}`);
      last = score;
    }
  }
});

test("blobs: the k-means start recovers them; probabilities sum to 1 and pick the label; same seed → same model; round trip", () => {
  const { X: B, truth } = blobs(400, 3, 4, 13);
  const F = frameOf(B, 400, 3);
  for (const type of ["full", "tied", "diag", "spherical"] as const) {
    const params = gmmParams.parse({ n_components: 4, covariance_type: type, n_init: 2 });
    const s = gmm.fit({ X: F, target: null }, params, ctx(8));
    assert.deepEqual(partition(s.labels), partition(truth), type);
    assert.deepEqual(gmm.fit({ X: F, target: null }, params, ctx(8)), s);
    const p = gmm.predict(s, F);
    assert.ok(p.task === "clustering" && p.proba);
    const proba: Float64Array = p.proba;
    assert.deepEqual(p.labels, s.labels);
    for (let i = 0; i < 400; i++) {
      const row: number[] = Array.from(proba.subarray(i * 4, i * 4 + 4));
      assertClose(row.reduce((a, b) => a + b, 0), 1, 1e-12, `row ${i}`);
      assert.equal(row.indexOf(Math.max(...row)), p.labels[i]);
    }
    const loaded = gmm.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s)))));
    assert.deepEqual(gmm.predict(loaded, F), p);
  }
});

test("explicit rows: one per component, training rows only; a collapsed component asks for reg_covar", () => {
  assert.throws(() => gmm.fit({ X, target: null }, gmmParams.parse({ n_components: 2, init: { kind: "rows", rows } }), ctx()), /3 rows for 2 clusters \(n_components\)/);
  assert.throws(() => gmm.fit({ X, target: null }, gmmParams.parse({ n_components: 1, init: { kind: "rows", rows: [30] } }), ctx()), /not a training row/);
  // Two identical rows and no regularisation: the component on them has a singular covariance.
  const twins = frameOf([0, 0, 0, 0, 5, 5, 6, 7, 7, 5], 5, 2);
  assert.throws(() => gmm.fit({ X: twins, target: null }, gmmParams.parse({ n_components: 2, reg_covar: 0, init: { kind: "rows", rows: [0, 3], variance: 0.01 } }), ctx()), /reg_covar/);
});

test("a state whose covariance is not positive definite does not load", () => {
  const s = gmm.fit({ X, target: null }, gmmParams.parse({ n_components: 2 }), ctx());
  const broken = { ...s, covariances: Float64Array.from(s.covariances).fill(0) };
  assert.equal(gmm.state.safeParse(broken).success, false);
});
