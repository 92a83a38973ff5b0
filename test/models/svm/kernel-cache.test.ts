import { test } from "node:test";
import assert from "node:assert/strict";
import { KernelRowCache } from "../../../src/models/svm/kernel-cache.js";

test("rows are kept least-recently-used within the budget", () => {
  // Budget of 8 doubles for 4 rows of length 4: two full rows fit.
  const cache = new KernelRowCache(4, 8 * 8);
  cache.get(0, 4).fill(10);
  assert.equal(cache.start, 0);
  cache.get(1, 4).fill(11);
  assert.equal(cache.get(0, 4)[0], 10);
  assert.equal(cache.start, 4, "row 0 still cached");
  cache.get(2, 4).fill(12); // evicts row 1, the least recently used
  cache.get(0, 4);
  assert.equal(cache.start, 4, "row 0 survived");
  cache.get(1, 4);
  assert.equal(cache.start, 0, "row 1 was evicted and must be recomputed");
});

test("a row cached short is grown, keeping what it had", () => {
  const cache = new KernelRowCache(4, 1 << 20);
  const r = cache.get(3, 2);
  r[0] = 1;
  r[1] = 2;
  const grown = cache.get(3, 4);
  assert.equal(cache.start, 2);
  assert.deepEqual(Array.from(grown.subarray(0, 2)), [1, 2]);
});

test("swap follows the solver's permutation and drops rows it cannot keep consistent", () => {
  const cache = new KernelRowCache(4, 1 << 20);
  cache.get(0, 4).set([0, 1, 2, 3]);
  cache.get(1, 2).set([10, 11]);
  cache.swap(1, 3);
  // Row 0 had positions 1 and 3: swapped in place. Row formerly at 1 is now row 3.
  assert.deepEqual(Array.from(cache.get(0, 4)), [0, 3, 2, 1]);
  assert.equal(cache.start, 4);
  const moved = cache.get(3, 2);
  assert.equal(cache.start, 0, "a row holding position 1 but not 3 is dropped");
  assert.equal(moved.length, 2);
});

test("the budget never drops below two full rows", () => {
  const cache = new KernelRowCache(5, 0);
  cache.get(0, 5);
  cache.get(1, 5);
  cache.get(0, 5);
  assert.equal(cache.start, 5);
});
