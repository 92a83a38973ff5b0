/**
 * easy_ensemble (seed 002, 类别不平衡问题; Liu, Wu & Zhou 2009, "Exploratory
 * undersampling for class-imbalance learning"): undersampling the majority throws
 * information away; EasyEnsemble draws `n_subsets` independent balanced undersamples
 * instead, so every majority row has a chance to be seen, and boosts an AdaBoost on
 * each. Each subset keeps every row of the smallest class and draws, without
 * replacement, as many rows of every other class (imbalanced-learn's
 * RandomUnderSampler "auto" rule, so it also balances several classes).
 *
 * Each subset is adaboost.ts's own fit (SAMME / SAMME.R, default depth-1 cart
 * stumps, `n_estimators` rounds); the ensemble's probabilities are the mean of the
 * subsets' AdaBoost probabilities (imbalanced-learn's EasyEnsembleClassifier), in
 * `classes` order, and its label their argmax. Subset s's draw depends only on
 * (seed, s) (bootstrap.ts memberRng).
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import { takeRows } from "../../data/frame.js";
import type { Algorithm, FitContext, Prediction, TrainingSet } from "../contract.js";
import { throwIfAborted, UnusableInputError } from "../contract.js";
import { checkClasses, structural } from "../state-schemas.js";
import type { AdaboostParams, AdaboostState } from "./adaboost.js";
import { adaboost } from "./adaboost.js";
import { ensembleSeed, memberRng, subsampleCounts } from "./bootstrap.js";
import { checkLearner, subsetTarget } from "./members.js";
import { ENSEMBLE_FAMILY, MAX_ESTIMATORS, MAX_LEARNING_RATE, learnerSpec } from "./params.js";
import { groupDigits } from "../../data/group-digits.js";

/** Subsets one model may hold: each is a whole AdaBoost kept in the artifact and walked on every predict. */
export const MAX_SUBSETS = 500;

export const easyEnsembleParams = z
  .object({
    n_subsets: z.int().min(1).max(MAX_SUBSETS).default(10).describe(`Balanced undersamples, one AdaBoost each. At most ${MAX_SUBSETS}; n_subsets × n_estimators at most ${groupDigits(MAX_ESTIMATORS)}.`),
    n_estimators: z.int().min(1).max(MAX_ESTIMATORS).default(10).describe(`Most boosting rounds per subset. At most ${groupDigits(MAX_ESTIMATORS)} (and n_subsets × n_estimators at most that).`),
    base: learnerSpec.nullable().default(null).describe("The boosted learner, { algorithm, params }, taking sample weights; null: a depth-1 cart stump."),
    learning_rate: z.number().gt(0).max(MAX_LEARNING_RATE).default(1).describe(`Shrinks each round's weight α_t. At most ${MAX_LEARNING_RATE}.`),
    algorithm: z.enum(["SAMME", "SAMME.R"]).default("SAMME").describe("The AdaBoost variant of every subset (SAMME.R needs a base with probabilities)."),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.n_subsets * p.n_estimators > MAX_ESTIMATORS) ctx.addIssue({ code: "custom", path: ["n_estimators"], message: `n_subsets × n_estimators is at most ${MAX_ESTIMATORS}` });
    if (p.base) checkLearner(p.base, ["base"], ctx, { weights: true });
  });
export type EasyEnsembleParams = z.infer<typeof easyEnsembleParams>;

const stateObject = z
  .object({
    classes: z.array(z.string()),
    /** Rows of each class in every subset (the smallest class's count). */
    per_class: z.int().min(1),
    subsets: z.array(z.unknown()).min(1).max(MAX_SUBSETS),
  })
  .strict();
export type EasyEnsembleState = z.infer<typeof stateObject>;

