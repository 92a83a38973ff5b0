/**
 * adaboost (seed 002, Boosting; figure 8.3): rounds of a base learner on a
 * distribution D over the rows, each round's learner weighted by α_t.
 *
 * Classification, SAMME (Zhu et al. 2009; for two classes exactly the book's
 * algorithm): ε_t = Σ D_t(x)·[h_t(x) ≠ y]; stop (before adding h_t) when ε_t ≥ 1 − 1/K,
 * the book's "ε_t > 0.5" for two classes; α_t = ½·ln((1 − ε_t)/ε_t) + ½·ln(K − 1) (the
 * book's α_t for K = 2, times `learning_rate`); D_{t+1}(x) ∝ D_t(x)·exp(−α_t f(x) h_t(x)),
 * i.e. misclassified rows × e^{2α_t} relative to the others. H(x) = argmax_k Σ α_t [h_t(x) = k].
 * (scikit-learn's SAMME α is twice this: the same classifier, the same distributions.)
 * SAMME.R (`algorithm: "SAMME.R"`, base learners with probabilities): each round adds
 * (K − 1)(log p_k − mean log p), rows re-weighted by exp(−lr·(K − 1)/K · yᵀ log p).
 *
 * Regression, AdaBoost.R2 (Drucker 1997, as scikit-learn implements it): per-row losses
 * scaled by the largest, `loss` linear / square / exponential, β_t = ε̄/(1 − ε̄), weight
 * ln(1/β_t), D ∝ D·β^(1 − loss); prediction is the weighted median of the rounds.
 *
 * `boosting: "reweight"` passes D as sample weights (the base must take them);
 * `"resample"` fits each round on n rows drawn from D (the book's remedy for learners
 * that cannot take weights). A round with zero error ends boosting with weight 1.
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import { takeRows } from "../../data/frame.js";
import type { Rng } from "../../data/random.js";
import type { Algorithm, FitContext, Prediction, Target, TrainingSet } from "../contract.js";
import { throwIfAborted, UnusableInputError } from "../contract.js";
import { checkClasses, f64, structural } from "../state-schemas.js";
import { bootstrapCounts, ensembleSeed, memberRng } from "./bootstrap.js";
import type { Learner } from "./members.js";
import type { LearnerSpec } from "./params.js";
import { checkLearner, checkMemberStates, predictMember, resolveLearner, subsetTarget } from "./members.js";
import { ENSEMBLE_FAMILY, MAX_ESTIMATORS, MAX_LEARNING_RATE, learnerSpec, nEstimatorsParam } from "./params.js";

export { MAX_LEARNING_RATE };

export const adaboostParams = z
  .object({
    base: learnerSpec.nullable().default(null).describe("The boosted learner, { algorithm, params }; null: a depth-1 cart stump (classification), a depth-3 cart (regression)."),
    n_estimators: nEstimatorsParam(50, "Most boosting rounds (fewer when a round's error stops it)."),
    learning_rate: z.number().gt(0).max(MAX_LEARNING_RATE).default(1).describe(`Shrinks each round's weight α_t (and, for SAMME.R and R2, its re-weighting). At most ${MAX_LEARNING_RATE}.`),
    algorithm: z.enum(["SAMME", "SAMME.R"]).default("SAMME").describe("Classification: SAMME (the book's AdaBoost for two classes) or SAMME.R (real-valued, needs a base with probabilities)."),
    boosting: z.enum(["reweight", "resample"]).default("reweight").describe("reweight: the distribution as sample weights; resample: each round fitted on n rows drawn from it."),
    loss: z.enum(["linear", "square", "exponential"]).default("linear").describe("Regression (AdaBoost.R2): how a row's error, scaled by the round's largest, becomes its loss."),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.base) checkLearner(p.base, ["base"], ctx, { weights: p.boosting === "reweight" });
  });
export type AdaboostParams = z.infer<typeof adaboostParams>;

const stateObject = z
  .object({
    task: z.enum(["classification", "regression"]),
    classes: z.array(z.string()),
    algorithm: z.enum(["SAMME", "SAMME.R", "R2"]),
    base: z.string(),
    /** Per round: its weight α_t (SAMME, R2; 1 for SAMME.R) and its weighted error ε_t. */
    alphas: f64,
    errors: f64,
    members: z.array(z.unknown()).min(1).max(MAX_ESTIMATORS),
    /** Why boosting ended before n_estimators rounds, or null. */
    stopped: z.string().nullable(),
  })
  .strict();
