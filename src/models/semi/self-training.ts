/**
 * `self_training` (seed 002 半监督学习 → 自训练; Yarowsky 1995), as scikit-learn's
 * SelfTrainingClassifier: fit the base learner on the labelled rows, label the unlabelled
 * rows it is surest of (a probability above `threshold`, or the `k_best` most confident),
 * add them to the labelled rows, refit; stop when no row is added, every row is labelled
 * or `max_iter` rounds have run; the model is the base learner's last fit.
 *
 * The base learner is any probabilistic learner of the registry, nested as the ensembles
 * nest theirs (../ensemble/members.ts): its params are checked by its own schema, its
 * state by its own state schema.
 */
import { z } from "zod";
import { takeRows, type Frame } from "../../data/frame.js";
import { throwIfAborted, UnusableInputError, type Algorithm, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { checkLearner, checkMemberStates, fitMember, predictMember, resolveLearner, subsetTarget } from "../ensemble/members.js";
import { learnerSpec } from "../ensemble/params.js";
import { checkClasses, i32, structural } from "../state-schemas.js";

export const selfTrainingParams = z
  .object({
    base: learnerSpec
      .default({ algorithm: "logistic_regression", params: {} })
      .describe("The learner trained round after round: { algorithm, params } of a classifier with probabilities (not an ensemble); default logistic_regression."),
    criterion: z
      .discriminatedUnion("kind", [
        z.object({ kind: z.literal("threshold"), threshold: z.number().min(0).lt(1).default(0.75).describe("Label the unlabelled rows whose top probability is above this.") }).strict(),
        z.object({ kind: z.literal("k_best"), k_best: z.int().min(1).max(1_000_000).default(10).describe("Label this many of the most confident unlabelled rows each round.") }).strict(),
      ])
      .default({ kind: "threshold", threshold: 0.75 })
      .describe('Which rows a round labels: {"kind":"threshold","threshold":0.75} or {"kind":"k_best","k_best":10} (scikit-learn\'s two criteria).'),
    max_iter: z.int().min(1).max(10_000).default(10).describe("Rounds at most (each is one fit of the base learner)."),
  })
  .strict()
  .superRefine((p, ctx) => checkLearner(p.base, ["base"], ctx));
type SelfTrainingParams = z.infer<typeof selfTrainingParams>;

const termination = z.enum(["no_change", "all_labeled", "max_iter"]);

const stateObject = z
  .object({
    classes: z.array(z.string()),
    features: z.array(z.string()),
    base: z.string(),
    state: z.unknown(),
    /** Every training row's class: its label, the one a round gave it, or −1 if none did. */
    transduction: i32,
    /** The round that labelled each row: 0 for rows labelled from the start, −1 for rows never labelled. */
    labeled_iter: i32,
    n_iter: z.int().min(0),
    termination,
  })
  .strict();
type SelfTrainingState = z.infer<typeof stateObject>;

const state = stateObject.superRefine((s, ctx) => {
  structural<SelfTrainingState>((st, report) => {
    if (!checkClasses(st.classes, report)) return;
    if (st.labeled_iter.length !== st.transduction.length) return report("labeled_iter and transduction differ in length", ["labeled_iter"]);
    const bad = st.transduction.findIndex((c) => c < -1 || c >= st.classes.length);
    if (bad >= 0) report(`transduction[${bad}] is not a class`, ["transduction", bad]);
  })(s, ctx);
  checkMemberStates(s.base, [s.state], ["state"], ctx);
});

function fit(train: TrainingSet, p: SelfTrainingParams, ctx: FitContext): SelfTrainingState {
  const target = train.target;
  if (target?.task !== "classification") throw new UnusableInputError("self_training needs a categorical target (rows without a value are its unlabelled rows)");
  const learner = resolveLearner(p.base, "classification");
  const X = train.X;
  const n = X.rowCount;
  const K = target.classes.length;
  const transduction = Int32Array.from(target.y);
  const labeledIter = Int32Array.from(target.y, (y) => (y >= 0 ? 0 : -1));
  const labelledRows = () => {
    const rows: number[] = [];
    for (let i = 0; i < n; i++) if (transduction[i] >= 0) rows.push(i);
    return Int32Array.from(rows);
  };
  if (labelledRows().length === 0) throw new UnusableInputError("self_training needs at least one labelled row");
  const fitOn = (rows: Int32Array) => fitMember(learner, takeRows(X, rows), subsetTarget({ task: "classification", y: transduction, classes: target.classes }, rows), null, ctx.rng, ctx.signal);

  let iterations = 0;
  let end: SelfTrainingState["termination"] = "max_iter";
  for (;;) {
    const unlabelled: number[] = [];
    for (let i = 0; i < n; i++) if (transduction[i] < 0) unlabelled.push(i);
    if (unlabelled.length === 0) {
      end = "all_labeled";
      break;
    }
    if (iterations >= p.max_iter) break;
    throwIfAborted(ctx.signal);
    iterations++;
    const fitted = fitOn(labelledRows());
    const pred = predictMember(learner.algorithm, fitted, takeRows(X, unlabelled), "classification");
    if (pred.task !== "classification" || !pred.proba) throw new UnusableInputError(`${learner.algorithm.name} gives no probabilities with these params; self_training ranks rows by them`);
    const top = Float64Array.from(unlabelled, (_, r) => pred.proba![r * K + pred.labels[r]]);
    const chosen = select(top, p.criterion);
    for (const r of chosen) {
      transduction[unlabelled[r]] = pred.labels[r];
      labeledIter[unlabelled[r]] = iterations;
    }
    ctx.progress(iterations / (p.max_iter + 1));
    if (chosen.length === 0) {
      end = "no_change";
      break;
    }
  }
  const final = fitOn(labelledRows());
  return { classes: [...target.classes], features: X.columns.map((c) => c.name), base: learner.algorithm.name, state: final, transduction, labeled_iter: labeledIter, n_iter: iterations, termination: end };
}

/** Indices (into `top`) a round labels: above the threshold, or the k most confident (ties: the earlier row). */
function select(top: Float64Array, criterion: SelfTrainingParams["criterion"]): number[] {
  const all = Array.from(top.keys());
  if (criterion.kind === "threshold") return all.filter((r) => top[r] > criterion.threshold);
  if (criterion.k_best >= top.length) return all;
  return all.sort((a, b) => top[b] - top[a] || a - b).slice(0, criterion.k_best);
}

function predict(s: SelfTrainingState, X: Frame): Prediction {
  return predictMember(lookupBase(s), s.state, X, "classification");
}

function lookupBase(s: SelfTrainingState): Algorithm {
  return resolveLearner({ algorithm: s.base, params: {} }, "classification").algorithm;
}

export const selfTraining: Algorithm<SelfTrainingParams, SelfTrainingState> = {
  name: "self_training",
  family: "semi",
  tasks: ["classification"],
  description: "Self-training around any probabilistic classifier: rows without a target value are labelled round by round where the base learner is confident (threshold or k_best), then the base is refitted.",
  params: selfTrainingParams,
  state,
  // The base learner may need numbers and complete rows: the pipeline encodes and imputes in front.
  accepts: { categorical: false, missing: false, weights: false, unlabelled: true },
  scaleSensitive: true, // the default base (logistic regression) has a penalty on coefficients
  fit,
  predict,
  trainingLabels: (s) => s.transduction,
  explain: (s) => {
    const byRound: Record<string, number> = {};
    for (const r of s.labeled_iter) byRound[String(r)] = (byRound[String(r)] ?? 0) + 1;
    return { base: s.base, iterations: s.n_iter, termination: s.termination, rows_labelled_by_round: byRound };
  },
};
