/**
 * `gmm` (seed 002: 高斯混合聚类, EM): a Gaussian mixture fitted by EM (gmm-em.ts) as
 * scikit-learn's GaussianMixture runs it: each iteration is an E step (whose mean
 * log-likelihood is the lower bound) then an M step; it stops when the bound changes by
 * less than tol. Of n_init starts the one with the highest final bound is kept (ties: the
 * earliest). A row's cluster is its most probable component (ties: the lowest index); the
 * membership probabilities are predict's `proba`. Components are numbered as initialised:
 * the c-th k-means cluster, or the c-th listed row.
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { UnusableInputError, throwIfAborted, type Algorithm, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { maxValuesOf, ValueBudget } from "../explain-bounds.js";
import { checkFinite, checkLength, checkUnique, f64, i32, structural } from "../state-schemas.js";
import { covarianceLength, eStep, factorise, mStep, startAtMeans, type CovarianceType, type GmmParameters } from "./gmm-em.js";
import { absoluteTolerance, centresAtRows, lloyd } from "./kmeans-engine.js";
import { MAX_N_INIT, maxIterParam, rowIdsSchema } from "./params.js";
import { checkClusterCount, initialCentres, initialRows } from "./seeding.js";
import { argmaxRows } from "../linear/scores.js";
import { GaussianRows } from "./simd-gaussian.js";

/** Components at most: every row carries one probability per component, and a full model k covariance matrices. */
export const MAX_COMPONENTS = 1000;

export const gmmParams = z
  .object({
    n_components: z.int().min(1).max(MAX_COMPONENTS).default(1).describe(`Mixture components (clusters). At most ${MAX_COMPONENTS} (and never above the training rows).`),
    covariance_type: z.enum(["full", "tied", "diag", "spherical"]).default("full").describe("full: a covariance matrix per component; tied: one shared matrix; diag: per-feature variances per component; spherical: one variance per component."),
    reg_covar: z.number().min(0).default(1e-6).describe("Added to the diagonal of every covariance so that it stays positive definite."),
    init: z
      .discriminatedUnion("kind", [
        z.object({ kind: z.literal("kmeans") }).strict(),
        z.object({ kind: z.literal("rows"), rows: rowIdsSchema, variance: z.number().positive().default(1) }).strict(),
      ])
      .default({ kind: "kmeans" })
      .describe(
        '{"kind":"kmeans"}: responsibilities from a seeded k-means (k-means++, one run), then an M step (scikit-learn\'s default); {"kind":"rows","rows":[…],"variance":v}: equal weights, means at the listed 0-based training rows, covariances v·I (the book\'s start; one row per component).',
      ),
    max_iter: maxIterParam(100, "EM iterations per start."),
    tol: z.number().min(0).default(1e-3).describe("Stop when the mean log-likelihood of the training rows changes by less than this."),
    n_init: z.int().min(1).max(MAX_N_INIT).default(1).describe(`Seeded starts (explicit rows run once); the one with the highest final mean log-likelihood is kept. At most ${MAX_N_INIT}.`),
  })
  .strict();
export type GmmParams = z.infer<typeof gmmParams>;

export const gmmState = z
  .object({
    features: z.array(z.string()).min(1),
    covariance_type: z.enum(["full", "tied", "diag", "spherical"]),
    weights: f64,
    /** k × features. */
    means: f64,
    covariances: f64,
    labels: i32,
    /** Mean log-likelihood of the training rows at the last E step. */
    lower_bound: z.number(),
    n_iter: z.int().min(0),
    converged: z.boolean(),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      const k = s.weights.length;
      const d = s.features.length;
      if (k < 1 || k > MAX_COMPONENTS) return report(`has ${k} components; 1 to ${MAX_COMPONENTS} are supported`, ["weights"]);
      if (!checkFinite(s.weights, "weights", report)) return;
      if (s.weights.some((w) => w < 0)) return report("weights must not be negative", ["weights"]);
      if (!checkLength(s.means, k * d, "means", report, `${k} components × ${d} features`) || !checkFinite(s.means, "means", report)) return;
      if (!checkLength(s.covariances, covarianceLength(s.covariance_type, k, d), "covariances", report, `${s.covariance_type} for ${k} × ${d}`) || !checkFinite(s.covariances, "covariances", report)) return;
      try {
        factorise(parametersOf(s));
      } catch (e) {
        return report(e instanceof Error ? e.message : String(e), ["covariances"]);
      }
      const bad = s.labels.findIndex((l) => l < 0 || l >= k);
      if (bad >= 0) report(`labels[${bad}] is ${s.labels[bad]}, not a component of ${k}`, ["labels", bad]);
    }),
  );
export type GmmState = z.infer<typeof gmmState>;

/** A stored mixture as the EM code takes it (semi_supervised_gmm's state has the same fields). */
export function parametersOf(s: Pick<GmmState, "covariance_type" | "weights" | "means" | "covariances" | "features">): GmmParameters {
  return { type: s.covariance_type, k: s.weights.length, d: s.features.length, weights: s.weights as Float64Array<ArrayBuffer>, means: s.means as Float64Array<ArrayBuffer>, covariances: s.covariances as Float64Array<ArrayBuffer> };
}

