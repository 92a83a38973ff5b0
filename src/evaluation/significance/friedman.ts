/**
 * Friedman test with the Nemenyi post-hoc test, for k ≥ 3 learners over N ≥ 2 data sets
 * (the watermelon book §2.4.4; Demšar 2006). Within each data set the learners are ranked
 * 1..k (1 the best, ties sharing their average rank); r_i is learner i's average rank.
 *   τ_χ² = 12N / (k(k+1)) · (Σ r_i² − k(k+1)²/4)          ~ χ²(k − 1)
 *   τ_F  = (N − 1) τ_χ² / (N(k − 1) − τ_χ²)                  ~ F(k − 1, (k − 1)(N − 1))
 * (τ_F is Iman and Davenport's correction; the book recommends it.) The book's τ_χ² has no
 * correction for ties; `tieCorrection: true` divides it by 1 − Σ(t³ − t)/(N k (k² − 1)),
 * as scipy.stats.friedmanchisquare does. When the rankings agree perfectly τ_F is infinite
 * (statistic null, p = 0).
 * Nemenyi: two learners differ when |r_i − r_j| > CD = q_α √(k(k+1)/(6N)), q_α being the
 * studentized range quantile (infinite df) divided by √2 (the book's table 2.7:
 * q_0.05 = 1.960, 2.344, 2.569, … for k = 2, 3, 4, …).
 */
import { chiSquareUpperP, fUpperP, studentizedRangeQuantile, studentizedRangeUpperP } from "./distributions.js";
import { averageRanks, tieTerm } from "./ranks.js";
import { checkAlpha, decide, type TestResult } from "./result.js";

export interface NemenyiPair {
  i: number;
  j: number;
  rank_difference: number;
  p_value: number;
  significant: boolean;
}

export interface FriedmanNemenyiResult {
  friedman: TestResult;
  iman_davenport: TestResult;
  /** Learner i's average rank over the data sets. */
  average_ranks: number[];
  /** Per data set (row), per learner (column). */
  ranks: number[][];
  nemenyi: { q_alpha: number; critical_difference: number; pairs: NemenyiPair[] };
  n_datasets: number;
  n_learners: number;
}

export interface FriedmanOptions {
  alpha?: number;
  /** Scores where higher is better (accuracy: true, default; error rate: false). */
  higherIsBetter?: boolean;
  tieCorrection?: boolean;
}

/** `scores[d][i]`: learner i's score on data set d. */
export function friedmanNemenyi(scores: readonly (readonly number[])[], options: FriedmanOptions = {}): FriedmanNemenyiResult {
  const alpha = options.alpha ?? 0.05;
  checkAlpha(alpha);
  const n = scores.length;
  const k = n === 0 ? 0 : scores[0].length;
  if (n < 2 || k < 3) throw new RangeError("the Friedman test needs at least 3 learners on at least 2 data sets");
  if (scores.some((row) => row.length !== k || row.some((v) => !Number.isFinite(v)))) {
    throw new RangeError("every data set needs a finite score for every learner");
  }
  const ranks = scores.map((row) => averageRanks(row, options.higherIsBetter ?? true));
  const avg = new Array<number>(k).fill(0);
  for (const row of ranks) for (let i = 0; i < k; i++) avg[i] += row[i];
  for (let i = 0; i < k; i++) avg[i] /= n;

  let sumSq = 0;
  for (const r of avg) sumSq += r * r;
  let chi2 = ((12 * n) / (k * (k + 1))) * (sumSq - (k * (k + 1) ** 2) / 4);
  if (options.tieCorrection) {
    const ties = scores.reduce((s, row) => s + tieTerm(row), 0);
    const c = 1 - ties / (n * k * (k * k - 1));
    if (c > 0) chi2 /= c;
  }
  chi2 = Math.max(0, chi2);
  const friedman = decide("friedman", chi2, chiSquareUpperP(chi2, k - 1), alpha, { df: k - 1 });

  const df1 = k - 1;
  const df2 = (k - 1) * (n - 1);
  const denominator = n * (k - 1) - chi2;
  const imanDavenport =
    denominator > 0
      ? decide("iman_davenport", ((n - 1) * chi2) / denominator, fUpperP(((n - 1) * chi2) / denominator, df1, df2), alpha, { df: df1, df2 })
      : decide("iman_davenport", Infinity, 0, alpha, { df: df1, df2 });

  const se = Math.sqrt((k * (k + 1)) / (6 * n));
  const qAlpha = studentizedRangeQuantile(1 - alpha, k, Infinity) / Math.SQRT2;
  const cd = qAlpha * se;
  const pairs: NemenyiPair[] = [];
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const diff = Math.abs(avg[i] - avg[j]);
      const p = studentizedRangeUpperP((diff / se) * Math.SQRT2, k, Infinity);
      pairs.push({ i, j, rank_difference: diff, p_value: p, significant: diff > cd });
    }
  }
  return {
    friedman,
    iman_davenport: imanDavenport,
    average_ranks: avg,
    ranks: ranks.map((r) => Array.from(r)),
    nemenyi: { q_alpha: qAlpha, critical_difference: cd, pairs },
    n_datasets: n,
    n_learners: k,
  };
}
