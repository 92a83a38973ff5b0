/**
 * `semi_supervised_gmm` (the book's 13.2, generative methods): a Gaussian mixture with one
 * component per class, fitted by EM on labelled and unlabelled rows together. A labelled
 * row's responsibilities are fixed at its class's component (it adds log α_y p(x | y) to the
 * log-likelihood, (13.4)); an unlabelled row's are its posterior, as in plain EM
 * (E step (13.5), M step (13.6)–(13.8)). The E and M steps are the gmm's
 * (../cluster/gmm-em.ts, with its `fixed` rows), so are the covariance types and reg_covar.
 *
 * Start: each component's mean is the mean of its class's labelled rows, its covariance
 * v·I with v the mean per-feature variance of all training rows, weights equal (the book's
 * 9.4 start, with the labels placing the means). EM stops when the mean log-likelihood
 * changes by less than tol. A row's class is its most probable component's; predict's
 * probabilities are the posterior over components (0 for a class without labelled rows,
 * which gets no component).
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { throwIfAborted, UnusableInputError, type AbortFlag, type Algorithm, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { maxValuesOf, ValueBudget } from "../explain-bounds.js";
import { covarianceLength, eStep, factorise, mStep, startAtMeans, type GmmParameters } from "../cluster/gmm-em.js";
import { absoluteTolerance } from "../cluster/kmeans-engine.js";
import { maxIterParam } from "../cluster/params.js";
import { checkClasses, checkFinite, checkLength, checkUnique, f64, i32, structural } from "../state-schemas.js";
import { seedMeans, seedsOf } from "./seeds.js";
import { argmaxRows } from "../linear/scores.js";
import { parametersOf } from "../cluster/gmm.js";

const covarianceType = z.enum(["full", "tied", "diag", "spherical"]);

export const semiGmmParams = z
  .object({
    covariance_type: covarianceType.default("full").describe("full: a covariance matrix per class; tied: one shared matrix; diag: per-feature variances per class; spherical: one variance per class."),
    reg_covar: z.number().min(0).default(1e-6).describe("Added to the diagonal of every covariance so that it stays positive definite."),
    max_iter: maxIterParam(100, "EM iterations."),
    tol: z.number().min(0).default(1e-3).describe("Stop when the mean log-likelihood of the training rows (labelled rows with their class) changes by less than this."),
  })
  .strict();
type SemiGmmParams = z.infer<typeof semiGmmParams>;

export const semiGmmState = z
  .object({
    features: z.array(z.string()).min(1),
    classes: z.array(z.string()),
    /** The class of each component (classes without a labelled row have none), ascending. */
    component_class: i32,
    covariance_type: covarianceType,
    weights: f64,
    /** components × features. */
    means: f64,
    covariances: f64,
    /** Class of every training row: its label, or its most probable component's class. */
    labels: i32,
    /** Mean log-likelihood of the training rows at the last E step. */
    lower_bound: z.number(),
    n_iter: z.int().min(0),
    converged: z.boolean(),
    labelled_rows: z.int().min(0),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"]) || !checkClasses(s.classes, report)) return;
      const k = s.component_class.length;
      const d = s.features.length;
      if (k < 1) return report("has no components", ["component_class"]);
      const badClass = s.component_class.findIndex((c, i) => c < 0 || c >= s.classes.length || (i > 0 && c <= s.component_class[i - 1]));
      if (badClass >= 0) return report(`component_class[${badClass}] is not a class in ascending order`, ["component_class", badClass]);
      if (!checkLength(s.weights, k, "weights", report, `${k} components`) || !checkFinite(s.weights, "weights", report)) return;
      if (s.weights.some((w) => w < 0)) return report("weights must not be negative", ["weights"]);
      if (!checkLength(s.means, k * d, "means", report, `${k} components × ${d} features`) || !checkFinite(s.means, "means", report)) return;
      if (!checkLength(s.covariances, covarianceLength(s.covariance_type, k, d), "covariances", report, `${s.covariance_type} for ${k} × ${d}`) || !checkFinite(s.covariances, "covariances", report)) return;
      try {
        factorise(parametersOf(s));
      } catch (e) {
        return report(e instanceof Error ? e.message : String(e), ["covariances"]);
      }
      const bad = s.labels.findIndex((l) => l < 0 || l >= s.classes.length);
      if (bad >= 0) report(`labels[${bad}] is not a class`, ["labels", bad]);
    }),
  );
type SemiGmmState = z.infer<typeof semiGmmState>;


export interface SemiEmRun {
  readonly params: GmmParameters;
  readonly bound: number;
  readonly nIter: number;
  readonly converged: boolean;
}

/**
 * EM with the labelled rows fixed (fixed[i]: row i's component, −1 free). `bounds`, when
 * given, receives the mean log-likelihood of every E step (the tests check it never falls).
 */
