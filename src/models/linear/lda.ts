/**
 * Linear discriminant analysis (seed 004, watermelon book §3.4), as a classifier
 * and as a projection onto at most K − 1 directions.
 *
 * Classifier (scikit-learn's solver "svd"): Gaussian classes sharing the pooled
 * within-class covariance Σ = S_w/(n − K) (optionally shrunk towards tr(Σ)/p·I),
 * δ_k(x) = (μ_k − x̄)ᵀΣ⁺(x − x̄) − ½(μ_k − x̄)ᵀΣ⁺(μ_k − x̄) + log π_k,
 * probabilities by softmax over δ — the same rule as scikit-learn's
 * LinearDiscriminantAnalysis(solver="svd"). Σ⁺ is taken on the directions Σ
 * actually spans after standardising each feature, so constant or collinear
 * features do not break the fit and feature scales do not decide what is kept.
 *
 * Projection (ldaTransform): (x − x̄)·V with V the generalised eigenvectors of
 * S_b = Σ_k nπ_k(μ_k − x̄)(μ_k − x̄)ᵀ against Σ, scaled so that the projected
 * within-class covariance is the identity — scikit-learn's transform, up to sign.
 *
 * explain() reports the book's directions (unit length) and eigenvalues of
 * S_w⁻¹S_b with S_w the plain scatter sums Σ_k Σ_{x∈k}(x − μ_k)(x − μ_k)ᵀ and
 * S_b = (μ0 − μ1)(μ0 − μ1)ᵀ for two classes, Σ_k m_k(μ_k − μ)(μ_k − μ)ᵀ for more.
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import { UnusableInputError, type Algorithm, type Prediction } from "../contract.js";
import { MAX_FEATURE_COUNT } from "../limits.js";
import { checkFinite, checkLength, f64, structural } from "../state-schemas.js";
import { predictClassifier } from "./classifier-predict.js";
import { classificationTarget } from "./classification.js";
import { fittedColumns, moments, numericDesign } from "./design.js";
import { explainClassifier } from "./explain.js";
import { classStatistics, fisherDiscriminant, generalizedEigen } from "./fisher.js";
import { checkClassifierShape, diagnosticsSchema } from "./linear-state.js";

const NAME = "lda";

export const ldaParams = z
  .object({
    /** Class priors by class name; null uses the class frequencies. */
    priors: z.record(z.string(), z.number().positive()).nullable().default(null),
    /** Shrinkage λ ∈ [0, 1] of the covariance towards a scaled identity; null for none. */
    shrinkage: z.number().min(0).max(1).nullable().default(null),
    /** Projection dimensions kept by transform; null keeps min(K − 1, features). At most MAX_FEATURE_COUNT: transform clips it to min(K − 1, features) anyway. */
    n_components: z.number().int().positive().max(MAX_FEATURE_COUNT).nullable().default(null).describe(`Projection dimensions kept by transform (at most ${MAX_FEATURE_COUNT}); null keeps min(K − 1, features)`),
    /**
     * A direction of the covariance counts as absent when its standard deviation, after each feature is
     * divided by its within-class standard deviation, is at most tol (scikit-learn's svd solver's tol).
     */
    tol: z.number().positive().default(1e-4),
  })
  .strict();
export type LdaParams = z.infer<typeof ldaParams>;

export const ldaStateSchema = z
  .object({
    features: z.array(z.string()),
    classes: z.array(z.string()),
    kind: z.literal("multinomial"),
    coef: f64,
    intercept: f64,
    priors: f64,
    means: f64,
    xbar: f64,
    /** p × components row-major: transform(x) = (x − x̄)·scalings. */
    scalings: f64,
    n_components: z.number().int().nonnegative(),
    explained_variance_ratio: f64,
    /** p × components, unit length (explain). */
    directions: f64,
    eigenvalues: f64,
    feature_std: f64,
    diagnostics: diagnosticsSchema,
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkClassifierShape(s, report)) return;
      const K = s.classes.length;
      const p = s.features.length;
      const m = s.n_components;
      if (m > Math.min(K - 1, p)) return report(`n_components ${m} is above min(classes − 1, features) = ${Math.min(K - 1, p)}`, ["n_components"]);
      const shapes: [string, Float64Array, number, string][] = [
        ["priors", s.priors, K, "classes"],
        ["means", s.means, K * p, "classes × features"],
        ["xbar", s.xbar, p, "features"],
        ["scalings", s.scalings, p * m, "features × n_components"],
        ["explained_variance_ratio", s.explained_variance_ratio, m, "n_components"],
        ["directions", s.directions, p * s.eigenvalues.length, "features × eigenvalues"],
      ];
      for (const [name, a, n, shape] of shapes) if (!checkLength(a, n, name, report, shape)) return;
      if (s.eigenvalues.length > m) return report("more eigenvalues than components", ["eigenvalues"]);
      for (const [name, a] of shapes) if (!checkFinite(a, name, report)) return;
    }),
  );
export type LdaState = z.infer<typeof ldaStateSchema>;

