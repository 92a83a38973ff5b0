/**
 * The WebAssembly kernel for k-means' full first pass and k-means++'s candidate distances gives
 * the JavaScript loops' distances to the last bit, so the fit is unchanged: the same k-means++
 * rows, labels, centres, inertia and iterations with the kernel as without it, on data with
 * exact ties (integer grids) and without, at sizes past SIMD_MIN_ROWS and not a multiple of the
 * block. Also the kernel's raw distances against squaredDistance.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { absoluteTolerance, centresAtRows, kmeansPlusPlus, lloyd, squaredDistance } from "../../../src/models/cluster/kmeans-engine.js";
import { BLOCK, RowDistances, SIMD_MIN_ROWS } from "../../../src/models/cluster/simd-distances.js";

function data(seed: number, n: number, d: number, grid: boolean): Float64Array {
  const rng = createRng(seed);
  const X = new Float64Array(n * d);
  for (let t = 0; t < X.length; t++) X[t] = grid ? rng.int(4) : (rng.next() - 0.5) * 10 ** (rng.int(5) - 2);
  return X;
}

test("kernel distances equal squaredDistance bit for bit (odd d, n not a multiple of the block)", () => {
  const n = SIMD_MIN_ROWS + 5;
  for (const d of [1, 3, 20]) {
    const X = data(d, n, d, false);
    const kernel = RowDistances.create(X, n, d, 5);
    // Node 20 has WebAssembly SIMD: a missing kernel is a failure here, not a reason to skip (as kernel-rows.test.ts).
    assert.ok(kernel, "WebAssembly SIMD is available here");
    const C = centresAtRows(X, d, [0, 7, 100, n - 1, 55]);
    kernel.setCentres(C, 5);
    for (let first = 0; first < kernel.blocks; first += kernel.chunk) {
      const count = Math.min(kernel.chunk, kernel.blocks - first);
      const D = kernel.run(first, count, 5);
      for (let q = 0; q < count; q++) {
        for (let r = 0; r < BLOCK; r++) {
          const i = (first + q) * BLOCK + r;
          if (i >= n) break;
          for (let c = 0; c < 5; c++) assert.ok(Object.is(D[(q * 5 + c) * BLOCK + r], squaredDistance(X, i, C, c, d)), `row ${i} centre ${c} d ${d}`);
        }
      }
    }
  }
});

test("k-means++ and Lloyd with the kernel = without it (rows, labels, centres, inertia, iterations)", () => {
  for (const [seed, n, d, k, grid] of [
    [1, SIMD_MIN_ROWS + 3, 5, 8, true],
    [2, SIMD_MIN_ROWS * 2 + 7, 20, 8, false],
    [3, SIMD_MIN_ROWS + 1, 2, 3, true],
    [4, SIMD_MIN_ROWS + 9, 7, 12, false],
  ] as const) {
    const X = data(seed, n, d, grid);
    const tol = absoluteTolerance(X, n, d, 1e-4);
    const fit = (simd: boolean) => {
      // A fresh copy each time, so nothing is shared through the kernel's cache.
      const Y = Float64Array.from(X);
      const rows = kmeansPlusPlus(Y, n, d, k, createRng(seed), undefined, simd);
      return { rows, ...lloyd(Y, n, d, centresAtRows(Y, d, rows), k, { maxIter: 50, tol, simd }) };
    };
    const a = fit(true);
    const b = fit(false);
    assert.deepEqual(a.rows, b.rows, `seed ${seed}`);
    assert.deepEqual(a.labels, b.labels, `seed ${seed}`);
    assert.deepEqual(a.centres, b.centres, `seed ${seed}`);
    assert.ok(Object.is(a.inertia, b.inertia));
    assert.equal(a.nIter, b.nIter);
  }
});

test("an empty cluster (two equal initial centres) is relocated the same with the kernel's centre sums as with the JavaScript sums", () => {
  const n = SIMD_MIN_ROWS + 5;
  const d = 3;
  const X = data(9, n, d, false);
  const tol = absoluteTolerance(X, n, d, 1e-4);
  // Rows 4 and 4 again: the second centre is never strictly nearer, so it starts empty.
  const fit = (simd: boolean) => lloyd(Float64Array.from(X), n, d, centresAtRows(X, d, [4, 4, 100, 2000]), 4, { maxIter: 50, tol, simd });
  const a = fit(true);
  const b = fit(false);
  assert.ok(a.labels.includes(1), "the emptied centre took rows");
  assert.deepEqual(a.labels, b.labels);
  assert.deepEqual(a.centres, b.centres);
  assert.ok(Object.is(a.inertia, b.inertia));
  assert.equal(a.nIter, b.nIter);
});
