/**
 * Expected improvement (Jones, Schonlau & Welch 1998) for maximisation, in closed
 * form: with u = (μ − best − ξ)/σ, EI = (μ − best − ξ) Φ(u) + σ φ(u); with σ = 0,
 * max(μ − best − ξ, 0).
 */

/** erfc(x) by W. J. Cody's Chebyshev fit as in Numerical Recipes (erfcc): relative error below 1.2e-7 everywhere. */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z - 1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

export function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

export function expectedImprovement(mean: number, sd: number, best: number, xi = 0): number {
  const gain = mean - best - xi;
  if (!(sd > 0)) return Math.max(gain, 0);
  const u = gain / sd;
  return Math.max(0, gain * normalCdf(u) + sd * normalPdf(u));
}
