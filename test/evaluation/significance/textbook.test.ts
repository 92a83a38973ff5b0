/** Significance tests on textbook examples with published numbers. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { averageRanks, disagreementCounts, friedmanNemenyi, mcnemarTest, pairedTTest, studentizedRangeQuantile } from "../../../src/evaluation/index.js";
import { assertAllClose, assertClose } from "../helpers.js";

describe("Friedman and Nemenyi, the watermelon book's example (§2.4.4, tables 2.5–2.7)", () => {
  // Ranks of algorithms A, B, C on data sets D1..D4 (lower is better); D2 has a tie.
  const ranks = [
    [1, 2, 3],
    [1, 2.5, 2.5],
    [1, 2, 3],
    [1, 2, 3],
  ];
  const r = friedmanNemenyi(ranks, { higherIsBetter: false });

  test("average ranks 1, 2.125, 2.875", () => {
    assert.deepEqual(r.average_ranks, [1, 2.125, 2.875]);
  });

  test("τ_F = 24.429, beyond the F(2, 6) critical value 5.143 at α = 0.05", () => {
    assertClose(r.friedman.statistic, 7.125, 1e-12, "τχ²");
    assertClose(r.iman_davenport.statistic, 24.429, 0.0005, "τF");
    assert.equal(r.iman_davenport.df, 2);
    assert.equal(r.iman_davenport.df2, 6);
    assert.equal(r.iman_davenport.significant, true);
  });

  test("Nemenyi q_0.05 = 2.344 and CD = 1.657; A differs from C but not from B", () => {
    assertClose(r.nemenyi.q_alpha, 2.344, 0.0005, "q");
    assertClose(r.nemenyi.critical_difference, 1.657, 0.0005, "CD");
    const pair = (i: number, j: number) => r.nemenyi.pairs.find((p) => p.i === i && p.j === j)!;
    assert.equal(pair(0, 2).significant, true); // 1.875 > 1.657
    assert.equal(pair(0, 1).significant, false); // 1.125
    assert.equal(pair(1, 2).significant, false); // 0.75
  });

  test("the book's q_α table (2.7), k = 2..10", () => {
    const q05 = [1.96, 2.344, 2.569, 2.728, 2.85, 2.949, 3.031, 3.102, 3.164];
    const q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.78, 2.855, 2.92];
    q05.forEach((q, i) => assertClose(studentizedRangeQuantile(0.95, i + 2, Infinity) / Math.SQRT2, q, 0.0006, `q0.05 k=${i + 2}`));
    q10.forEach((q, i) => assertClose(studentizedRangeQuantile(0.9, i + 2, Infinity) / Math.SQRT2, q, 0.0006, `q0.10 k=${i + 2}`));
  });

  test("higher-is-better scores rank the same way as their negation", () => {
    const accuracies = ranks.map((row) => row.map((v) => 1 - v / 10));
    assert.deepEqual(friedmanNemenyi(accuracies).average_ranks, r.average_ranks);
  });
});

describe("McNemar, published examples", () => {
  test("mlxtend's documented example: b = 11, c = 1 → χ² = 6.75, p = 0.0094", () => {
    const r = mcnemarTest({ a_right_b_wrong: 11, a_wrong_b_right: 1 });
    assert.equal(r.statistic, 6.75);
    assertClose(r.p_value, 0.009375, 0.0001, "p");
    assert.equal(r.significant, true);
    const exact = mcnemarTest({ a_right_b_wrong: 11, a_wrong_b_right: 1 }, { method: "exact" });
    assertClose(exact.p_value, 26 / 4096, 1e-9, "exact p = 2·13/4096");
  });

  test("Wikipedia's example (b = 121, c = 59): χ² = 21.35 uncorrected, p < 1e-5", () => {
    const r = mcnemarTest({ a_right_b_wrong: 121, a_wrong_b_right: 59 }, { correction: false });
    assertClose(r.statistic, 21.3555, 0.0001, "χ²");
    assert.ok(r.p_value < 1e-5 && r.p_value > 1e-6);
  });

  test("no disagreement: statistic 0, p = 1, not significant", () => {
    const r = mcnemarTest({ a_right_b_wrong: 0, a_wrong_b_right: 0 });
    assert.deepEqual([r.statistic, r.p_value, r.significant], [0, 1, false]);
  });

  test("disagreement counts from predictions", () => {
    const counts = disagreementCounts([0, 1, 1, 0, 1], [0, 1, 0, 1, 1], [1, 1, 1, 0, 0]);
    assert.deepEqual(counts, { both_right: 1, a_right_b_wrong: 2, a_wrong_b_right: 2, both_wrong: 0 });
  });
});

describe("paired t-test edge cases", () => {
  test("identical scores: t = 0, p = 1", () => {
    const r = pairedTTest([0.8, 0.9, 0.7], [0.8, 0.9, 0.7]);
    assert.deepEqual([r.statistic, r.p_value, r.significant], [0, 1, false]);
  });

  test("a constant non-zero difference: infinite t (null), p = 0", () => {
    // binary fractions, so that every difference is exactly 0.25
    const r = pairedTTest([0.75, 0.5, 0.25], [0.5, 0.25, 0]);
    assert.deepEqual([r.statistic, r.p_value, r.significant], [null, 0, true]);
  });

  test("fewer than two folds is an error", () => {
    assert.throws(() => pairedTTest([0.5], [0.4]), RangeError);
  });
});

test("average ranks share ties", () => {
  assertAllClose(averageRanks([0.9, 0.8, 0.9, 0.7], true), [1.5, 3, 1.5, 4], 0, "ranks");
  assertAllClose(averageRanks([3, 1, 2, 2, 2], false), [5, 1, 3, 3, 3], 0, "ranks ascending");
});