export type AdaboostState = z.infer<typeof stateObject>;

const state = stateObject.superRefine((s, ctx) => {
  structural<AdaboostState>((st, report) => {
    if (st.task === "classification" && !checkClasses(st.classes, report)) return;
    if ((st.task === "regression") !== (st.algorithm === "R2")) return report("R2 is the regression algorithm, SAMME and SAMME.R the classification ones", ["algorithm"]);
    if (st.alphas.length !== st.members.length || st.errors.length !== st.members.length) return report("one α and one error per member", ["alphas"]);
    for (let t = 0; t < st.alphas.length; t++) if (!Number.isFinite(st.alphas[t])) return report(`alphas[${t}] is not finite`, ["alphas", t], true);
  })(s, ctx);
  checkMemberStates(s.base, s.members, ["members"], ctx);
});

const EPS = 2.220446049250313e-16;

function defaultBase(task: "classification" | "regression"): LearnerSpec {
  return { algorithm: "cart", params: { max_depth: task === "classification" ? 1 : 3 } };
}

/** One round's learner fitted on D (as weights or as a resample drawn from it). */
function fitRound(learner: Learner, X: Frame, target: Target, D: Float64Array, resample: boolean, rng: Rng, fitCtx: FitContext): unknown {
  const ctx = { rng, progress: () => {}, signal: fitCtx.signal };
  if (!resample) {
    // Weights summing to n keep "min_samples_*"-style thresholds in row units.
    const n = D.length;
    const w = new Float64Array(n);
    for (let i = 0; i < n; i++) w[i] = D[i] * n;
    return learner.algorithm.fit({ X, target, weights: w }, learner.params, ctx);
  }
  const counts = bootstrapCounts(D.length, D.length, rng, D);
  const rows: number[] = [];
  for (let i = 0; i < counts.length; i++) for (let c = 0; c < counts[i]; c++) rows.push(i);
  return learner.algorithm.fit({ X: takeRows(X, rows), target: subsetTarget(target, rows) }, learner.params, ctx);
}

function initialDistribution(n: number, weights?: Float64Array): Float64Array {
  const D = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) total += D[i] = weights ? weights[i] : 1;
  if (!(total > 0)) throw new UnusableInputError("no training row has a positive weight");
  for (let i = 0; i < n; i++) D[i] /= total;
  return D;
}

function normalise(D: Float64Array): void {
  let total = 0;
  for (let i = 0; i < D.length; i++) total += D[i];
  for (let i = 0; i < D.length; i++) D[i] /= total;
}

function fit(train: TrainingSet, p: AdaboostParams, ctx: FitContext): AdaboostState {
  const target = train.target;
  if (!target) throw new UnusableInputError("adaboost needs a target");
  const learner = resolveLearner(p.base ?? defaultBase(target.task), target.task);
  const resample = p.boosting === "resample";
  if (!resample && !learner.algorithm.accepts.weights) throw new UnusableInputError(`${learner.algorithm.name} takes no sample weights: use boosting "resample"`);
  const n = train.X.rowCount;
  const D = initialDistribution(n, train.weights);
  const seed = ensembleSeed(ctx.rng);
  const members: unknown[] = [];
  const alphas: number[] = [];
  const errors: number[] = [];
  let stopped: string | null = null;
  const variant = target.task === "regression" ? "R2" : p.algorithm;
  const K = target.task === "classification" ? target.classes.length : 0;
  for (let t = 0; t < p.n_estimators; t++) {
    throwIfAborted(ctx.signal);
    const h = fitRound(learner, train.X, target, D, resample, memberRng(seed, t), ctx);
    const pred = predictMember(learner.algorithm, h, train.X, target.task);
    const round = target.task === "regression" ? r2Round(pred, target.y, D, p) : classificationRound(pred, target.y, K, D, p, variant === "SAMME.R");
    if (round.stop === "worse") {
      if (members.length === 0) throw new UnusableInputError(`the first round's weighted error ${round.error.toFixed(4)} is no better than chance: ${learner.algorithm.name} cannot be boosted on this data`);
      stopped = `round ${t + 1}'s weighted error ${round.error.toFixed(4)} reached ${target.task === "regression" ? "0.5" : `1 − 1/K = ${(1 - 1 / K).toFixed(4)}`}; boosting stopped before it`;
      break;
    }
    members.push(h);
    alphas.push(round.alpha);
    errors.push(round.error);
    if (round.stop === "perfect") {
      stopped = `round ${t + 1} fitted the training rows without error`;
      break;
    }
    ctx.progress((t + 1) / p.n_estimators);
  }
  return {
    task: target.task,
    classes: target.task === "classification" ? [...target.classes] : [],
    algorithm: variant,
    base: learner.algorithm.name,
    alphas: Float64Array.from(alphas),
    errors: Float64Array.from(errors),
    members,
    stopped,
  };
}

