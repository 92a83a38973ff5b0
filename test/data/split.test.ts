import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { bootstrap, fiveByTwo, holdout, kfold, leaveOneOut, repeatedKfold, type Split } from "../../src/data/split.js";
import { createRng } from "../../src/data/random.js";
import { readCsv } from "../../src/data/read-csv.js";
import { column, fixture, throwsDataError } from "./helpers.js";

const isAscending = (a: Int32Array) => a.every((x, i) => i === 0 || a[i - 1] <= x);

/** Train and test are disjoint, ascending, and together every row once. */
function assertPartition(s: Split, n: number): void {
  assert.ok(isAscending(s.train) && isAscending(s.test));
  assert.deepEqual([...s.train, ...s.test].sort((a, b) => a - b), Array.from({ length: n }, (_, i) => i));
}

function countClass(rows: Int32Array, y: Int32Array, c: number): number {
  let k = 0;
  for (const r of rows) if (y[r] === c) k++;
  return k;
}

const labels = (() => {
  const c = column(readCsv(fixture("watermelon-3.0.csv")), "好瓜");
  return c.type === "categorical" ? c.codes : new Int32Array();
})(); // 8 是, 9 否

describe("holdout", () => {
  test("plain: round(testSize · n) rows held out", () => {
    const s = holdout(17, { testSize: 0.25 }, createRng(1));
    assertPartition(s, 17);
    assert.equal(s.test.length, 4);
  });

  test("stratified on watermelon 3.0: round(0.3 · n_c) of each class", () => {
    const s = holdout(17, { testSize: 0.3, stratify: labels }, createRng(7));
    assertPartition(s, 17);
    assert.equal(countClass(s.test, labels, 0), 3); // 否: round(2.7)
    assert.equal(countClass(s.test, labels, 1), 2); // 是: round(2.4)
  });

  test("stratified keeps one row on each side of a class with ≥ 2 rows; a single-row class trains", () => {
    const y = Int32Array.of(0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2);
    const s = holdout(y.length, { testSize: 0.1, stratify: y }, createRng(3));
    assert.equal(countClass(s.test, y, 0), 1);
    assert.equal(countClass(s.test, y, 1), 1);
    assert.equal(countClass(s.test, y, 2), 0);
    const t = holdout(y.length, { testSize: 0.9, stratify: y }, createRng(3));
    assert.equal(countClass(t.train, y, 0), 1);
    assert.equal(countClass(t.train, y, 1), 1);
  });

  test("same seed, same split; another seed, another split", () => {
    const a = holdout(100, { testSize: 0.25 }, createRng(42));
    assert.deepEqual(holdout(100, { testSize: 0.25 }, createRng(42)), a);
    assert.notDeepEqual(holdout(100, { testSize: 0.25 }, createRng(43)).test, a.test);
  });

  test("refuses a bad test_size and too few rows", () => {
    for (const t of [0, 1, -0.1, 1.5, NaN]) throwsDataError(() => holdout(10, { testSize: t }, createRng(1)), "validation.test_size", "between 0 and 1");
    throwsDataError(() => holdout(1, { testSize: 0.5 }, createRng(1)), "validation", "at least 2 rows");
    throwsDataError(() => holdout(3, { testSize: 0.5, stratify: Int32Array.of(0, 1, 2) }, createRng(1)), "validation.test_size", "at least 2 rows");
  });
});

describe("kfold", () => {
  test("folds partition the rows; sizes differ by at most one", () => {
    const folds = kfold(17, { k: 5 }, createRng(1));
    assert.equal(folds.length, 5);
    folds.forEach((f) => assertPartition(f, 17));
    assert.deepEqual([...folds.flatMap((f) => [...f.test])].sort((a, b) => a - b), Array.from({ length: 17 }, (_, i) => i));
    assert.deepEqual(folds.map((f) => f.test.length).sort(), [3, 3, 4, 4, 3].sort());
  });

  test("stratified on watermelon 3.0 (9 否, 8 是) with k = 3: class counts floor or ceil of n_c / k", () => {
    const folds = kfold(17, { k: 3, stratify: labels }, createRng(5));
    for (const f of folds) {
      assert.equal(countClass(f.test, labels, 0), 3);
      assert.ok([2, 3].includes(countClass(f.test, labels, 1)));
    }
  });

  test("refuses k < 2, non-integer k and k > n", () => {
    throwsDataError(() => kfold(10, { k: 1 }, createRng(1)), "validation.k", "at least 2");
    throwsDataError(() => kfold(10, { k: 2.5 }, createRng(1)), "validation.k");
    throwsDataError(() => kfold(4, { k: 5 }, createRng(1)), "validation.k", "5 rows");
  });

  test("repeated k-fold and 5×2: each repetition is a partition, repetitions differ", () => {
    const splits = repeatedKfold(20, { k: 4, repeats: 3 }, createRng(9));
    assert.equal(splits.length, 12);
    for (let r = 0; r < 3; r++) {
      const tests = splits.slice(4 * r, 4 * r + 4).flatMap((s) => [...s.test]);
      assert.deepEqual(tests.sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i));
    }
    assert.notDeepEqual(splits[0].test, splits[4].test);
    const five = fiveByTwo(17, { stratify: labels }, createRng(2));
    assert.equal(five.length, 10);
    for (let r = 0; r < 5; r++) assert.deepEqual(five[2 * r].train, five[2 * r + 1].test);
    throwsDataError(() => repeatedKfold(20, { k: 4, repeats: 0 }, createRng(1)), "validation.repeats");
  });
});

