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
import { UnusableInputError } from "../../../src/models/contract.js";
import { rowMajor } from "../../../src/models/design-matrix.js";
import { kmeans, kmeansParams } from "../../../src/models/cluster/kmeans.js";
import { absoluteTolerance, centresAtRows, kmeansPlusPlus, lloyd, randomRows, squaredDistance } from "../../../src/models/cluster/kmeans-engine.js";
import { BLOCK, interleaveRows, RowDistances, SIMD_MIN_ROWS } from "../../../src/models/cluster/simd-distances.js";
import { ctx, frameOf } from "./helpers.js";

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

const columnsOf = (X: Float64Array, n: number, d: number) => Array.from({ length: d }, (_, j) => Float64Array.from({ length: n }, (_, i) => X[i * d + j]));

test("the kernel's copy from columns = interleaveRows of the row-major matrix; rows read back; column sums and tolerance as absoluteTolerance's", () => {
  for (const [n, d] of [[SIMD_MIN_ROWS, 1], [SIMD_MIN_ROWS + 3, 3], [SIMD_MIN_ROWS + 13, 20]] as const) {
    const X = data(n + d, n, d, false);
    const kernel = RowDistances.fromColumns(columnsOf(X, n, d), n, 4);
    assert.ok(kernel, "WebAssembly SIMD is available here");
    const blocks = Math.ceil(n / BLOCK);
    const expected = new Float64Array(blocks * d * BLOCK);
    interleaveRows(X, n, d, expected);
    const row = new Float64Array(d);
    for (let i = 0; i < n; i++) {
      kernel.row(i, row);
      for (let j = 0; j < d; j++) assert.ok(Object.is(row[j], X[i * d + j]), `row ${i}`);
    }
    // Each column summed in row order, as absoluteTolerance's means.
    for (let j = 0; j < d; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += X[i * d + j];
      assert.ok(Object.is(kernel.columnSums![j], s), `column ${j}`);
    }
    for (const tol of [1e-4, 1, 0]) {
      assert.ok(Object.is(absoluteTolerance(kernel, n, d, tol), absoluteTolerance(X, n, d, tol)), `tolerance n ${n} d ${d}`);
      // A kernel copied from the row-major matrix has no column sums: the means are summed from its rows, the same.
      assert.ok(Object.is(absoluteTolerance(RowDistances.create(X, n, d, 4)!, n, d, tol), absoluteTolerance(X, n, d, tol)));
    }
    // The padding of the last block is zeros in both.
    const copy = RowDistances.fromColumns(columnsOf(X, n, d), n, 4)!;
    const again = new Float64Array(d);
    for (let i = 0; i < n; i++) assert.deepEqual(copy.row(i, again), X.subarray(i * d, i * d + d));
  }
});

test("kmeans from a frame (the kernel's copy of its columns, no row-major matrix) = the JavaScript engine on the row-major matrix", () => {
  for (const [seed, n, d, grid] of [
    [11, SIMD_MIN_ROWS + 5, 6, true],
    [12, SIMD_MIN_ROWS * 2 + 1, 20, false],
    [13, SIMD_MIN_ROWS, 1, false],
  ] as const) {
    const X = data(seed, n, d, grid);
    const frame = frameOf(X, n, d);
    const M = rowMajor(frame);
    for (const tolParam of [1e-4, 0]) {
      const tol = absoluteTolerance(M, n, d, tolParam);
      const js = (rows: number[], k: number) => lloyd(M, n, d, centresAtRows(M, d, rows), k, { maxIter: 300, tol, simd: false });
      const check = (s: ReturnType<typeof kmeans.fit>, r: ReturnType<typeof js>, what: string) => {
        assert.deepEqual(s.centres, r.centres, what);
        assert.deepEqual(s.labels, r.labels, what);
        assert.ok(Object.is(s.inertia, r.inertia), what);
        assert.equal(s.n_iter, r.nIter, what);
      };
      // k-means++ (its trials in the kernel), random rows, and explicit rows with a repeated one (an emptied centre relocated).
      const pp = kmeans.fit({ X: frame, target: null }, kmeansParams.parse({ n_clusters: 8, tol: tolParam }), ctx(seed));
      check(pp, js(kmeansPlusPlus(M, n, d, 8, createRng(seed), undefined, false), 8), `k-means++ seed ${seed}`);
      const random = kmeans.fit({ X: frame, target: null }, kmeansParams.parse({ n_clusters: 5, init: { kind: "random" }, n_init: 1, tol: tolParam }), ctx(seed));
      check(random, js(randomRows(n, 5, createRng(seed)), 5), `random seed ${seed}`);
      const rows = [4, 4, 100, 2000];
      const given = kmeans.fit({ X: frame, target: null }, kmeansParams.parse({ n_clusters: 4, init: { kind: "rows", rows }, tol: tolParam }), ctx(seed));
      check(given, js(rows, 4), `rows seed ${seed}`);
    }
  }
});

test("kept rows (seeded k-means' fixed) on the kernel = the JavaScript loops: their sums under their fixed centre, the SSE from their labels", () => {
  const n = SIMD_MIN_ROWS + 7;
  const d = 4;
  const X = data(21, n, d, false);
  const fixed = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i += 5) fixed[i] = i % 3;
  const tol = absoluteTolerance(X, n, d, 1e-4);
  const fit = (simd: boolean) => lloyd(Float64Array.from(X), n, d, centresAtRows(X, d, [1, 2, 3]), 3, { maxIter: 100, tol, fixed, simd });
  const a = fit(true);
  const b = fit(false);
  assert.deepEqual(a.labels, b.labels);
  assert.deepEqual(a.centres, b.centres);
  assert.ok(Object.is(a.inertia, b.inertia));
  assert.equal(a.nIter, b.nIter);
});

test("kmeans from a frame with a missing value names the first such column, as rowMajor does", () => {
  const n = SIMD_MIN_ROWS + 1;
  const d = 3;
  const X = data(5, n, d, false);
  X[700 * d + 2] = NaN;
  X[900 * d + 1] = NaN;
  assert.throws(
    () => kmeans.fit({ X: frameOf(X, n, d), target: null }, kmeansParams.parse({ n_clusters: 3 }), ctx()),
    (e: unknown) => e instanceof UnusableInputError && /column x1 has missing values/.test(e.message),
  );
  // +∞ and −∞ in one column (a NaN sum, no NaN value) are not missing values: the fit goes on.
  X[700 * d + 2] = Infinity;
  X[900 * d + 1] = 0;
  X[800 * d + 2] = -Infinity;
  assert.doesNotThrow(() => kmeans.fit({ X: frameOf(X, n, d), target: null }, kmeansParams.parse({ n_clusters: 3 }), ctx()));
});