interface Round {
  readonly error: number;
  readonly alpha: number;
  readonly stop: "perfect" | "worse" | null;
}

/** SAMME / SAMME.R: the round's error, its α, and D re-weighted in place for the next round. */
function classificationRound(pred: Prediction, y: Int32Array, K: number, D: Float64Array, p: AdaboostParams, real: boolean): Round {
  if (pred.task !== "classification") throw new Error("unreachable");
  const n = y.length;
  let error = 0;
  for (let i = 0; i < n; i++) if (pred.labels[i] !== y[i]) error += D[i];
  if (error <= 0) return { error: 0, alpha: 1, stop: "perfect" };
  if (real) {
    if (!pred.proba) throw new UnusableInputError(`SAMME.R needs probabilities and ${p.base?.algorithm ?? "this base"} gives none: use SAMME`);
    if (error >= 1 - 1 / K) return { error, alpha: 0, stop: "worse" };
    const scale = (-p.learning_rate * (K - 1)) / K;
    for (let i = 0; i < n; i++) {
      let sumLog = 0;
      for (let k = 0; k < K; k++) sumLog += Math.log(Math.max(pred.proba[i * K + k], EPS));
      const own = Math.log(Math.max(pred.proba[i * K + y[i]], EPS));
      // yᵀ log p with y coded 1 for the row's class, −1/(K − 1) for the others.
      const dot = K > 1 ? own - (sumLog - own) / (K - 1) : 0;
      D[i] *= Math.exp(scale * dot);
    }
    normalise(D);
    return { error, alpha: 1, stop: null };
  }
  if (error >= 1 - 1 / K) return { error, alpha: 0, stop: "worse" };
  const alpha = p.learning_rate * 0.5 * (Math.log((1 - error) / error) + Math.log(K - 1));
  // The book's exp(−α f h): e^{α} on a miss, e^{−α} on a hit (then normalised by Z_t).
  const up = Math.exp(alpha);
  const down = Math.exp(-alpha);
  for (let i = 0; i < n; i++) D[i] *= pred.labels[i] !== y[i] ? up : down;
  normalise(D);
  return { error, alpha, stop: null };
}

/** AdaBoost.R2: the round's average loss under D, its weight ln(1/β), and D re-weighted. */
function r2Round(pred: Prediction, y: Float64Array, D: Float64Array, p: AdaboostParams): Round {
  if (pred.task !== "regression") throw new Error("unreachable");
  const n = y.length;
  const loss = new Float64Array(n);
  let largest = 0;
  for (let i = 0; i < n; i++) {
    loss[i] = Math.abs(pred.values[i] - y[i]);
    if (loss[i] > largest) largest = loss[i];
  }
  let error = 0;
  for (let i = 0; i < n; i++) {
    let l = largest > 0 ? loss[i] / largest : 0;
    if (p.loss === "square") l *= l;
    else if (p.loss === "exponential") l = 1 - Math.exp(-l);
    loss[i] = l;
    error += D[i] * l;
  }
  if (error <= 0) return { error: 0, alpha: 1, stop: "perfect" };
  if (error >= 0.5) return { error, alpha: 0, stop: "worse" };
  const beta = error / (1 - error);
  for (let i = 0; i < n; i++) D[i] *= Math.pow(beta, (1 - loss[i]) * p.learning_rate);
  normalise(D);
  return { error, alpha: p.learning_rate * Math.log(1 / beta), stop: null };
}

