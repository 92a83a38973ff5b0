/**
 * Significance tests against SciPy (test/fixtures/evaluation/significance.json, made by
 * scripts/fixtures/evaluation_significance.py). Statistics agree to 1e-10 relative.
 * p-values agree to 1e-7 absolute: jstat's incomplete beta (behind the t, F and binomial
 * p-values) stops its continued fraction at a relative step of 3e-7, which is ample for
 * a decision at α but not bit-exact.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { fiveByTwoCvTTest, friedmanNemenyi, mcnemarTest, pairedTTest } from "../../../src/evaluation/index.js";
import { assertAllClose, assertClose, loadFixture } from "../helpers.js";

interface Stat {
  statistic: number;
  p_value: number;
}
interface SignificanceFixture {
  scipy: string;
  paired_t: (Stat & { a: number[]; b: number[]; df: number })[];
  five_by_two: { a: number[]; b: number[]; first_fold: Stat; first_replication_mean: Stat }[];
  mcnemar: { b: number; c: number; corrected: Stat; uncorrected: Stat; exact: Stat }[];
  friedman: {
    scores: number[][];
    alpha: number;
    average_ranks: number[];
    scipy_statistic: number;
    scipy_p_value: number;
    book_statistic: number;
    book_p_value: number;
    iman_davenport: Stat & { df: number; df2: number };
    q_alpha: number;
    critical_difference: number;
    pairs: { i: number; j: number; p_value: number }[];
  }[];
}

const fx = loadFixture<SignificanceFixture>("significance.json");
const P_TOL = 1e-7;
const closeP = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= P_TOL, `${what}: p ${actual} vs ${expected}`);

describe(`significance tests against SciPy ${fx.scipy}`, () => {
  test("paired t-test = scipy.stats.ttest_rel", () => {
    fx.paired_t.forEach((c, i) => {
      const r = pairedTTest(c.a, c.b);
      assertClose(r.statistic, c.statistic, 1e-10, `case ${i} t`);
      assert.equal(r.df, c.df);
      closeP(r.p_value, c.p_value, `case ${i}`);
      assert.equal(r.significant, c.p_value < 0.05);
    });
  });

  test("5×2cv t-test, Dietterich's and the book's numerator", () => {
    fx.five_by_two.forEach((c, i) => {
      for (const numerator of ["first_fold", "first_replication_mean"] as const) {
        const r = fiveByTwoCvTTest(c.a, c.b, { numerator });
        assertClose(r.statistic, c[numerator].statistic, 1e-10, `case ${i} ${numerator} t`);
        assert.equal(r.df, 5);
        closeP(r.p_value, c[numerator].p_value, `case ${i} ${numerator}`);
      }
    });
  });

  test("McNemar: χ² with and without continuity correction, and exact binomial", () => {
    fx.mcnemar.forEach((c, i) => {
      const counts = { a_right_b_wrong: c.b, a_wrong_b_right: c.c };
      const corrected = mcnemarTest(counts);
      assertClose(corrected.statistic, c.corrected.statistic, 1e-12, `case ${i} corrected`);
      closeP(corrected.p_value, c.corrected.p_value, `case ${i} corrected`);
      const plain = mcnemarTest(counts, { correction: false });
      assertClose(plain.statistic, c.uncorrected.statistic, 1e-12, `case ${i} plain`);
      closeP(plain.p_value, c.uncorrected.p_value, `case ${i} plain`);
      const exact = mcnemarTest(counts, { method: "exact" });
      assert.equal(exact.statistic, c.exact.statistic);
      closeP(exact.p_value, c.exact.p_value, `case ${i} exact`);
    });
  });

  test("Friedman: average ranks, the book's τ_χ², SciPy's tie-corrected statistic, Iman–Davenport τ_F", () => {
    fx.friedman.forEach((c, i) => {
      const book = friedmanNemenyi(c.scores, { alpha: c.alpha });
      assertAllClose(book.average_ranks, c.average_ranks, 1e-12, `case ${i} ranks`);
      assertClose(book.friedman.statistic, c.book_statistic, 1e-10, `case ${i} τχ²`);
      closeP(book.friedman.p_value, c.book_p_value, `case ${i} τχ²`);
      assertClose(book.iman_davenport.statistic, c.iman_davenport.statistic, 1e-10, `case ${i} τF`);
      assert.equal(book.iman_davenport.df, c.iman_davenport.df);
      assert.equal(book.iman_davenport.df2, c.iman_davenport.df2);
      closeP(book.iman_davenport.p_value, c.iman_davenport.p_value, `case ${i} τF`);
      const corrected = friedmanNemenyi(c.scores, { alpha: c.alpha, tieCorrection: true });
      assertClose(corrected.friedman.statistic, c.scipy_statistic, 1e-10, `case ${i} scipy statistic`);
      closeP(corrected.friedman.p_value, c.scipy_p_value, `case ${i} scipy`);
    });
  });

  test("Nemenyi: q_α, critical difference and pairwise p-values (studentized range, df = ∞)", () => {
    fx.friedman.forEach((c, i) => {
      const r = friedmanNemenyi(c.scores, { alpha: c.alpha });
      assertClose(r.nemenyi.q_alpha, c.q_alpha, 1e-6, `case ${i} q`);
      assertClose(r.nemenyi.critical_difference, c.critical_difference, 1e-6, `case ${i} CD`);
      c.pairs.forEach((p, j) => {
        assert.deepEqual([r.nemenyi.pairs[j].i, r.nemenyi.pairs[j].j], [p.i, p.j]);
        assert.ok(Math.abs(r.nemenyi.pairs[j].p_value - p.p_value) <= 1e-6, `case ${i} pair ${j} p`);
      });
    });
  });
});
