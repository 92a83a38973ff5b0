/** The common shape of every significance test's answer (API.md /v1/comparisons). */
import type { MetricValue } from "../wire.js";

export interface TestResult {
  name: string;
  /** null when infinite (e.g. a t statistic with zero variance of the differences). */
  statistic: MetricValue;
  /** Degrees of freedom; for an F test, of the numerator. */
  df?: number;
  /** F tests: degrees of freedom of the denominator. */
  df2?: number;
  p_value: number;
  alpha: number;
  /** p_value < alpha: the null hypothesis (no difference) is rejected. */
  significant: boolean;
}

export function decide(name: string, statistic: number, pValue: number, alpha: number, df?: { df?: number; df2?: number }): TestResult {
  checkAlpha(alpha);
  const result: TestResult = {
    name,
    statistic: Number.isFinite(statistic) ? statistic : null,
    p_value: pValue,
    alpha,
    significant: pValue < alpha,
  };
  if (df?.df !== undefined) result.df = df.df;
  if (df?.df2 !== undefined) result.df2 = df.df2;
  return result;
}

export function checkAlpha(alpha: number): void {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError("alpha must be in (0, 1)");
}
