import { test } from "node:test";
import assert from "node:assert/strict";
import { KernelRowCache } from "../../../src/models/svm/kernel-cache.js";

test("rows are kept least-recently-used within the budget", () => {
  // Budget of 8 Float32 values for 4 rows of length 4: two full rows fit.
  const cache = new KernelRowCache(4, 8 * 4);
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

test("several swaps before the next get act as the same swaps one by one", () => {
  const l = 6;
  const cache = new KernelRowCache(l, 1 << 20);
  cache.get(0, 6).set([0, 1, 2, 3, 4, 5]);
  cache.get(1, 3).set([10, 11, 12]);
  cache.get(2, 5).set([20, 21, 22, 23, 24]);
  const swaps = [[1, 4], [0, 5], [1, 2], [3, 4]];
  // Reference: a full row permuted like the positions; a row of length n survives while no swap straddles n.
  const perm = [0, 1, 2, 3, 4, 5];
  const slot = [0, 1, 2, 3, 4, 5]; // slot[s] = the row first cached at position s, now at s
  const lens = new Map([[0, 6], [1, 3], [2, 5]]);
  const alive = new Set([0, 1, 2]);
  for (const [i, j] of swaps) {
    cache.swap(i, j);
    [perm[i], perm[j]] = [perm[j], perm[i]];
    [slot[i], slot[j]] = [slot[j], slot[i]];
    for (const r of alive) if ((lens.get(r) as number) > Math.min(i, j) && (lens.get(r) as number) <= Math.max(i, j)) alive.delete(r);
  }
  for (let s = 0; s < l; s++) {
    const r = slot[s];
    if (!lens.has(r)) continue;
    const n = lens.get(r) as number;
    const row = cache.get(s, n);
    if (!alive.has(r)) {
      assert.equal(cache.start, 0, `row first at ${r} was dropped`);
      continue;
    }
    assert.equal(cache.start, n, `row first at ${r} kept`);
    assert.deepEqual(Array.from(row.subarray(0, n)), perm.slice(0, n).map((p) => r * 10 + p), `row first at ${r}`);
  }
});