/** scikit-learn's kmeans start: one seeded k-means, its labels as hard responsibilities, one M step. */
function kmeansStart(X: Float64Array, n: number, d: number, k: number, params: GmmParams, ctx: FitContext, kernel: GaussianRows | null): GmmParameters {
  const init = initialCentres(X, n, d, k, { kind: "k-means++" }, ctx.rng, ctx.signal);
  const { labels } = lloyd(X, n, d, init, k, { maxIter: 300, tol: absoluteTolerance(X, n, d, 1e-4), signal: ctx.signal });
  const resp = new Float64Array(n * k);
  for (let i = 0; i < n; i++) resp[i * k + labels[i]] = 1;
  return mStep(X, n, d, resp, k, params.covariance_type, params.reg_covar, kernel);
}

/** Full and tied covariances: the E and M steps' O(n·k·d²) loops on a SIMD kernel (the same results), one copy of the rows per call. */
function kernelFor(X: Float64Array, n: number, d: number, type: CovarianceType): GaussianRows | null {
  return type === "full" || type === "tied" ? GaussianRows.create(X, n, d) : null;
}

interface Run {
  params: GmmParameters;
  bound: number;
  nIter: number;
  converged: boolean;
}

/** EM from a start until the bound settles (scikit-learn's fit loop). */
export function runEm(X: Float64Array, n: number, d: number, start: GmmParameters, maxIter: number, tol: number, regCovar: number, resp: Float64Array, signal?: FitContext["signal"], kernel?: GaussianRows | null): Run {
  let p = start;
  let bound = -Infinity;
  for (let it = 1; it <= maxIter; it++) {
    throwIfAborted(signal);
    const prev = bound;
    bound = eStep(X, n, p, resp, factorise(p), undefined, kernel);
    p = mStep(X, n, d, resp, p.k, p.type, regCovar, kernel);
    if (Math.abs(bound - prev) < tol) return { params: p, bound, nIter: it, converged: true };
  }
  return { params: p, bound, nIter: maxIter, converged: false };
}


function fit(train: TrainingSet, params: GmmParams, ctx: FitContext): GmmState {
  if (train.target) throw new UnusableInputError("gmm is unsupervised: train it without a target");
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  const k = params.n_components;
  checkClusterCount(n, k, "n_components");
  const X = rowMajor(train.X);
  const resp = new Float64Array(n * k);
  const kernel = kernelFor(X, n, d, params.covariance_type);
  const init = params.init;
  const starts = init.kind === "rows" ? 1 : params.n_init;
  let best: Run | undefined;
  for (let r = 0; r < starts; r++) {
    const start =
      init.kind === "rows"
        ? startAtMeans(centresAtRows(X, d, initialRows(X, n, d, k, { kind: "rows", rows: init.rows }, ctx.rng, ctx.signal, "n_components")), k, d, params.covariance_type, init.variance)
        : kmeansStart(X, n, d, k, params, ctx, kernel);
    const run = runEm(X, n, d, start, params.max_iter, params.tol, params.reg_covar, resp, ctx.signal, kernel);
    if (!best || run.bound > best.bound) best = run;
    ctx.progress((r + 1) / starts);
  }
  const b = best!;
  // As scikit-learn: a last E step so that the labels belong to the final parameters.
  eStep(X, n, b.params, resp, factorise(b.params), undefined, kernel);
  return {
    features,
    covariance_type: params.covariance_type,
    weights: b.params.weights,
    means: b.params.means,
    covariances: b.params.covariances,
    labels: argmaxRows(resp, n, k),
    lower_bound: b.bound,
    n_iter: b.nIter,
    converged: b.converged,
  };
}

function predict(s: GmmState, X: Frame): Prediction {
  const p = parametersOf(s);
  const n = X.rowCount;
  const proba = new Float64Array(n * p.k);
  const M = rowMajor(selectColumns(X, s.features));
  eStep(M, n, p, proba, factorise(p), undefined, kernelFor(M, n, p.d, p.type));
  return { task: "clustering", labels: argmaxRows(proba, n, p.k), proba };
}

/** Mean log-likelihood of rows under the fitted mixture (scikit-learn's score). */
export function gmmScore(s: GmmState, X: Frame): number {
  const p = parametersOf(s);
  const M = rowMajor(selectColumns(X, s.features));
  return eStep(M, X.rowCount, p, new Float64Array(X.rowCount * p.k), factorise(p), undefined, kernelFor(M, X.rowCount, p.d, p.type));
}

function explain(s: GmmState, maxValues: number | undefined): Record<string, unknown> {
  const budget = new ValueBudget(maxValuesOf(maxValues));
  const weights = budget.take(s.weights);
  const means = budget.take(s.means);
  const covariances = budget.take(s.covariances);
  return {
    n_components: s.weights.length,
    covariance_type: s.covariance_type,
    lower_bound: s.lower_bound,
    n_iter: s.n_iter,
    converged: s.converged,
    features: s.features,
    weights: weights.values,
    /** Row-major components × features. */
    means: means.values,
    /** full: components × features × features; tied: features × features; diag: components × features; spherical: components. */
    covariances: covariances.values,
    ...(weights.truncated || means.truncated || covariances.truncated ? { truncated: true } : {}),
  };
}

export const gmm: Algorithm<GmmParams, GmmState> = {
  name: "gmm",
  family: "cluster",
  tasks: ["clustering"],
  description: "Gaussian mixture by EM (full / tied / diag / spherical covariances, k-means or explicit-row start); a row's cluster is its most probable component, with membership probabilities.",
  params: gmmParams,
  state: gmmState,
  accepts: { categorical: false, missing: false, weights: false },
  // reg_covar and the k-means start are in input units; the likelihood itself is not, but the fit is.
  scaleSensitive: true,
  fit,
  predict,
  trainingLabels: (s) => s.labels,
  explain: (s, options) => explain(s, options?.maxValues),
};

export type { CovarianceType };