function predict(s: AdaboostState, X: Frame): Prediction {
  const algorithm = resolveLearner({ algorithm: s.base, params: {} }, s.task).algorithm;
  const n = X.rowCount;
  const T = s.members.length;
  if (s.task === "regression") {
    const preds = s.members.map((m) => (predictMember(algorithm, m, X, "regression") as { values: Float64Array }).values);
    return { task: "regression", values: weightedMedians(preds, s.alphas, n) };
  }
  const K = s.classes.length;
  const score = new Float64Array(n * K);
  let totalAlpha = 0;
  for (let t = 0; t < T; t++) {
    const pred = predictMember(algorithm, s.members[t], X, "classification");
    if (pred.task !== "classification") continue;
    if (s.algorithm === "SAMME.R") {
      if (!pred.proba) throw new UnusableInputError("a SAMME.R member gives no probabilities");
      for (let i = 0; i < n; i++) {
        let mean = 0;
        for (let k = 0; k < K; k++) mean += Math.log(Math.max(pred.proba[i * K + k], EPS)) / K;
        for (let k = 0; k < K; k++) score[i * K + k] += (K - 1) * (Math.log(Math.max(pred.proba[i * K + k], EPS)) - mean);
      }
    } else for (let i = 0; i < n; i++) score[i * K + pred.labels[i]] += s.alphas[t];
    totalAlpha += s.alphas[t];
  }
  // Probabilities as scikit-learn derives them: a softmax of the (normalised) decision over K − 1.
  const norm = s.algorithm === "SAMME.R" ? T : totalAlpha || 1;
  const labels = new Int32Array(n);
  const proba = new Float64Array(n * K);
  const temper = Math.max(1, K - 1) * norm;
  for (let i = 0; i < n; i++) {
    let best = 0;
    let max = -Infinity;
    for (let k = 0; k < K; k++) {
      if (score[i * K + k] > score[i * K + best]) best = k;
      max = Math.max(max, score[i * K + k] / temper);
    }
    labels[i] = best;
    let total = 0;
    for (let k = 0; k < K; k++) total += proba[i * K + k] = Math.exp(score[i * K + k] / temper - max);
    for (let k = 0; k < K; k++) proba[i * K + k] /= total;
  }
  return { task: "classification", labels, proba };
}

/** Per row, the smallest round prediction at which the cumulative α reaches half the total (Drucker's weighted median). */
function weightedMedians(preds: Float64Array[], alphas: Float64Array, n: number): Float64Array {
  const T = preds.length;
  const out = new Float64Array(n);
  const order = new Int32Array(T);
  let total = 0;
  for (let t = 0; t < T; t++) total += alphas[t];
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < T; t++) order[t] = t;
    order.sort((a, b) => preds[a][i] - preds[b][i] || a - b);
    let acc = 0;
    let pick = order[T - 1];
    for (let r = 0; r < T; r++) {
      acc += alphas[order[r]];
      if (acc >= 0.5 * total) {
        pick = order[r];
        break;
      }
    }
    out[i] = preds[pick][i];
  }
  return out;
}

function explain(s: AdaboostState) {
  return {
    algorithm: s.algorithm,
    base: s.base,
    rounds: s.members.length,
    alpha: Array.from(s.alphas),
    error: Array.from(s.errors),
    stopped: s.stopped,
  };
}

export const adaboost: Algorithm<AdaboostParams, AdaboostState> = {
  name: "adaboost",
  family: ENSEMBLE_FAMILY,
  tasks: ["classification", "regression"],
  description: "AdaBoost: SAMME (the book's algorithm for two classes) or SAMME.R over any weighted learner, default cart stumps; AdaBoost.R2 for regression; re-weighting or re-sampling.",
  params: adaboostParams,
  state,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // as sensitive as its members may be (an svm, an mlp): they get standardised inputs; trees are unchanged by it
  fit,
  predict,
  explain,
};
