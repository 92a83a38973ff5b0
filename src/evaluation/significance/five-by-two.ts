/**
 * 5×2cv paired t-test (Dietterich 1998; the watermelon book §2.4.3 "5×2 交叉验证").
 * Five replications of 2-fold cross-validation; d_i^j = a − b on fold j of replication i,
 * s_i² = (d_i^1 − d̄_i)² + (d_i^2 − d̄_i)², and t = numerator / √(Σ s_i² / 5) with 5 degrees
 * of freedom, two-sided p. The numerator is Dietterich's d_1^1 (`"first_fold"`, default) or
 * the book's mean of the first replication, (d_1^1 + d_1^2)/2 (`"first_replication_mean"`).
 * Scores are given in replication-major order: [r1f1, r1f2, r2f1, r2f2, …, r5f2].
 */
import { tTwoSidedP } from "./distributions.js";
import { decide, type TestResult } from "./result.js";

export type FiveByTwoNumerator = "first_fold" | "first_replication_mean";

export function fiveByTwoCvTTest(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  options: { alpha?: number; numerator?: FiveByTwoNumerator } = {},
): TestResult {
  const alpha = options.alpha ?? 0.05;
  if (a.length !== 10 || b.length !== 10) throw new RangeError("a 5×2cv test needs exactly 10 fold scores per learner");
  const d = Array.from({ length: 10 }, (_, i) => a[i] - b[i]);
  let variance = 0;
  for (let r = 0; r < 5; r++) {
    const m = (d[2 * r] + d[2 * r + 1]) / 2;
    variance += (d[2 * r] - m) ** 2 + (d[2 * r + 1] - m) ** 2;
  }
  const numerator = options.numerator === "first_replication_mean" ? (d[0] + d[1]) / 2 : d[0];
  const denominator = Math.sqrt(variance / 5);
  if (denominator === 0) return decide("five_by_two_cv_t_test", numerator === 0 ? 0 : Infinity, numerator === 0 ? 1 : 0, alpha, { df: 5 });
  const t = numerator / denominator;
  return decide("five_by_two_cv_t_test", t, tTwoSidedP(t, 5), alpha, { df: 5 });
}