export function semiEm(X: Float64Array, n: number, d: number, start: GmmParameters, fixed: Int32Array, resp: Float64Array, options: { maxIter: number; tol: number; regCovar: number; signal?: AbortFlag; bounds?: number[]; progress?: (f: number) => void }): SemiEmRun {
  let p = start;
  let bound = -Infinity;
  for (let it = 1; it <= options.maxIter; it++) {
    throwIfAborted(options.signal);
    const prev = bound;
    bound = eStep(X, n, p, resp, factorise(p), fixed);
    options.bounds?.push(bound);
    p = mStep(X, n, d, resp, p.k, p.type, options.regCovar);
    options.progress?.(it / options.maxIter);
    if (Math.abs(bound - prev) < options.tol) return { params: p, bound, nIter: it, converged: true };
  }
  return { params: p, bound, nIter: options.maxIter, converged: false };
}


function fit(train: TrainingSet, params: SemiGmmParams, ctx: FitContext): SemiGmmState {
  const target = train.target;
  if (target?.task !== "classification") throw new UnusableInputError("semi_supervised_gmm needs a categorical target (rows without a value are its unlabelled rows)");
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  const seeds = seedsOf("semi_supervised_gmm", target.y, target.classes.length);
  const k = seeds.clusterClass.length;
  const X = rowMajor(train.X);
  // The mean per-feature variance (tol 1 in k-means' rule); a constant table still gets a positive one.
  const variance = absoluteTolerance(X, n, d, 1) || 1;
  const start = startAtMeans(seedMeans(X, d, seeds), k, d, params.covariance_type, variance);
  const resp = new Float64Array(n * k);
  const run = semiEm(X, n, d, start, seeds.fixed, resp, { maxIter: params.max_iter, tol: params.tol, regCovar: params.reg_covar, signal: ctx.signal, progress: ctx.progress });
  // As the gmm: a last E step so that the labels belong to the final parameters.
  eStep(X, n, run.params, resp, factorise(run.params), seeds.fixed);
  return {
    features,
    classes: [...target.classes],
    component_class: seeds.clusterClass,
    covariance_type: params.covariance_type,
    weights: run.params.weights,
    means: run.params.means,
    covariances: run.params.covariances,
    labels: Int32Array.from(argmaxRows(resp, n, k), (c) => seeds.clusterClass[c]),
    lower_bound: run.bound,
    n_iter: run.nIter,
    converged: run.converged,
    labelled_rows: seeds.labelled,
  };
}

function predict(s: SemiGmmState, X: Frame): Prediction {
  const p = parametersOf(s);
  const n = X.rowCount;
  const c = s.classes.length;
  const resp = new Float64Array(n * p.k);
  eStep(rowMajor(selectColumns(X, s.features)), n, p, resp);
  const proba = new Float64Array(n * c);
  for (let i = 0; i < n; i++) for (let m = 0; m < p.k; m++) proba[i * c + s.component_class[m]] = resp[i * p.k + m];
  return { task: "classification", labels: Int32Array.from(argmaxRows(resp, n, p.k), (m) => s.component_class[m]), proba };
}

function explain(s: SemiGmmState, maxValues: number | undefined): Record<string, unknown> {
  const budget = new ValueBudget(maxValuesOf(maxValues));
  const weights = budget.take(s.weights);
  const means = budget.take(s.means);
  const covariances = budget.take(s.covariances);
  return {
    component_classes: Array.from(s.component_class, (c) => s.classes[c]),
    covariance_type: s.covariance_type,
    lower_bound: s.lower_bound,
    n_iter: s.n_iter,
    converged: s.converged,
    labelled_rows: s.labelled_rows,
    unlabelled_rows: s.labels.length - s.labelled_rows,
    features: s.features,
    weights: weights.values,
    /** Row-major components × features. */
    means: means.values,
    /** full: components × features × features; tied: features × features; diag: components × features; spherical: components. */
    covariances: covariances.values,
    ...(weights.truncated || means.truncated || covariances.truncated ? { truncated: true } : {}),
  };
}

export const semiSupervisedGmm: Algorithm<SemiGmmParams, SemiGmmState> = {
  name: "semi_supervised_gmm",
  family: "semi",
  tasks: ["classification"],
  description: "Generative semi-supervised learning: a Gaussian mixture with one component per class fitted by EM, labelled rows fixed to their class's component, rows without a target value weighted by their posterior; probabilities are the posterior over classes.",
  params: semiGmmParams,
  state: semiGmmState,
  accepts: { categorical: false, missing: false, weights: false, unlabelled: true },
  // reg_covar and the start's variance are in input units; the likelihood itself is not, but the fit is.
  scaleSensitive: true,
  fit,
  predict,
  trainingLabels: (s) => s.labels,
  explain: (s, options) => explain(s, options?.maxValues),
};
