/**
 * A Gaussian-process regressor for Bayesian optimisation: Matérn 5/2 kernel,
 * one length scale for every input (inputs live in [0, 1]^d), targets
 * standardised. The amplitude is profiled out of the marginal likelihood
 * (its maximiser is closed form), and the length scale and noise ratio are the
 * best of a small grid: with a few dozen observations a grid is as good as a
 * gradient search, and it cannot diverge. Pure; row-major Float64Arrays.
 */
import { choleskyInPlace, choleskySolveInPlace } from "../../models/optim/cholesky.js";

/** Length scales tried, in units of the unit cube's side. */
export const LENGTH_SCALES = [0.03, 0.06, 0.1, 0.15, 0.25, 0.4, 0.6, 1, 1.6, 2.5];
/** Noise variances tried, relative to the kernel's amplitude (the smallest is jitter: an interpolating fit). */
export const NOISE_RATIOS = [1e-6, 1e-4, 1e-2, 1e-1];
/** Added to the diagonal, ×10 per retry, when rounding makes the kernel matrix lose definiteness. */
const JITTER = 1e-10;

/** Matérn 5/2 correlation at distance r with length scale ℓ: (1 + √5 r/ℓ + 5r²/3ℓ²) e^(−√5 r/ℓ). */
export function matern52(r: number, lengthScale: number): number {
  const s = (Math.sqrt(5) * r) / lengthScale;
  return (1 + s + (s * s) / 3) * Math.exp(-s);
}

function distance(a: Float64Array, ai: number, b: Float64Array, bi: number, d: number): number {
  let s = 0;
  for (let k = 0; k < d; k++) {
    const t = a[ai * d + k] - b[bi * d + k];
    s += t * t;
  }
  return Math.sqrt(s);
}

export interface GpHyperparameters {
  lengthScale: number;
  /** Noise variance over amplitude. */
  noiseRatio: number;
}

export interface GaussianProcess {
  readonly hyper: GpHyperparameters;
  /** The profile log marginal likelihood of the standardised targets at `hyper`. */
  readonly logLikelihood: number;
  /** Posterior mean and standard deviation of the latent function at x (length d), in the targets' units. */
  predict(x: ArrayLike<number>): { mean: number; sd: number };
}

interface Factor {
  l: Float64Array;
  alpha: Float64Array;
  amplitude: number;
  logLikelihood: number;
}

/** Cholesky of C + gI (jitter added until it is definite), α = (C + gI)⁻¹ y, and the profile likelihood. */
function factor(x: Float64Array, n: number, d: number, y: Float64Array, hyper: GpHyperparameters): Factor | null {
  for (let jitter = JITTER; jitter < 1e-2; jitter *= 10) {
    const l = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j <= i; j++) {
        const c = matern52(distance(x, i, x, j, d), hyper.lengthScale);
        l[i * n + j] = c;
        l[j * n + i] = c;
      }
      l[i * n + i] += hyper.noiseRatio + jitter;
    }
    if (!choleskyInPlace(l, n)) continue;
    const alpha = Float64Array.from(y);
    choleskySolveInPlace(l, n, alpha);
    let quad = 0;
    let logDet = 0;
    for (let i = 0; i < n; i++) {
      quad += y[i] * alpha[i];
      logDet += 2 * Math.log(l[i * n + i]);
    }
    // The amplitude that maximises the likelihood is yᵀ(C + gI)⁻¹y / n; put back, the
    // log likelihood is −n/2 log(amplitude) − ½ log|C + gI| − n/2 (1 + log 2π).
    const amplitude = Math.max(quad / n, 1e-12);
    const logLikelihood = -0.5 * n * Math.log(amplitude) - 0.5 * logDet - 0.5 * n * (1 + Math.log(2 * Math.PI));
    return { l, alpha, amplitude, logLikelihood };
  }
  return null;
}

/**
 * Fits a GP to n points `x` (n × d, row-major) with targets `y`. `hyper` fixes the
 * hyperparameters; without it the grid's likeliest pair is used.
 */
export function fitGaussianProcess(x: Float64Array, n: number, d: number, y: ArrayLike<number>, hyper?: GpHyperparameters): GaussianProcess {
  return runSteps(fitGaussianProcessSteps(x, n, d, y, hyper));
}

/** A computation that pauses (yields) between bounded pieces of work. */
export type Steps<T> = Generator<void, T, void>;

export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs the steps, awaiting `pause` between them: a caller on an event loop lets other work in. */
export async function runStepsPausing<T>(steps: Steps<T>, pause: () => Promise<unknown>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}

/** fitGaussianProcess, pausing after each hyperparameter pair's factorisation (O(n³) each). */
export function* fitGaussianProcessSteps(x: Float64Array, n: number, d: number, y: ArrayLike<number>, hyper?: GpHyperparameters): Steps<GaussianProcess> {
  if (n === 0) throw new RangeError("a Gaussian process needs at least one observation");
  let mean = 0;
  for (let i = 0; i < n; i++) mean += y[i];
  mean /= n;
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (y[i] - mean) ** 2;
  // A constant target (or a single one) has no spread to standardise by: unit scale keeps the sd meaningful.
  const scale = n > 1 && variance > 0 ? Math.sqrt(variance / n) : 1;
  const z = Float64Array.from({ length: n }, (_, i) => (y[i] - mean) / scale);

  const grid = hyper ? [hyper] : LENGTH_SCALES.flatMap((lengthScale) => NOISE_RATIOS.map((noiseRatio) => ({ lengthScale, noiseRatio })));
  let best: { hyper: GpHyperparameters; f: Factor } | null = null;
  for (const h of grid) {
    const f = factor(x, n, d, z, h);
    if (f && (!best || f.logLikelihood > best.f.logLikelihood)) best = { hyper: h, f };
    yield;
  }
  if (!best) throw new RangeError("the kernel matrix is not positive definite at any jitter");
  const { hyper: chosen, f } = best;

  const k = new Float64Array(n);
  const v = new Float64Array(n);
  return {
    hyper: chosen,
    logLikelihood: f.logLikelihood,
    predict(point) {
      const p = Float64Array.from(point);
      let m = 0;
      for (let i = 0; i < n; i++) {
        k[i] = matern52(distance(x, i, p, 0, d), chosen.lengthScale);
        m += k[i] * f.alpha[i];
      }
      // Forward solve L v = k: the posterior variance is amplitude · (1 − vᵀv).
      let vv = 0;
      for (let i = 0; i < n; i++) {
        let s = k[i];
        for (let j = 0; j < i; j++) s -= f.l[i * n + j] * v[j];
        v[i] = s / f.l[i * n + i];
        vv += v[i] * v[i];
      }
      const latent = Math.max(0, f.amplitude * (1 - vv));
      return { mean: mean + scale * m, sd: scale * Math.sqrt(latent) };
    },
  };
}