const state = stateObject.superRefine((s, ctx) => {
  structural<EasyEnsembleState>((st, report) => {
    checkClasses(st.classes, report);
  })(s, ctx);
  for (let i = 0; i < s.subsets.length; i++) {
    const r = adaboost.state.safeParse(s.subsets[i]);
    if (!r.success) {
      const issue = r.error.issues[0];
      const params = "params" in issue ? { params: issue.params as Record<string, unknown> } : {};
      ctx.addIssue({ code: "custom", path: ["subsets", i, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))], message: issue.message, ...params });
      return;
    }
    const sub = r.data as AdaboostState;
    if (sub.task !== "classification" || JSON.stringify(sub.classes) !== JSON.stringify(s.classes)) {
      ctx.addIssue({ code: "custom", path: ["subsets", i], message: "a subset's AdaBoost must classify the ensemble's classes" });
      return;
    }
  }
});

function fit(train: TrainingSet, p: EasyEnsembleParams, ctx: FitContext): EasyEnsembleState {
  const target = train.target;
  if (!target || target.task !== "classification") throw new UnusableInputError("easy_ensemble is a classifier: it needs a categorical target");
  const K = target.classes.length;
  const byClass: number[][] = Array.from({ length: K }, () => []);
  for (let i = 0; i < target.y.length; i++) byClass[target.y[i]].push(i);
  const present = byClass.filter((rows) => rows.length > 0);
  if (present.length < 2) throw new UnusableInputError("easy_ensemble needs rows of at least two classes");
  const m = Math.min(...present.map((rows) => rows.length));
  const seed = ensembleSeed(ctx.rng);
  const boost: AdaboostParams = { base: p.base, n_estimators: p.n_estimators, learning_rate: p.learning_rate, algorithm: p.algorithm, boosting: "reweight", loss: "linear" };
  const subsets: AdaboostState[] = [];
  for (let s = 0; s < p.n_subsets; s++) {
    throwIfAborted(ctx.signal);
    const rng = memberRng(seed, s);
    const rows: number[] = [];
    for (const cls of present) {
      // The smallest class is taken whole (m of m); every larger one gives m rows without replacement.
      const picked = subsampleCounts(cls.length, m, rng);
      for (let j = 0; j < cls.length; j++) if (picked[j] > 0) rows.push(cls[j]);
    }
    rows.sort((a, b) => a - b);
    const sub: TrainingSet = {
      X: takeRows(train.X, rows),
      target: subsetTarget(target, rows),
      ...(train.weights ? { weights: Float64Array.from(rows, (i) => (train.weights as Float64Array)[i]) } : {}),
    };
    subsets.push(adaboost.fit(sub, boost, { rng, progress: () => {}, signal: ctx.signal }));
    ctx.progress((s + 1) / p.n_subsets);
  }
  return { classes: [...target.classes], per_class: m, subsets };
}

function predict(s: EasyEnsembleState, X: Frame): Prediction {
  const K = s.classes.length;
  const n = X.rowCount;
  const proba = new Float64Array(n * K);
  for (const sub of s.subsets) {
    const pred = adaboost.predict(sub as AdaboostState, X);
    if (pred.task !== "classification" || !pred.proba) throw new UnusableInputError("a subset's AdaBoost gave no probabilities");
    for (let i = 0; i < proba.length; i++) proba[i] += pred.proba[i];
  }
  const S = s.subsets.length;
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let k = 0; k < K; k++) {
      proba[i * K + k] /= S;
      if (proba[i * K + k] > proba[i * K + best]) best = k;
    }
    labels[i] = best;
  }
  return { task: "classification", labels, proba };
}

function explain(s: EasyEnsembleState) {
  return {
    n_subsets: s.subsets.length,
    rows_per_class: s.per_class,
    subsets: s.subsets.map((sub) => adaboost.explain!(sub as AdaboostState)),
  };
}

export const easyEnsemble: Algorithm<EasyEnsembleParams, EasyEnsembleState> = {
  name: "easy_ensemble",
  family: ENSEMBLE_FAMILY,
  tasks: ["classification"],
  description: "EasyEnsemble for imbalanced classes: n_subsets balanced undersamples (every row of the smallest class in each), an AdaBoost of stumps on each, probabilities averaged.",
  params: easyEnsembleParams,
  state,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // as sensitive as its members may be (an svm, an mlp): they get standardised inputs; trees are unchanged by it
  fit,
  predict,
  explain,
};
