/**
 * spode: one super-parent for every attribute (the book's 7.4.1), with the book's
 * Laplace correction (one-dependence.ts). The super-parent is the attribute named by
 * `super_parent`, or else the one whose SPODE has the best conditional log-likelihood
 * Σ w · log P(y | x) on held-out rows of a seeded cv-fold split. The fold tables are
 * the candidate's full table minus each fold's own counts, so cross-validation costs
 * two counting passes per candidate (O(n d²) in all) and O(n · d² · K) to score, not
 * cv refits per candidate; only one candidate's tables are held at a time.
 */
import { z } from "zod";
import type { Algorithm, FitContext, TrainingSet } from "../contract.js";
import { throwIfAborted, UnusableInputError } from "../contract.js";
import { countSingles, prepare } from "./coded.js";
import { countPairs, oneDependenceScores, oneDependenceState, oneDependenceStateSchema, type OneDependenceState } from "./one-dependence.js";
import { binEdgesOf, explainParents, predictOneDependence } from "./aode.js";
import { alphaParam, featureNameParam, nBinsParam } from "./params.js";
import { ValueBudget, maxValuesOf } from "../explain-bounds.js";

export const MAX_CV_FOLDS = 20;

export const spodeParams = z
  .object({
    alpha: alphaParam("positive"),
    super_parent: featureNameParam("The super-parent attribute (a feature name); null chooses it by cross-validated conditional log-likelihood."),
    cv: z.int().min(2).max(MAX_CV_FOLDS).default(5).describe(`Folds of the seeded split that chooses the super-parent when super_parent is null. At most ${MAX_CV_FOLDS}.`),
    n_bins: nBinsParam,
  })
  .strict();
export type SpodeParams = z.infer<typeof spodeParams>;

function subtract(a: Float64Array, b: Float64Array): Float64Array<ArrayBuffer> {
  return Float64Array.from(a, (v, i) => v - b[i]);
}

/**
 * Held-out conditional log-likelihood of each attribute as super-parent. One candidate at a
 * time, so only its K × L_p × ΣL_j blocks (and one fold's) are ever held, not all d² of them.
 */
function crossValidate(prep: ReturnType<typeof prepare>, alpha: number, folds: number, ctx: FitContext): Float64Array<ArrayBuffer> {
  const { coded, y, w, K } = prep;
  const levels = prep.cut.levels;
  const n = coded.n;
  const d = levels.length;
  const order = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const r = ctx.rng.int(i + 1);
    [order[i], order[r]] = [order[r], order[i]];
  }
  // Per fold: its rows (in table order), their codes, targets, weights, and what they add to the class and single counts.
  const parts = Array.from({ length: folds }, (_, f) => {
    const held = order.filter((_, r) => r % folds === f).sort();
    const hy = Int32Array.from(held, (i) => y[i]);
    const hw = w ? Float64Array.from(held, (i) => w[i]) : undefined;
    const heldCoded = { n: held.length, codes: coded.codes.map((c) => (c ? Int32Array.from(held, (i) => c[i]) : null)), values: coded.values };
    const classes = new Float64Array(K);
    for (let r = 0; r < held.length; r++) classes[hy[r]] += hw ? hw[r] : 1;
    return { heldCoded, hy, hw, classes, singles: countSingles(heldCoded, levels, hy, hw, K).single };
  });
  const score = new Float64Array(d);
  for (let q = 0; q < d; q++) {
    throwIfAborted(ctx.signal);
    const parents = Int32Array.of(q);
    const full = countPairs(coded, levels, y, w, K, parents, ctx);
    for (const { heldCoded, hy, hw, classes, singles } of parts) {
      if (heldCoded.n === 0) continue;
      const model = {
        classes: prep.classes,
        levels,
        alpha,
        class_count: subtract(prep.class_count, classes),
        single_offset: prep.single_offset,
        single: subtract(prep.single, singles),
        parents,
        pair_offset: full.pair_offset,
        pair: subtract(full.pair, countPairs(heldCoded, levels, hy, hw, K, parents, ctx).pair),
      };
      const s = oneDependenceScores(model, heldCoded, 0, Int32Array.of(0));
      for (let r = 0; r < heldCoded.n; r++) {
        let max = -Infinity;
        for (let k = 0; k < K; k++) max = Math.max(max, s[r * K + k]);
        let sum = 0;
        for (let k = 0; k < K; k++) sum += Math.exp(s[r * K + k] - max);
        score[q] += (hw ? hw[r] : 1) * (s[r * K + hy[r]] - max - Math.log(sum));
      }
    }
  }
  return score;
}

function fit(train: TrainingSet, p: SpodeParams, ctx: FitContext): OneDependenceState {
  const prep = prepare(train, "spode", p.n_bins);
  const names = prep.cut.schema.map((f) => f.name);
  const d = names.length;
  if (d === 0) throw new UnusableInputError("spode needs at least one feature");
  let parent: number;
  let cv = new Float64Array(0);
  if (p.super_parent !== null) {
    parent = names.indexOf(p.super_parent);
    if (parent < 0) throw new UnusableInputError(`super_parent ${p.super_parent} is not one of the features`);
  } else {
    cv = crossValidate(prep, p.alpha, Math.min(p.cv, Math.max(2, prep.coded.n)), ctx);
    parent = 0;
    for (let q = 1; q < d; q++) if (cv[q] > cv[parent]) parent = q;
  }
  const parents = Int32Array.of(parent);
  return oneDependenceState(prep, p.alpha, parents, 0, cv, ctx);
}

function explain(s: OneDependenceState, options?: { maxValues?: number }) {
  const budget = new ValueBudget(maxValuesOf(options?.maxValues));
  const cv = budget.take(s.cv_log_likelihood);
  return {
    classes: s.classes,
    alpha: s.alpha,
    super_parent: s.features[s.parents[0]].name,
    chosen_by: s.cv_log_likelihood.length > 0 ? "cross_validation" : "param",
    ...(s.cv_log_likelihood.length > 0 ? { cv_log_likelihood: Object.fromEntries(cv.values.map((v, j) => [s.features[j].name, v])), ...(cv.truncated ? { cv_truncated: true } : {}) } : {}),
    class_count: Object.fromEntries(s.classes.map((cl, k) => [cl, s.class_count[k]])),
    super_parents: explainParents(s, budget.remaining),
    bin_edges: binEdgesOf(s),
  };
}

export const spode: Algorithm<SpodeParams, OneDependenceState> = {
  name: "spode",
  family: "bayes",
  tasks: ["classification"],
  description: "Super-parent one-dependence estimator: every attribute depends on the class and one super-parent attribute, named or chosen by cross-validated log-likelihood; Laplace correction as the book's formula.",
  params: spodeParams,
  state: oneDependenceStateSchema,
  accepts: { categorical: true, missing: true, weights: true },
  scaleSensitive: false,
  fit,
  predict: predictOneDependence,
  explain,
};
