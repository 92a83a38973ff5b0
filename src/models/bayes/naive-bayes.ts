/**
 * naive_bayes: one learner for mixed tables (seed 002 §贝叶斯, the book's 7.3).
 * P(c | x) ∝ P(c) · Π_i P(x_i | c), in log space, where
 * - a categorical attribute counts: P(x_i = v | c) = (N_cv + alpha) / (N_c + alpha · N_i),
 *   N_c the class's weight among rows where the attribute is present, N_i its number of
 *   levels (alpha = 1: Laplace correction; alpha = 0: the book's uncorrected estimate);
 * - a numeric attribute is a per-class Gaussian (default), a per-class Gaussian kernel
 *   density, or is cut into equal-frequency bins and counted (continuous.ts, coded.ts).
 * A missing cell contributes no factor, in fitting (the row is not counted for that
 * attribute) and in prediction; so does a level the model never saw.
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import type { Algorithm, FitContext, Prediction, TrainingSet } from "../contract.js";
import { throwIfAborted } from "../contract.js";
import { ValueBudget, maxValuesOf } from "../explain-bounds.js";
import { UnusableInputError } from "../contract.js";
import { classTarget, codeFrame, conditionalLogs, countClasses, countSingles, prepare } from "./coded.js";
import { classMoments, fitContinuous, gaussiansOf, mergeMoments } from "./continuous.js";
import { naiveBayesStateSchema, type NaiveBayesState } from "./naive-bayes-state.js";
import { alphaParam, classPriorParam, nBinsParam } from "./params.js";
import { finishScores, logOrZero, resolvePrior } from "./scores.js";

export const naiveBayesParams = z
  .object({
    alpha: alphaParam("zero"),
    class_prior: classPriorParam,
    numeric: z
      .enum(["gaussian", "kde", "discretize"])
      .default("gaussian")
      .describe('How numeric attributes enter: "gaussian" = a normal density per class; "kde" = a Gaussian kernel density per class (bandwidth by `bandwidth`); "discretize" = n_bins equal-frequency bins counted like a categorical attribute (with alpha).'),
    variance: z
      .enum(["sample", "population"])
      .default("sample")
      .describe('Gaussian variance: "sample" divides by n − 1 as the book does; "population" divides by n as scikit-learn\'s GaussianNB.'),
    var_smoothing: z
      .number()
      .gt(0)
      .max(1)
      .default(1e-9)
      .describe("Added to every Gaussian variance (and KDE bandwidth²): var_smoothing × the largest variance of any numeric attribute, as GaussianNB. At most 1."),
    bandwidth: z.enum(["scott", "silverman"]).default("scott").describe('KDE bandwidth rule (numeric: "kde"): Scott n^(−1/5) or Silverman (3n/4)^(−1/5), times the class\'s standard deviation, as scipy\'s gaussian_kde.'),
    n_bins: nBinsParam,
  })
  .strict();
export type NaiveBayesParams = z.infer<typeof naiveBayesParams>;

function fit(train: TrainingSet, p: NaiveBayesParams, ctx: FitContext): NaiveBayesState {
  const { y, w, K, classes, coded, class_count, cut, single_offset, single } = prepare(train, "naive_bayes", p.numeric === "discretize" ? p.n_bins : null);
  throwIfAborted(ctx.signal);
  const continuous = fitContinuous(coded, y, w, K, { variance: p.variance, varSmoothing: p.var_smoothing, kde: p.numeric === "kde" ? p.bandwidth : null });
  return {
    classes,
    features: cut.schema,
    levels: cut.levels,
    edge_offset: cut.edge_offset,
    edges: cut.edges,
    alpha: p.alpha,
    class_count,
    single_offset,
    single,
    numeric: p.numeric,
    variance: p.variance,
    prior: resolvePrior(p.class_prior, class_count, classes, p.alpha),
    ...continuous,
  };
}

/**
 * partial_fit: the new rows' counts are added to the state's and the Gaussians' moments merged (Chan's
 * parallel update), so any split of the rows gives the model one fit on all of them gives (to rounding).
 * The class prior is resolved again from the new counts. Discretized attributes keep their fitted bin
 * edges (new rows are counted into them); a KDE keeps every training value, and is refused — refit instead.
 * The classes are the model's: a new class needs a refit (the route answers 422 before this runs).
 */
