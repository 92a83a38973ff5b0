/**
 * Power transforms with λ fitted by maximum likelihood, as scikit-learn's
 * PowerTransformer (Box–Cox through SciPy's boxcox, Yeo–Johnson its own), both
 * minimising the negative profile log-likelihood with Brent's method from the
 * bracket (−2, 2). Missing values are left out of the fit.
 */
import { brentMinimize } from "./brent.js";

const TINY = 2.2250738585072014e-308;
const SPACING_ONE = 2 ** -52;

function variance(values: Float64Array): number {
  const n = values.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i] - mean;
    squares += d * d;
  }
  return squares / n;
}

/** SciPy's special.boxcox. */
export function boxCox(x: number, lambda: number): number {
  return Math.abs(lambda) < 1e-19 ? Math.log(x) : Math.expm1(lambda * Math.log(x)) / lambda;
}

export function yeoJohnson(x: number, lambda: number): number {
  if (x >= 0) return Math.abs(lambda) < SPACING_ONE ? Math.log1p(x) : (Math.pow(x + 1, lambda) - 1) / lambda;
  return Math.abs(lambda - 2) > SPACING_ONE ? -(Math.pow(1 - x, 2 - lambda) - 1) / (2 - lambda) : -Math.log1p(-x);
}

/** λ maximising the Box–Cox log-likelihood of strictly positive present values. */
export function boxCoxLambda(present: Float64Array): number {
  const n = present.length;
  const logs = present.map(Math.log);
  let logSum = 0;
  for (const v of logs) logSum += v;
  const work = new Float64Array(n);
  const negLogLikelihood = (lambda: number): number => {
    // SciPy's boxcox_llf: the variance of x^λ/λ (the offset −1/λ changes nothing but precision).
    if (lambda === 0) work.set(logs);
    else for (let i = 0; i < n; i++) work[i] = Math.pow(present[i], lambda) / lambda;
    return -((lambda - 1) * logSum - (n / 2) * Math.log(variance(work)));
  };
  return brentMinimize(negLogLikelihood, -2, 2);
}

/** λ maximising the Yeo–Johnson log-likelihood of present values. */
export function yeoJohnsonLambda(present: Float64Array): number {
  const n = present.length;
  let signedLogSum = 0;
  for (const x of present) signedLogSum += Math.sign(x) * Math.log1p(Math.abs(x));
  const work = new Float64Array(n);
  const negLogLikelihood = (lambda: number): number => {
    for (let i = 0; i < n; i++) work[i] = yeoJohnson(present[i], lambda);
    const v = variance(work);
    if (v < TINY) return Infinity;
    return -(-(n / 2) * Math.log(v) + (lambda - 1) * signedLogSum);
  };
  return brentMinimize(negLogLikelihood, -2, 2);
}
