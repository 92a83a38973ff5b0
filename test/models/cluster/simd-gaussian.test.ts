/**
 * The WebAssembly kernels for EM's full and tied covariances (simd-gaussian.ts) give the
 * JavaScript loops' E and M steps to the last bit: the same responsibilities, bound, means and
 * covariances with the kernel as without it, for odd and even d and row counts that are not a
 * multiple of the block (8) or of the scatter's group (4); and whole EM runs end identical.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { eStep, factorise, mStep, startAtMeans } from "../../../src/models/cluster/gmm-em.js";
import { runEm } from "../../../src/models/cluster/gmm.js";
import { GaussianRows } from "../../../src/models/cluster/simd-gaussian.js";
import { SIMD_MIN_ROWS } from "../../../src/models/cluster/simd-distances.js";
import { blobs } from "./helpers.js";

function data(seed: number, n: number, d: number): Float64Array {
  const rng = createRng(seed);
  // Two offset groups, values over several magnitudes: rounding differences would show.
  return Float64Array.from({ length: n * d }, () => (rng.next() - 0.5) * 10 ** (rng.int(3) - 1) + (rng.next() < 0.5 ? 3 : 0));
}

function assertSame(a: Float64Array, b: Float64Array, what: string): void {
  assert.equal(a.length, b.length, what);
  for (let i = 0; i < a.length; i++) assert.ok(Object.is(a[i], b[i]), `${what}[${i}]: ${a[i]} against ${b[i]}`);
}

function kernelOf(X: Float64Array, n: number, d: number): GaussianRows {
  const kernel = GaussianRows.create(X, n, d);
  // Node 20 has WebAssembly SIMD: a missing kernel is a failure here, not a reason to skip.
  assert.ok(kernel, "WebAssembly SIMD is available here");
  return kernel;
}

test("E and M steps with the kernel equal the JavaScript loops bit for bit (full and tied; d odd and even; n mod 8 in 0, 1, 3, 5, 6, 7)", () => {
  const k = 3;
  for (const d of [1, 2, 3, 7, 20]) {
    for (const extra of [0, 1, 3, 5, 6, 7]) {
      const n = SIMD_MIN_ROWS + extra;
      const X = data(d * 100 + extra, n, d);
      const kernel = kernelOf(X, n, d);
      const rng = createRng(d + extra);
      for (const type of ["full", "tied"] as const) {
        let p = startAtMeans(Float64Array.from({ length: k * d }, () => rng.next() * 4 - 1), k, d, type, 2);
        // Three iterations, so the covariances are no longer diagonal.
        for (let it = 0; it < 3; it++) {
          const plain = new Float64Array(n * k);
          const simd = new Float64Array(n * k);
          const what = `d ${d}, n ${n}, ${type}, iteration ${it}`;
          assert.ok(Object.is(eStep(X, n, p, plain), eStep(X, n, p, simd, factorise(p), undefined, kernel)), `${what}: bound`);
          assertSame(simd, plain, `${what}: responsibilities`);
          const next = mStep(X, n, d, plain, k, type, 1e-6);
          const nextSimd = mStep(X, n, d, plain, k, type, 1e-6, kernel);
          assertSame(nextSimd.means, next.means, `${what}: means`);
          assertSame(nextSimd.covariances, next.covariances, `${what}: covariances`);
          assertSame(nextSimd.weights, next.weights, `${what}: weights`);
          p = next;
        }
      }
    }
  }
});

test("whole EM runs on blobs end with the same parameters, bound and iterations with the kernel as without", () => {
  const n = SIMD_MIN_ROWS + 3;
  const d = 5;
  const k = 4;
  const { X } = blobs(n, d, k, 21);
  const kernel = kernelOf(X, n, d);
  for (const type of ["full", "tied"] as const) {
    const start = startAtMeans(X.slice(0, k * d), k, d, type, 1);
    const plain = runEm(X, n, d, start, 100, 1e-3, 1e-6, new Float64Array(n * k));
    const simd = runEm(X, n, d, start, 100, 1e-3, 1e-6, new Float64Array(n * k), undefined, kernel);
    assert.ok(plain.nIter > 2, `${type}: several iterations (${plain.nIter})`);
    assert.equal(simd.nIter, plain.nIter, type);
    assert.ok(Object.is(simd.bound, plain.bound), `${type}: bound ${simd.bound} against ${plain.bound}`);
    assertSame(simd.params.covariances, plain.params.covariances, `${type}: covariances`);
    assertSame(simd.params.means, plain.params.means, `${type}: means`);
  }
});