function partialFit(s: NaiveBayesState, train: TrainingSet, p: NaiveBayesParams, ctx: FitContext): NaiveBayesState {
  if (s.numeric === "kde") throw new UnusableInputError('naive_bayes with numeric: "kde" keeps every training value and cannot be updated in place; train a new model on all the rows');
  const { y, classes, w } = classTarget(train, "naive_bayes");
  if (classes.length !== s.classes.length || classes.some((c, k) => c !== s.classes[k])) throw new UnusableInputError("partial_fit rows must use the model's classes");
  const K = classes.length;
  const coded = codeFrame(s, train.X);
  const continuous = coded.values.map((v) => v !== null);
  if (continuous.some(Boolean) && !(s.moment_w && s.moment_ss)) {
    throw new UnusableInputError("this naive_bayes model was stored without the moments partial_fit needs (an older artifact); train it again once");
  }
  throwIfAborted(ctx.signal);
  const class_count = Float64Array.from(s.class_count);
  const added = countClasses(y, w, K, "naive_bayes");
  for (let k = 0; k < K; k++) class_count[k] += added[k];
  const single = Float64Array.from(s.single);
  const more = countSingles(coded, s.levels, y, w, K).single;
  for (let t = 0; t < single.length; t++) single[t] += more[t];
  const old = { w: s.moment_w ?? new Float64Array(s.mean.length), mean: s.mean, ss: s.moment_ss ?? new Float64Array(s.mean.length) };
  const moments = mergeMoments(old, classMoments(coded, y, w, K));
  const gaussians = gaussiansOf(moments, continuous, K, { variance: s.variance, varSmoothing: p.var_smoothing });
  return {
    ...s,
    class_count,
    single,
    prior: resolvePrior(p.class_prior, class_count, classes, p.alpha),
    mean: gaussians.mean,
    var: gaussians.var,
    moment_w: moments.w,
    moment_ss: moments.ss,
  };
}

/** What predict derives once per loaded state: log tables and Gaussian constants. */
interface Compiled {
  logPrior: Float64Array;
  /** Per coded feature: K × levels log P(v | c) (−∞ for a zero estimate); null otherwise. */
  logCond: (Float64Array | null)[];
  /** K × d: −½ log(2π σ²) and 1 / (2σ²). */
  logNorm: Float64Array;
  halfPrecision: Float64Array;
  hasZeros: boolean;
}

const compiled = new WeakMap<NaiveBayesState, Compiled>();

/** The smoothed conditional table of coded feature j: (N_cv + α) / (N_c + α N_i); 1 / N_i where a class has no weight at all. */
export function conditionalTable(s: Pick<NaiveBayesState, "classes" | "levels" | "single" | "single_offset" | "alpha">, j: number): Float64Array {
  const K = s.classes.length;
  const L = s.levels[j];
  const off = s.single_offset[j];
  const out = new Float64Array(K * L);
  for (let k = 0; k < K; k++) {
    let total = 0;
    for (let v = 0; v < L; v++) total += s.single[off + k * L + v];
    const denom = total + s.alpha * L;
    for (let v = 0; v < L; v++) out[k * L + v] = denom > 0 ? (s.single[off + k * L + v] + s.alpha) / denom : 1 / L;
  }
  return out;
}

function compile(s: NaiveBayesState): Compiled {
  let c = compiled.get(s);
  if (c) return c;
  const K = s.classes.length;
  const d = s.features.length;
  const logPrior = Float64Array.from(s.prior, logOrZero);
  let hasZeros = logPrior.includes(-Infinity);
  const logCond = s.features.map((f, j) => {
    if (f.type === "numeric" && s.levels[j] === 0) return null;
    const table = conditionalLogs(s.single, s.single_offset[j], K, s.levels[j], s.alpha);
    if (table.includes(-Infinity)) hasZeros = true;
    return table;
  });
  const logNorm = new Float64Array(K * d);
  const halfPrecision = new Float64Array(K * d);
  for (let t = 0; t < K * d; t++) {
    logNorm[t] = -0.5 * Math.log(2 * Math.PI * s.var[t]);
    halfPrecision[t] = 0.5 / s.var[t];
  }
  c = { logPrior, logCond, logNorm, halfPrecision, hasZeros };
  compiled.set(s, c);
  return c;
}

/** log of the weighted kernel density of class k's sample of attribute j at x. */
function logKde(s: NaiveBayesState, j: number, k: number, x: number): number {
  const K = s.classes.length;
  const lo = s.kde_offset[j * K + k];
  const hi = s.kde_offset[j * K + k + 1];
  const h2 = s.kde_h2[k * s.features.length + j];
  let max = -Infinity;
  for (let t = lo; t < hi; t++) {
    const e = -((x - s.kde_x[t]) ** 2) / (2 * h2);
    if (e > max) max = e;
  }
  let sum = 0;
  for (let t = lo; t < hi; t++) sum += s.kde_w[t] * Math.exp(-((x - s.kde_x[t]) ** 2) / (2 * h2) - max);
  return max + Math.log(sum) - 0.5 * Math.log(2 * Math.PI * h2);
}

