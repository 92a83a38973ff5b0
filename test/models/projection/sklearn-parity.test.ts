/**
 * The projection family against scikit-learn 1.2 (fixtures from scripts/fixtures/projection_sklearn.py):
 * PCA (svd_solver="full"), KernelPCA (eigen_solver="dense") and Isomap (eigen_solver="dense",
 * path_method="D") give the same coordinates for the training rows and for new rows, signs
 * included (all fix them by svd_flip), to 1e-8 relative to the largest coordinate; classical MDS
 * matches numpy's up to the sign of each coordinate.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Algorithm, Prediction } from "../../../src/models/contract.js";
import { isomap } from "../../../src/models/projection/isomap.js";
import { kernelPca } from "../../../src/models/projection/kernel-pca.js";
import { mds } from "../../../src/models/projection/mds.js";
import { pca } from "../../../src/models/projection/pca.js";
import { ctx, frameOfRows } from "./helpers.js";

type Matrix = number[][];
interface Case {
  data: string;
  params: Record<string, unknown>;
  train: Matrix;
  new: Matrix;
  eigenvalues?: number[];
  components?: Matrix;
  explained_variance?: number[];
  explained_variance_ratio?: number[];
  dist_matrix?: Matrix;
}
interface Fixture {
  sklearn_version: string;
  data: Record<string, Matrix>;
  new: Record<string, Matrix>;
  pca: Case[];
  kernel_pca: Case[];
  isomap: Case[];
  mds: Case[];
}

const ref = JSON.parse(readFileSync(new URL("../../fixtures/projection/sklearn.json", import.meta.url), "utf8")) as Fixture;

/** Coordinates equal to `tol` × the largest |coordinate|; with `upToSign`, each column may be negated as a whole. */
function assertCoordinates(p: Prediction, expected: Matrix, tol: number, upToSign: boolean, what: string): void {
  assert.equal(p.task, "projection");
  if (p.task !== "projection") return;
  const d = expected[0].length;
  assert.equal(p.dims, d, `${what}: dimensions`);
  assert.equal(p.values.length, expected.length * d, `${what}: rows`);
  const scale = Math.max(1, ...expected.flat().map(Math.abs));
  for (let k = 0; k < d; k++) {
    let sign = 1;
    if (upToSign) {
      const dotProduct = expected.reduce((s, row, i) => s + row[k] * p.values[i * d + k], 0);
      sign = dotProduct < 0 ? -1 : 1;
    }
    expected.forEach((row, i) => {
      const got = sign * p.values[i * d + k];
      assert.ok(Math.abs(got - row[k]) <= tol * scale, `${what}: row ${i}, coordinate ${k}: ${got} vs ${row[k]}`);
    });
  }
}

function fitCase<P>(algorithm: Algorithm<P>, c: Case, params: Record<string, unknown>) {
  const state = algorithm.fit({ X: frameOfRows(ref.data[c.data]), target: null }, algorithm.params.parse(params), ctx());
  return { state, train: algorithm.predict(state, frameOfRows(ref.data[c.data])), fresh: algorithm.predict(state, frameOfRows(ref.new[c.data])) };
}

const gammaOf = (g: unknown) => (typeof g === "number" ? { kind: "value", value: g } : { kind: "auto" });

describe(`scikit-learn ${ref.sklearn_version} parity`, () => {
  for (const c of ref.pca) {
    test(`PCA on ${c.data} ${JSON.stringify(c.params)}: components, explained variance (ratio), transform to 1e-8`, () => {
      const { state, train, fresh } = fitCase(pca, c, c.params);
      const p = c.components![0].length;
      c.components!.forEach((row, k) => row.forEach((v, j) => assert.ok(Math.abs(state.components[k * p + j] - v) <= 1e-8, `component ${k}, feature ${j}: ${state.components[k * p + j]} vs ${v}`)));
      c.explained_variance!.forEach((v, k) => assert.ok(Math.abs(state.explained_variance[k] - v) <= 1e-8 * Math.max(1, v), `variance ${k}`));
      c.explained_variance_ratio!.forEach((v, k) => assert.ok(Math.abs(state.explained_variance_ratio[k] - v) <= 1e-10, `ratio ${k}`));
      assertCoordinates(train, c.train, 1e-8, false, "training rows");
      assertCoordinates(fresh, c.new, 1e-8, false, "new rows");
    });
  }

  for (const c of ref.kernel_pca) {
    test(`KernelPCA on ${c.data} ${JSON.stringify(c.params)}: eigenvalues and transform, signs included`, () => {
      const { kernel, gamma, degree, coef0, n_components } = c.params as { kernel: string; gamma?: number; degree?: number; coef0?: number; n_components: number | null };
      const { state, train, fresh } = fitCase(kernelPca, c, { kernel, gamma: gammaOf(gamma), n_components, ...(degree ? { degree } : {}), ...(coef0 !== undefined ? { coef0 } : {}) });
      assert.equal(state.eigenvalues.length, c.eigenvalues!.length, "components kept");
      c.eigenvalues!.forEach((v, k) => assert.ok(Math.abs(state.eigenvalues[k] - v) <= 1e-8 * Math.max(1, c.eigenvalues![0]), `eigenvalue ${k}: ${state.eigenvalues[k]} vs ${v}`));
      assertCoordinates(train, c.train, 1e-8, false, "training rows");
      assertCoordinates(fresh, c.new, 1e-8, false, "new rows");
    });
  }

  for (const c of ref.isomap) {
    test(`Isomap on ${c.data} ${JSON.stringify(c.params)}: geodesics, eigenvalues and transform, signs included`, () => {
      const { state, train, fresh } = fitCase(isomap, c, c.params);
      if (c.dist_matrix) {
        const n = c.dist_matrix.length;
        assert.ok(state.graph_components > 1, "the fixture's graph is disconnected");
        c.dist_matrix.forEach((row, i) => row.forEach((v, j) => assert.ok(Math.abs(state.dist_matrix[i * n + j] - v) <= 1e-9 * Math.max(1, v), `geodesic ${i}–${j}`)));
      }
      c.eigenvalues!.forEach((v, k) => assert.ok(Math.abs(state.eigenvalues[k] - v) <= 1e-8 * c.eigenvalues![0], `eigenvalue ${k}: ${state.eigenvalues[k]} vs ${v}`));
      assertCoordinates(train, c.train, 1e-8, false, "training rows");
      assertCoordinates(fresh, c.new, 1e-8, false, "new rows");
    });
  }

  for (const c of ref.mds) {
    test(`classical MDS on ${c.data} (numpy) ${JSON.stringify(c.params)}: eigenvalues, coordinates up to sign`, () => {
      const { state, train, fresh } = fitCase(mds, c, { ...c.params, max_landmarks: 2000 });
      c.eigenvalues!.forEach((v, k) => assert.ok(Math.abs(state.eigenvalues[k] - v) <= 1e-8 * c.eigenvalues![0], `eigenvalue ${k}`));
      assertCoordinates(train, c.train, 1e-8, true, "training rows");
      assertCoordinates(fresh, c.new, 1e-8, true, "new rows");
    });
  }
});
