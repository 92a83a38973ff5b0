/**
 * Properties of the projections on random data (fast-check): PCA's components are
 * orthonormal and the projections of the training rows have mean 0 and the explained
 * variances as variances; the kernel eigenmap places a training row where the fit put it
 * whatever the kernel (transform of the training rows = √λ·v, orthogonal columns); the
 * n × n methods refuse more rows than their limits before allocating anything.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { UnusableInputError } from "../../../src/models/contract.js";
import { isomap } from "../../../src/models/projection/isomap.js";
import { kernelPca } from "../../../src/models/projection/kernel-pca.js";
import { ISOMAP_MAX_ROWS, KERNEL_PCA_MAX_ROWS } from "../../../src/models/projection/limits.js";
import { pca } from "../../../src/models/projection/pca.js";
import { ctx, frameOfRows } from "./helpers.js";

const table = (minRows: number, maxRows: number, p: number) =>
  fc.array(fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: p, maxLength: p }), { minLength: minRows, maxLength: maxRows });

test("pca: orthonormal components; training projections centred with the explained variances", () => {
  fc.assert(
    fc.property(table(5, 30, 3), (rows) => {
      const X = frameOfRows(rows);
      const s = pca.fit({ X, target: null }, pca.params.parse({}), ctx());
      const p = 3;
      const d = s.explained_variance.length;
      const n = rows.length;
      const scale = Math.max(1, ...s.explained_variance);
      for (let a = 0; a < d; a++) {
        for (let b = 0; b < d; b++) {
          let dot = 0;
          for (let j = 0; j < p; j++) dot += s.components[a * p + j] * s.components[b * p + j];
          // A component of (numerically) zero variance may be any unit vector of the null space: still orthonormal.
          assert.ok(Math.abs(dot - (a === b ? 1 : 0)) < 1e-8, `components ${a}·${b} = ${dot}`);
        }
      }
      const out = pca.predict(s, X);
      assert.equal(out.task, "projection");
      if (out.task !== "projection") return;
      for (let k = 0; k < d; k++) {
        let mean = 0;
        for (let i = 0; i < n; i++) mean += out.values[i * d + k];
        mean /= n;
        let variance = 0;
        for (let i = 0; i < n; i++) variance += (out.values[i * d + k] - mean) ** 2;
        variance /= n - 1;
        assert.ok(Math.abs(mean) < 1e-8 * Math.sqrt(scale) * 100, `mean ${mean}`);
        assert.ok(Math.abs(variance - s.explained_variance[k]) < 1e-8 * scale, `variance ${variance} vs ${s.explained_variance[k]}`);
      }
    }),
    { numRuns: 60 },
  );
});

test("kernel_pca: the training rows' projections are uncorrelated, with the eigenvalues as sums of squares", () => {
  fc.assert(
    fc.property(table(4, 25, 2), fc.constantFrom("rbf", "poly", "linear"), (rows, kernel) => {
      const X = frameOfRows(rows);
      const s = kernelPca.fit({ X, target: null }, kernelPca.params.parse({ kernel, n_components: 2, gamma: { kind: "value", value: 0.001 } }), ctx());
      const out = kernelPca.predict(s, X);
      if (out.task !== "projection") return assert.fail(out.task);
      const d = out.dims;
      const top = Math.max(1, s.eigenvalues[0]);
      for (let a = 0; a < d; a++) {
        for (let b = 0; b < d; b++) {
          let dot = 0;
          for (let i = 0; i < rows.length; i++) dot += out.values[i * d + a] * out.values[i * d + b];
          const expected = a === b ? s.eigenvalues[a] : 0;
          assert.ok(Math.abs(dot - expected) < 1e-6 * top, `${kernel}: columns ${a}·${b} = ${dot}, expected ${expected}`);
        }
      }
    }),
    { numRuns: 40 },
  );
});

test("kernel_pca and isomap refuse more rows than their limits, before building an n × n matrix", () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => [i, (i * 7) % 13]);
  assert.throws(() => kernelPca.fit({ X: frameOfRows(rows(KERNEL_PCA_MAX_ROWS + 1)), target: null }, kernelPca.params.parse({}), ctx()), (e) => e instanceof UnusableInputError && /at most 2,000/.test(e.message));
  assert.throws(() => isomap.fit({ X: frameOfRows(rows(ISOMAP_MAX_ROWS + 1)), target: null }, isomap.params.parse({}), ctx()), (e) => e instanceof UnusableInputError && /at most 1,000/.test(e.message));
  assert.throws(() => isomap.fit({ X: frameOfRows(rows(5)), target: null }, isomap.params.parse({ n_neighbors: 5 }), ctx()), UnusableInputError);
  assert.throws(() => pca.fit({ X: frameOfRows(rows(5)), target: { task: "regression", y: new Float64Array(5) } }, pca.params.parse({}), ctx()), /without a target/);
});
