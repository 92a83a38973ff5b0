/** Binning edge cases (scikit-learn's test_binning.py): constant and all-missing columns, few distinct values, quantiles, many levels. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { makeFrame } from "../../../../src/data/frame.js";
import { applyBins, binOf, fitBins, numericThresholds } from "../../../../src/models/ensemble/gradient-boosting/binning.js";
import { columnsForFit } from "../../../../src/models/tree/tree-columns.js";

function bin(values: number[], maxBins: number) {
  const cols = columnsForFit(makeFrame([{ type: "numeric", name: "x", values: Float64Array.from(values) }]));
  const rows = Int32Array.from(values, (_, i) => i);
  const mapper = fitBins(cols, rows, maxBins);
  return { mapper, bins: applyBins(mapper, cols, rows)[0] };
}

test("a constant column is one bin, its missing cells the missing bin", () => {
  const { mapper, bins } = bin([3, 3, NaN, 3], 255);
  assert.equal(mapper.nBins[0], 1);
  assert.deepEqual(Array.from(mapper.thresholds[0] as Float64Array), []);
  assert.deepEqual(Array.from(bins), [0, 0, 255, 0]);
});

test("an all-missing column puts every row in the missing bin and keeps one empty real bin", () => {
  const { mapper, bins } = bin([NaN, NaN, NaN], 16);
  assert.equal(mapper.nBins[0], 1);
  assert.deepEqual(Array.from(bins), [16, 16, 16]);
});

test("fewer distinct values than bins: one bin per value, edges at midpoints", () => {
  const { mapper, bins } = bin([5, 1, 3, 1, 5, NaN], 255);
  assert.deepEqual(Array.from(mapper.thresholds[0] as Float64Array), [2, 4]);
  assert.equal(mapper.nBins[0], 3);
  assert.deepEqual(Array.from(bins), [2, 0, 1, 0, 2, 255]);
});

test("more distinct values than bins: at most max_bins bins, roughly equal counts", () => {
  const values = Array.from({ length: 1000 }, (_, i) => i);
  const { mapper, bins } = bin(values, 10);
  assert.equal(mapper.nBins[0], 10);
  const counts = new Array(10).fill(0);
  for (const b of bins) counts[b]++;
  for (const c of counts) assert.ok(c >= 90 && c <= 110, `bin counts ${counts}`);
});

test("bin ≤ b exactly when value ≤ thresholds[b], for any values", () => {
  fc.assert(
    fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 300 }), fc.integer({ min: 2, max: 40 }), (values, maxBins) => {
      const t = numericThresholds(Float64Array.from(values).sort(), maxBins);
      assert.ok(t.length + 1 <= maxBins);
      for (let i = 1; i < t.length; i++) assert.ok(t[i] > t[i - 1]);
      for (const x of values) {
        const b = binOf(t, x);
        for (let k = 0; k < t.length; k++) assert.equal(b <= k, x <= t[k]);
      }
    }),
  );
});

test("categorical columns bin by code; beyond max_bins levels the rarest are pooled with the missing values", () => {
  const levels = ["a", "b", "c", "d"];
  const codes = Int32Array.of(0, 1, 1, 2, 2, 2, 3, 3, 3, 3, -1);
  const cols = columnsForFit(makeFrame([{ type: "categorical", name: "g", codes, levels }]));
  const rows = Int32Array.from(codes, (_, i) => i);
  const wide = fitBins(cols, rows, 255);
  assert.deepEqual(Array.from(applyBins(wide, cols, rows)[0]), [0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 255]);
  const narrow = fitBins(cols, rows, 2);
  assert.deepEqual(Array.from(narrow.levelBin[0] as Int32Array), [-1, -1, 0, 1]);
  assert.deepEqual(Array.from(applyBins(narrow, cols, rows)[0]), [2, 2, 2, 0, 0, 0, 1, 1, 1, 1, 2]);
});

test("applyBins agrees with binOf on every value, missing cells in the missing bin", () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.constant(NaN)), { minLength: 1, maxLength: 400 }), fc.integer({ min: 2, max: 255 }), (values, maxBins) => {
      const { mapper, bins } = bin(values, maxBins);
      const t = mapper.thresholds[0] as Float64Array;
      values.forEach((x, i) => assert.equal(bins[i], Number.isNaN(x) ? maxBins : binOf(t, x)));
    }),
  );
});
