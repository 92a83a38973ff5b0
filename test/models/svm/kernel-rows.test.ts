import { test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { KernelFunction, squaredNorms, type KernelSpec } from "../../../src/models/svm/kernel.js";
import { KernelRows } from "../../../src/models/svm/kernel-rows.js";
import { createDotRowKernel } from "../../../src/models/svm/simd-dot-row.js";

test("WebAssembly SIMD is available here (otherwise kernel rows fall back to the JavaScript loop)", () => {
  assert.ok(createDotRowKernel(1024) !== null);
});

// Kernel rows from the SIMD dot products (four rows a pass, then the leftovers) against the
// definition K(x_a, x_j), over odd and even widths, every kernel, partial ranges, and after the
// solver's swaps have moved rows around.
for (const d of [1, 2, 5, 20]) {
  test(`kernel rows equal the kernel's definition (d = ${d}), after swaps too`, () => {
    const rng = createRng(d);
    const l = 23;
    const X = Float64Array.from({ length: l * d }, () => rng.next() * 4 - 2);
    const sign = Float64Array.from({ length: l }, () => (rng.next() < 0.5 ? -1 : 1));
    for (const kind of ["rbf", "linear", "poly", "sigmoid"] as const) {
      const spec: KernelSpec = { kind, gamma: 0.3, degree: 3, coef0: 0.5 };
      const rows = new KernelRows(X, l, d, spec);
      const where = Int32Array.from({ length: l }, (_, i) => i); // position → original row
      const swaps = [[0, 22], [3, 4], [10, 21], [5, 5]];
      for (let step = 0; step <= swaps.length; step++) {
        const K = new KernelFunction(spec, d);
        const sq = squaredNorms(X, l, d);
        for (const [a, start, end] of [[0, 0, l], [7, 0, l], [22, 5, 18], [3, 9, 10], [11, 20, 23]]) {
          const out = new Float32Array(l).fill(-99);
          rows.fill(a, start, end, out, sign, -1);
          for (let j = 0; j < l; j++) {
            if (j < start || j >= end) {
              assert.equal(out[j], -99, "outside [start, end) untouched");
              continue;
            }
            const want = Math.fround(-sign[j] * K.value(X, where[a], sq[where[a]], X, where[j], sq[where[j]]));
            assert.ok(Math.abs(out[j] - want) <= 1e-6 * Math.max(1, Math.abs(want)), `${kind} K(${a}, ${j}) = ${out[j]}, want ${want}`);
          }
        }
        for (let i = 0; i < l; i++) assert.ok(Math.abs(rows.diagonal(i) - K.value(X, where[i], sq[where[i]], X, where[i], sq[where[i]])) < 1e-12);
        if (step === swaps.length) break;
        const [i, j] = swaps[step];
        rows.swap(i, j);
        [where[i], where[j]] = [where[j], where[i]];
        [sign[i], sign[j]] = [sign[j], sign[i]];
      }
    }
  });
}

test("the SIMD rbf pass rounds to the same Float32 values as Math.exp over a wide range of exponents", () => {
  const rng = createRng(7);
  const l = 2001;
  const d = 3;
  // Squared distances from 0 to 4000 at γ = 0.05 and 1: exponents from 0 down past the Float32 underflow.
  const X = Float64Array.from({ length: l * d }, (_, k) => (k < d ? 0 : (rng.next() - 0.5) * 2 * Math.sqrt((Math.floor(k / d) / l) * 4000 / d)));
  const sign = new Float64Array(l).fill(1);
  for (const gamma of [0.05, 1]) {
    const spec: KernelSpec = { kind: "rbf", gamma, degree: 3, coef0: 0 };
    const rows = new KernelRows(X, l, d, spec);
    const K = new KernelFunction(spec, d);
    const sq = squaredNorms(X, l, d);
    let differing = 0;
    for (const a of [0, 1, 1000]) {
      const out = new Float32Array(l);
      rows.fill(a, 0, l, out, sign, 1);
      for (let j = 0; j < l; j++) if (out[j] !== Math.fround(K.value(X, a, sq[a], X, j, sq[j]))) differing++;
    }
    assert.ok(differing <= 3, `${differing} of ${3 * l} Float32 kernel values differ from Math.exp's (γ = ${gamma})`);
  }
});
