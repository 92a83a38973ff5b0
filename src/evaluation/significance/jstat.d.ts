// jstat ships no types; only the distributions the significance tests use are declared.
declare module "jstat" {
  interface ContinuousDistribution {
    cdf(x: number, ...params: number[]): number;
    inv(p: number, ...params: number[]): number;
  }
  interface JStat {
    studentt: ContinuousDistribution;
    chisquare: ContinuousDistribution;
    centralF: ContinuousDistribution;
    tukey: ContinuousDistribution;
    /** Regularised incomplete beta function I_x(a, b). */
    ibeta(x: number, a: number, b: number): number;
  }
  const jStat: JStat & { jStat?: JStat };
  export default jStat;
}