describe("leaveOneOut", () => {
  test("n splits, each testing one row", () => {
    const splits = leaveOneOut(4);
    assert.deepEqual(splits.map((s) => [...s.test]), [[0], [1], [2], [3]]);
    assert.deepEqual([...splits[2].train], [0, 1, 3]);
    throwsDataError(() => leaveOneOut(1), "validation");
  });
});

describe("bootstrap", () => {
  test("n draws with repeats, ascending; out-of-bag rows are exactly the undrawn ones", () => {
    for (const s of bootstrap(30, 5, createRng(4))) {
      assert.equal(s.train.length, 30);
      assert.ok(isAscending(s.train) && isAscending(s.test) && s.test.length > 0);
      const drawn = new Set(s.train);
      assert.deepEqual([...s.test], Array.from({ length: 30 }, (_, i) => i).filter((i) => !drawn.has(i)));
    }
  });

  test("the out-of-bag share tends to 1/e", () => {
    const n = 20000;
    const shares = bootstrap(n, 5, createRng(11)).map((s) => s.test.length / n);
    const mean = shares.reduce((a, b) => a + b) / shares.length;
    assert.ok(Math.abs(mean - Math.exp(-1)) < 0.005, `mean OOB share ${mean}`);
  });

  test("tiny n redraws until something is out of bag; n = 1 and bad rounds are refused", () => {
    for (const s of bootstrap(2, 20, createRng(1))) assert.equal(s.test.length, 1);
    throwsDataError(() => bootstrap(1, 1, createRng(1)), "validation");
    throwsDataError(() => bootstrap(10, 0, createRng(1)), "validation.rounds");
  });
});

describe("split properties", () => {
  const classes = fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 2, maxLength: 60 }).map((a) => Int32Array.from(a));

  test("stratified k-fold: partition, and every class within 1 of n_c / k in every fold", () => {
    fc.assert(
      fc.property(classes, fc.integer({ min: 2, max: 10 }), fc.integer(), (y, k, seed) => {
        fc.pre(k <= y.length);
        const folds = kfold(y.length, { k, stratify: y }, createRng(seed));
        const tests = folds.flatMap((f) => [...f.test]).sort((a, b) => a - b);
        assert.deepEqual(tests, Array.from({ length: y.length }, (_, i) => i));
        for (const f of folds) {
          assertPartition(f, y.length);
          assert.ok(f.test.length > 0 && f.train.length > 0);
          for (const c of new Set(y)) {
            const share = countClass(Int32Array.from({ length: y.length }, (_, i) => i), y, c) / k;
            assert.ok(Math.abs(countClass(f.test, y, c) - share) < 1);
          }
        }
        assert.deepEqual(kfold(y.length, { k, stratify: y }, createRng(seed)), folds);
      }),
      { numRuns: 200 },
    );
  });

  test("stratified holdout: partition with both sides non-empty, reproducible", () => {
    fc.assert(
      fc.property(classes, fc.double({ min: 0.01, max: 0.99, noNaN: true }), fc.integer(), (y, testSize, seed) => {
        let s: Split;
        try {
          s = holdout(y.length, { testSize, stratify: y }, createRng(seed));
        } catch {
          // Refused only when no class has two rows.
          const counts = new Map<number, number>();
          for (const c of y) counts.set(c, (counts.get(c) ?? 0) + 1);
          assert.ok([...counts.values()].every((n) => n < 2));
          return;
        }
        assertPartition(s, y.length);
        assert.ok(s.train.length > 0 && s.test.length > 0);
        assert.deepEqual(holdout(y.length, { testSize, stratify: y }, createRng(seed)), s);
      }),
      { numRuns: 200 },
    );
  });
});