function predict(s: NaiveBayesState, X: Frame): Prediction {
  const c = compile(s);
  const coded = codeFrame(s, X);
  const n = coded.n;
  const K = s.classes.length;
  const d = s.features.length;
  const scores = new Float64Array(n * K);
  const zeros = c.hasZeros ? new Int32Array(n * K) : null;
  for (let i = 0; i < n; i++) scores.set(c.logPrior, i * K);
  if (zeros) {
    // A zero prior is a zero factor; its finite part is 0.
    for (let k = 0; k < K; k++) {
      if (c.logPrior[k] !== -Infinity) continue;
      for (let i = 0; i < n; i++) {
        zeros[i * K + k] = 1;
        scores[i * K + k] = 0;
      }
    }
  }
  for (let j = 0; j < d; j++) {
    const codes = coded.codes[j];
    const table = c.logCond[j];
    if (codes && table) {
      const L = s.levels[j];
      for (let i = 0; i < n; i++) {
        const v = codes[i];
        if (v < 0) continue;
        const o = i * K;
        for (let k = 0; k < K; k++) {
          const lf = table[k * L + v];
          if (lf === -Infinity) (zeros as Int32Array)[o + k]++;
          else scores[o + k] += lf;
        }
      }
      continue;
    }
    const x = coded.values[j];
    if (!x) continue;
    for (let k = 0; k < K; k++) {
      const t = k * d + j;
      const useKde = s.numeric === "kde" && s.kde_offset[j * K + k + 1] > s.kde_offset[j * K + k];
      const mu = s.mean[t];
      const a = c.logNorm[t];
      const b = c.halfPrecision[t];
      for (let i = 0; i < n; i++) {
        const v = x[i];
        if (v !== v) continue;
        scores[i * K + k] += useKde ? logKde(s, j, k, v) : a - (v - mu) * (v - mu) * b;
      }
    }
  }
  const { labels, proba } = finishScores(scores, zeros, n, K);
  return { task: "classification", labels, proba };
}

/** Priors, then per attribute its conditional table (P(level | class)) or per-class Gaussian / KDE parameters; at most maxValues numbers. */
function explain(s: NaiveBayesState, options?: { maxValues?: number }) {
  const budget = new ValueBudget(maxValuesOf(options?.maxValues));
  const K = s.classes.length;
  const d = s.features.length;
  const byClass = <T>(get: (k: number) => T): Record<string, T> => Object.fromEntries(s.classes.map((cl, k) => [cl, get(k)]));
  budget.spend(2 * K);
  const attributes: unknown[] = [];
  let truncated = false;
  for (let j = 0; j < d && !truncated; j++) {
    const f = s.features[j];
    if (f.type === "categorical" || s.levels[j] > 0) {
      const L = s.levels[j];
      if (budget.remaining < K * L) {
        truncated = true;
        break;
      }
      budget.spend(K * L);
      const table = conditionalTable(s, j);
      const levelNames = f.type === "categorical" ? f.levels : binNames(s.edges.subarray(s.edge_offset[j], s.edge_offset[j + 1]));
      attributes.push({
        feature: f.name,
        kind: f.type === "categorical" ? "categorical" : "discretized",
        levels: levelNames,
        ...(f.type === "numeric" ? { edges: Array.from(s.edges.subarray(s.edge_offset[j], s.edge_offset[j + 1])) } : {}),
        probabilities: byClass((k) => Array.from(table.subarray(k * L, (k + 1) * L))),
      });
      continue;
    }
    if (budget.remaining < 2 * K) {
      truncated = true;
      break;
    }
    budget.spend(2 * K);
    attributes.push({
      feature: f.name,
      kind: s.numeric === "kde" ? "kde" : "gaussian",
      mean: byClass((k) => s.mean[k * d + j]),
      var: byClass((k) => s.var[k * d + j]),
      ...(s.numeric === "kde" ? { bandwidth: byClass((k) => Math.sqrt(s.kde_h2[k * d + j])), sample_size: byClass((k) => s.kde_offset[j * K + k + 1] - s.kde_offset[j * K + k]) } : {}),
    });
  }
  return {
    classes: s.classes,
    prior: byClass((k) => s.prior[k]),
    class_count: byClass((k) => s.class_count[k]),
    alpha: s.alpha,
    numeric: s.numeric,
    variance: s.variance,
    attributes,
    ...(truncated ? { attributes_truncated: true, attribute_count: d } : {}),
  };
}

function binNames(interior: Float64Array): string[] {
  const names: string[] = [];
  for (let b = 0; b <= interior.length; b++) names.push(`${b === 0 ? "(-inf" : `[${interior[b - 1]}`}, ${b === interior.length ? "inf)" : `${interior[b]})`}`);
  return names;
}

export const naiveBayes: Algorithm<NaiveBayesParams, NaiveBayesState> = {
  name: "naive_bayes",
  family: "bayes",
  tasks: ["classification"],
  description: "Naive Bayes for mixed tables: categorical attributes by counts with Laplace correction (alpha), numeric ones by a per-class Gaussian, KDE or equal-frequency bins; missing cells contribute no factor.",
  params: naiveBayesParams,
  state: naiveBayesStateSchema,
  accepts: { categorical: true, missing: true, weights: true },
  // var_smoothing's epsilon is relative to the widest numeric column (GaussianNB's rule), which ties the columns' units together.
  scaleSensitive: true,
  fit,
  partialFit,
  predict,
  explain,
};
