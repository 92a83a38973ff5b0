/**
 * The reference distributions of the significance tests, from jstat (a well-kept
 * statistics library; its studentized range is a port of R's ptukey/qtukey).
 * Upper tails are 1 − cdf: the tests report p-values, where that precision suffices.
 */
import jStatModule from "jstat";

const jStat = jStatModule.jStat ?? jStatModule;

/** Two-sided p-value of a t statistic with df degrees of freedom. */
export function tTwoSidedP(t: number, df: number): number {
  return Math.min(1, 2 * jStat.studentt.cdf(-Math.abs(t), df));
}

export function chiSquareUpperP(x: number, df: number): number {
  return x <= 0 ? 1 : clampP(1 - jStat.chisquare.cdf(x, df));
}

export function fUpperP(x: number, df1: number, df2: number): number {
  return x <= 0 ? 1 : clampP(1 - jStat.centralF.cdf(x, df1, df2));
}

/** Upper quantile of the studentized range for k means and df degrees of freedom (Infinity allowed). */
export function studentizedRangeQuantile(p: number, k: number, df: number): number {
  return jStat.tukey.inv(p, k, df);
}

export function studentizedRangeUpperP(q: number, k: number, df: number): number {
  return q <= 0 ? 1 : clampP(1 - jStat.tukey.cdf(q, k, df));
}

/**
 * Two-sided exact binomial p-value at p = ½: min(1, 2·P(X ≤ m)), m = min(b, c),
 * X ~ Bin(b + c, ½). P(X ≤ m) = I_½(n − m, m + 1); jstat's own binomial cdf rounds to 1e-10.
 */
export function binomialTwoSidedHalfP(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const m = Math.min(b, c);
  return Math.min(1, 2 * jStat.ibeta(0.5, n - m, m + 1));
}

function clampP(p: number): number {
  return p < 0 ? 0 : p > 1 ? 1 : p;
}
