/**
 * Paired t-test over per-fold scores of two learners evaluated on the same folds (the
 * watermelon book §2.4.3 "交叉验证 t 检验"; scipy.stats.ttest_rel): with d_i = a_i − b_i,
 * t = mean(d) / (s_d / √k), s_d the sample standard deviation (n − 1), k − 1 degrees of
 * freedom, two-sided p. The statistic is signed (positive: a scores higher); the book
 * tests |t|, which gives the same two-sided decision.
 * Zero spread of the differences: all equal to zero → t = 0, p = 1 (SciPy gives NaN);
 * all equal and non-zero → t infinite (statistic null), p = 0.
 */
import { tTwoSidedP } from "./distributions.js";
import { decide, type TestResult } from "./result.js";

export interface PairedTTestResult extends TestResult {
  mean_difference: number;
  std_difference: number;
  n: number;
}

export function pairedTTest(a: ArrayLike<number>, b: ArrayLike<number>, options: { alpha?: number } = {}): PairedTTestResult {
  const alpha = options.alpha ?? 0.05;
  const k = a.length;
  if (b.length !== k) throw new RangeError("the two score lists differ in length");
  if (k < 2) throw new RangeError("a paired t-test needs at least two folds");
  let mean = 0;
  for (let i = 0; i < k; i++) mean += a[i] - b[i];
  mean /= k;
  let ss = 0;
  for (let i = 0; i < k; i++) {
    const d = a[i] - b[i] - mean;
    ss += d * d;
  }
  const sd = Math.sqrt(ss / (k - 1));
  const df = k - 1;
  let result: TestResult;
  if (sd === 0) result = decide("paired_t_test", mean === 0 ? 0 : Infinity, mean === 0 ? 1 : 0, alpha, { df });
  else {
    const t = mean / (sd / Math.sqrt(k));
    result = decide("paired_t_test", t, tTwoSidedP(t, df), alpha, { df });
  }
  return { ...result, mean_difference: mean, std_difference: sd, n: k };
}
