/**
 * Class priors and the last step every Bayesian classifier shares: joint log scores
 * per row and class → probabilities in `classes` order and labels.
 *
 * Zero factors (alpha = 0: a level never seen with a class, the book's uncorrected
 * estimate) are counted apart from the finite log score instead of making it -∞, so
 * a row where every class has one still gets an answer: the classes with the fewest
 * zero factors share the probability by their other factors (what the Laplace-corrected
 * scores tend to as alpha → 0), the rest get 0. Ties go to the lowest class index.
 */
import { UnusableInputError } from "../contract.js";
import type { ClassPrior } from "./params.js";

/** P(c) for each class from the weighted class counts. */
export function resolvePrior(spec: ClassPrior, count: Float64Array, classes: readonly string[], alpha: number): Float64Array<ArrayBuffer> {
  const K = count.length;
  const out = new Float64Array(K);
  let total = 0;
  for (let k = 0; k < K; k++) total += count[k];
  if (spec === "uniform") return out.fill(1 / K);
  if (spec === "empirical") {
    for (let k = 0; k < K; k++) out[k] = count[k] / total;
    return out;
  }
  if (spec === "laplace") {
    for (let k = 0; k < K; k++) out[k] = (count[k] + alpha) / (total + alpha * K);
    return out;
  }
  for (const label of Object.keys(spec)) if (!classes.includes(label)) throw new UnusableInputError(`class_prior names ${label}, which is not a class of the target`);
  let sum = 0;
  for (let k = 0; k < K; k++) {
    const p = spec[classes[k]];
    if (p === undefined) throw new UnusableInputError(`class_prior gives no probability for class ${classes[k]}`);
    out[k] = p;
    sum += p;
  }
  if (Math.abs(sum - 1) > 1e-6) throw new UnusableInputError(`class_prior sums to ${sum}, not 1`);
  return out;
}

/** log p, with a zero as -Infinity (callers count those apart). */
export function logOrZero(p: number): number {
  return p > 0 ? Math.log(p) : -Infinity;
}

/**
 * Row-major n × K joint log scores (finite parts) and zero-factor counts (null when
 * there can be none) → probabilities (written over `scores`) and labels.
 */
export function finishScores(scores: Float64Array, zeros: Int32Array | null, n: number, K: number): { labels: Int32Array; proba: Float64Array } {
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * K;
    let fewest = 0;
    if (zeros) {
      fewest = zeros[o];
      for (let k = 1; k < K; k++) if (zeros[o + k] < fewest) fewest = zeros[o + k];
    }
    let max = -Infinity;
    for (let k = 0; k < K; k++) if ((!zeros || zeros[o + k] === fewest) && scores[o + k] > max) max = scores[o + k];
    let sum = 0;
    for (let k = 0; k < K; k++) {
      const e = !zeros || zeros[o + k] === fewest ? Math.exp(scores[o + k] - max) : 0;
      scores[o + k] = e;
      sum += e;
    }
    let best = 0;
    for (let k = 0; k < K; k++) {
      scores[o + k] /= sum;
      if (scores[o + k] > scores[o + best]) best = k;
    }
    labels[i] = best;
  }
  return { labels, proba: scores };
}
