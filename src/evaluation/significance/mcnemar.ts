/**
 * McNemar's test for two classifiers scored on the same rows (the watermelon book §2.4.3
 * "McNemar 检验"). Only the rows where exactly one is right matter: b = A right and B
 * wrong, c = A wrong and B right. The book's statistic, with continuity correction,
 *   τ_χ² = (|b − c| − 1)² / (b + c)   ~ χ²(1);
 * `correction: false` drops the −1. For small b + c (a rule of thumb: < 25) the exact
 * binomial test is better: `method: "exact"` gives p = min(1, 2·P(X ≤ min(b, c))),
 * X ~ Bin(b + c, ½), with statistic min(b, c) (as statsmodels' mcnemar(exact=True)).
 * b + c = 0 (the two never disagree): statistic 0, p = 1.
 */
import { binomialTwoSidedHalfP, chiSquareUpperP } from "./distributions.js";
import { decide, type TestResult } from "./result.js";

export interface DisagreementCounts {
  /** Rows A classifies right and B wrong. */
  a_right_b_wrong: number;
  /** Rows A classifies wrong and B right. */
  a_wrong_b_right: number;
  both_right: number;
  both_wrong: number;
}

export interface McNemarResult extends TestResult {
  b: number;
  c: number;
}

export function disagreementCounts(yTrue: ArrayLike<number>, predA: ArrayLike<number>, predB: ArrayLike<number>): DisagreementCounts {
  if (predA.length !== yTrue.length || predB.length !== yTrue.length) throw new RangeError("predictions differ in length from yTrue");
  const out: DisagreementCounts = { a_right_b_wrong: 0, a_wrong_b_right: 0, both_right: 0, both_wrong: 0 };
  for (let i = 0; i < yTrue.length; i++) {
    const a = predA[i] === yTrue[i];
    const b = predB[i] === yTrue[i];
    if (a && b) out.both_right++;
    else if (a) out.a_right_b_wrong++;
    else if (b) out.a_wrong_b_right++;
    else out.both_wrong++;
  }
  return out;
}

export function mcnemarTest(
  counts: Pick<DisagreementCounts, "a_right_b_wrong" | "a_wrong_b_right">,
  options: { alpha?: number; method?: "chi2" | "exact"; correction?: boolean } = {},
): McNemarResult {
  const alpha = options.alpha ?? 0.05;
  const b = counts.a_right_b_wrong;
  const c = counts.a_wrong_b_right;
  if (!(b >= 0 && c >= 0)) throw new RangeError("counts must be non-negative");
  if (options.method === "exact") {
    return { ...decide("mcnemar_exact", Math.min(b, c), binomialTwoSidedHalfP(b, c), alpha), b, c };
  }
  if (b + c === 0) return { ...decide("mcnemar", 0, 1, alpha, { df: 1 }), b, c };
  const correction = (options.correction ?? true) ? 1 : 0;
  const statistic = (Math.abs(b - c) - correction) ** 2 / (b + c);
  return { ...decide("mcnemar", statistic, chiSquareUpperP(statistic, 1), alpha, { df: 1 }), b, c };
}