export function fitLda(X: Frame, y: Int32Array, classes: readonly string[], params: LdaParams): LdaState {
  const design = numericDesign(X, NAME);
  const { n, p, columns } = design;
  const K = classes.length;
  if (K < 2) throw new UnusableInputError(`${NAME} needs at least two classes`);
  if (n <= K) throw new UnusableInputError(`${NAME} needs more rows than classes`);
  const stats = classStatistics(columns, n, y, K);
  const priors = new Float64Array(K);
  if (params.priors) {
    for (const [name, v] of Object.entries(params.priors)) {
      const k = classes.indexOf(name);
      if (k < 0) throw new UnusableInputError(`${NAME}: priors name ${name}, which is not a class of the target`);
      priors[k] = v;
    }
    if (priors.some((v) => v === 0)) throw new UnusableInputError(`${NAME}: priors must give every class a positive prior`);
  } else {
    for (let k = 0; k < K; k++) priors[k] = stats.counts[k] / n;
  }
  const total = priors.reduce((a, b) => a + b, 0);
  for (let k = 0; k < K; k++) priors[k] /= total;

  const xbar = new Float64Array(p);
  for (let k = 0; k < K; k++) for (let a = 0; a < p; a++) xbar[a] += priors[k] * stats.means[k * p + a];
  const cov = stats.scatter.map((v) => v / (n - K));
  if (params.shrinkage !== null) {
    let trace = 0;
    for (let a = 0; a < p; a++) trace += cov[a * p + a];
    const lam = params.shrinkage;
    for (let i = 0; i < p * p; i++) cov[i] *= 1 - lam;
    for (let a = 0; a < p; a++) cov[a * p + a] += (lam * trace) / p;
  }
  const centred = new Float64Array(K * p);
  for (let k = 0; k < K; k++) for (let a = 0; a < p; a++) centred[k * p + a] = stats.means[k * p + a] - xbar[a];
  const between = new Float64Array(p * p);
  for (let k = 0; k < K; k++) {
    const wk = n * priors[k];
    for (let a = 0; a < p; a++) for (let b = 0; b < p; b++) between[a * p + b] += wk * centred[k * p + a] * centred[k * p + b];
  }
  const maxComponents = Math.min(K - 1, p, params.n_components ?? Infinity);
  // scikit-learn's svd solver standardises by the within-class std (divided by n) before its tol cut.
  const withinStd = Float64Array.from({ length: p }, (_, a) => Math.sqrt(stats.scatter[a * p + a] / n));
  const g = generalizedEigen(cov, between, p, maxComponents, params.tol, withinStd);
  if (g.withinPinv.every((v) => v === 0)) throw new UnusableInputError(`${NAME}: every feature is constant within the classes`);

  const coef = new Float64Array(K * p);
  const intercept = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    let quad = 0;
    let shift = 0;
    for (let a = 0; a < p; a++) {
      let s = 0;
      for (let b = 0; b < p; b++) s += g.withinPinv[a * p + b] * centred[k * p + b];
      coef[k * p + a] = s;
      quad += s * centred[k * p + a];
      shift += s * xbar[a];
    }
    intercept[k] = -0.5 * quad + Math.log(priors[k]) - shift;
  }
  const valueSum = g.values.reduce((a, b) => a + b, 0);
  const fisher = fisherDiscriminant(columns, n, y, K, "scatter", params.tol, stats);
  const m = Math.min(g.m, fisher.m);
  return {
    features: design.names,
    classes: [...classes],
    kind: "multinomial",
    coef,
    intercept,
    priors,
    means: stats.means,
    xbar,
    scalings: g.vectors,
    n_components: g.m,
    explained_variance_ratio: g.values.map((v) => (valueSum > 0 ? v / valueSum : 0)),
    directions: truncateColumns(fisher.directions, p, fisher.m, m),
    eigenvalues: fisher.eigenvalues.slice(0, m),
    feature_std: moments(columns, n).std,
    diagnostics: { solver: "svd", converged: true, iterations: 0, loss: null, grad_norm: null },
  };
}

function truncateColumns(a: Float64Array, p: number, from: number, to: number): Float64Array<ArrayBuffer> {
  const out = new Float64Array(p * to);
  for (let r = 0; r < p; r++) for (let c = 0; c < to; c++) out[r * to + c] = a[r * from + c];
  return out;
}

/** The LDA projection of new rows, n × n_components row-major (a pipeline step can call this). */
export function ldaTransform(state: LdaState, X: Frame): Prediction & { task: "projection" } {
  const columns = fittedColumns(X, state.features, NAME);
  const n = X.rowCount;
  const m = state.n_components;
  const p = columns.length;
  const values = new Float64Array(n * m);
  for (let a = 0; a < p; a++) {
    const c = columns[a];
    const shift = state.xbar[a];
    for (let k = 0; k < m; k++) {
      const v = state.scalings[a * m + k];
      for (let i = 0; i < n; i++) values[i * m + k] += (c[i] - shift) * v;
    }
  }
  return { task: "projection", values, dims: m };
}

export const lda: Algorithm<LdaParams, LdaState> = {
  name: NAME,
  family: "linear",
  tasks: ["classification"],
  description: "Linear discriminant analysis: Gaussian classes with a shared covariance (optional shrinkage, priors); also a projection onto K − 1 discriminant directions.",
  params: ldaParams,
  state: ldaStateSchema,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: false, // predictions are invariant to rescaling a column
  fit(train, params) {
    const { y, classes } = classificationTarget(train, NAME);
    return fitLda(train.X, y, classes, params);
  },
  predict: (state, X) => predictClassifier(state, X, NAME),
  explain(state) {
    const base = explainClassifier({ ...state, kind: "multinomial" });
    const p = state.features.length;
    const m = state.eigenvalues.length;
    const directions = Array.from({ length: m }, (_, k) => Object.fromEntries(state.features.map((f, a) => [f, state.directions[a * m + k]])));
    return {
      ...base,
      projection: {
        directions,
        eigenvalues: [...state.eigenvalues],
        eigenvalue_convention: "eigenvalues of S_w⁻¹S_b, S_w = Σ_k Σ_{x∈k}(x−μ_k)(x−μ_k)ᵀ (scatter sums); S_b = (μ0−μ1)(μ0−μ1)ᵀ for two classes, Σ_k m_k(μ_k−μ)(μ_k−μ)ᵀ otherwise",
        explained_variance_ratio: [...state.explained_variance_ratio],
        n_components: state.n_components,
        features: p,
      },
    };
  },
};
