/**
 * bagging (seed 002, Bagging): `n_estimators` copies of any registry learner, each fitted
 * on a bootstrap of the rows (`max_samples`) and optionally a subset of the features
 * (`max_features`, drawn with replacement when `bootstrap_features`); majority vote,
 * or averaged probabilities when every member gives them, or the mean. The
 * out-of-bag estimate (oob.ts) is shown by explain.
 *
 * A bootstrap reaches a learner that takes weights as every row weighted by how often
 * it was drawn (no copy), and one that does not as the drawn rows themselves.
 * The pipeline encodes and imputes in front of bagging (accepts categorical and
 * missing false) so that any base learner can be named; random_forest is the
 * ensemble that keeps categorical and missing values as they are.
 * `scaleSensitive` is true: a base may be scale-sensitive (svm, mlp, …), and the
 * automatic scale step in front leaves tree members unchanged.
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import { takeRows } from "../../data/frame.js";
import type { Algorithm, FitContext, Prediction, TrainingSet } from "../contract.js";
import { throwIfAborted, UnusableInputError } from "../contract.js";
import { checkClasses, i32, structural } from "../state-schemas.js";
import { bootstrapCounts, drawFeatures, ensembleSeed, memberRng, subsampleCounts } from "./bootstrap.js";
import { addClassVotes, addValues, votesToPrediction } from "./combine.js";
import { alignColumns, checkLearner, checkMemberStates, fitMember, pickColumns, predictMember, resolveLearner, subsetTarget } from "./members.js";
import { OobAccumulator, oobSchema, outOfBag } from "./oob.js";
import { ENSEMBLE_FAMILY, MAX_ESTIMATORS, checkMaxFeatures, featureCount, learnerSpec, maxFeaturesParams, maxSamplesParam, nEstimatorsParam } from "./params.js";

export const baggingParams = z
  .object({
    base: learnerSpec.default({ algorithm: "cart", params: {} }).describe("The learner bagged: { algorithm, params } of any non-ensemble learner; default a fully grown cart."),
    n_estimators: nEstimatorsParam(10, "Members fitted."),
    max_samples: maxSamplesParam,
    bootstrap: z.boolean().default(true).describe("Draw rows with replacement; false: max_samples of the rows without replacement."),
    ...maxFeaturesParams,
    bootstrap_features: z.boolean().default(false).describe("Draw each member's features with replacement (repeats dropped)."),
    oob_score: z.boolean().default(true).describe("Compute the out-of-bag estimate (needs bootstrap or max_samples below 1); shown by explain."),
  })
  .strict()
  .superRefine((p, ctx) => {
    checkMaxFeatures(p, ctx);
    checkLearner(p.base, ["base"], ctx);
  });
export type BaggingParams = z.infer<typeof baggingParams>;

const stateObject = z
  .object({
    task: z.enum(["classification", "regression"]),
    classes: z.array(z.string()),
    /** The input columns, by name: a member reads its `columns` (indices into these). */
    features: z.array(z.string()),
    base: z.string(),
    /** Whether every member gives probabilities (they are averaged; otherwise votes are counted). */
    soft: z.boolean(),
    members: z.array(z.object({ columns: i32, state: z.unknown() }).strict()).min(1).max(MAX_ESTIMATORS),
    oob: oobSchema.nullable(),
  })
  .strict();
export type BaggingState = z.infer<typeof stateObject>;

const state = stateObject.superRefine((s, ctx) => {
  structural<BaggingState>((st, report) => {
    if (st.task === "classification") checkClasses(st.classes, report);
    st.members.forEach((m, t) => {
      for (const j of m.columns) if (!(j >= 0 && j < st.features.length)) report(`member ${t} reads a column that is not a feature`, ["members", t, "columns"]);
    });
  })(s, ctx);
  checkMemberStates(
    s.base,
    s.members.map((m) => m.state),
    ["members"],
    ctx,
  );
});

function fit(train: TrainingSet, p: BaggingParams, ctx: FitContext): BaggingState {
  const target = train.target;
  if (!target) throw new UnusableInputError("bagging needs a target");
  const learner = resolveLearner(p.base, target.task);
  const X = train.X;
  const n = X.rowCount;
  const d = X.columns.length;
  if (d === 0) throw new UnusableInputError("bagging needs at least one feature");
  const k = featureCount(p, d, "all");
  const samples = Math.max(1, Math.round(p.max_samples * n));
  const K = target.task === "classification" ? target.classes.length : 1;
  const wantOob = p.oob_score && (p.bootstrap || samples < n);
  const oob = wantOob ? new OobAccumulator(target, K) : null;
  const seed = ensembleSeed(ctx.rng);
  const members: BaggingState["members"] = [];
  let soft = target.task === "classification";
  for (let t = 0; t < p.n_estimators; t++) {
    throwIfAborted(ctx.signal);
    const rng = memberRng(seed, t);
    const columns = drawFeatures(d, k, rng, p.bootstrap_features);
    const counts = p.bootstrap ? bootstrapCounts(n, samples, rng, train.weights) : subsampleCounts(n, samples, rng);
    const Xm = pickColumns(X, columns);
    let memberState: unknown;
    if (learner.algorithm.accepts.weights) {
      // Every row, weighted by how often it was drawn (zero out of the bag): a tree then
      // places its thresholds between neighbouring values of all the rows, so an
      // out-of-bag row never sits on a threshold (where rounding, and so the units of
      // the column, would decide its side).
      const w = Float64Array.from(counts);
      if (!p.bootstrap && train.weights) for (let i = 0; i < n; i++) w[i] *= train.weights[i];
      memberState = fitMember(learner, Xm, target, w, rng, ctx.signal);
    } else {
      const rows: number[] = [];
      for (let i = 0; i < n; i++) for (let c = 0; c < counts[i]; c++) rows.push(i);
      memberState = fitMember(learner, takeRows(Xm, rows), subsetTarget(target, rows), null, rng, ctx.signal);
    }
    members.push({ columns, state: memberState });
    const left = outOfBag(counts);
    if (oob || (soft && t === 0)) {
      const probe = left.length > 0 ? left : Int32Array.of(0);
      const pred = predictMember(learner.algorithm, memberState, takeRows(Xm, probe), target.task);
      if (pred.task === "classification" && !pred.proba) soft = false;
      if (oob && left.length > 0) {
        const out = new Float64Array(left.length * K);
        if (pred.task === "classification") addClassVotes(out, pred, K, 1, !soft);
        else addValues(out, pred, 1);
        oob.add(left, out, false);
      } else if (oob) oob.add(left, new Float64Array(0), false);
    }
    ctx.progress((t + 1) / p.n_estimators);
  }
  return {
    task: target.task,
    classes: target.task === "classification" ? [...target.classes] : [],
    features: X.columns.map((c) => c.name),
    base: learner.algorithm.name,
    soft,
    members,
    oob: oob ? oob.result() : null,
  };
}

function predict(s: BaggingState, X: Frame): Prediction {
  const algorithm = resolveLearner({ algorithm: s.base, params: {} }, s.task).algorithm;
  const aligned = alignColumns(s.features, X);
  const n = X.rowCount;
  const T = s.members.length;
  if (s.task === "regression") {
    const sum = new Float64Array(n);
    for (const m of s.members) addValues(sum, predictMember(algorithm, m.state, pickColumns(aligned, m.columns), "regression"), 1 / T);
    return { task: "regression", values: sum };
  }
  const K = s.classes.length;
  const sum = new Float64Array(n * K);
  for (const m of s.members) addClassVotes(sum, predictMember(algorithm, m.state, pickColumns(aligned, m.columns), "classification"), K, 1, !s.soft);
  return votesToPrediction(sum, n, K);
}

function explain(s: BaggingState) {
  return {
    base: s.base,
    n_estimators: s.members.length,
    combined_by: s.task === "regression" ? "mean" : s.soft ? "averaged probabilities" : "majority vote",
    oob: s.oob,
    features_per_member: s.members.slice(0, 100).map((m) => m.columns.length),
  };
}

export const bagging: Algorithm<BaggingParams, BaggingState> = {
  name: "bagging",
  family: ENSEMBLE_FAMILY,
  tasks: ["classification", "regression"],
  description: "Bagging: any learner fitted on bootstraps of the rows (and optionally of the features); majority vote, averaged probabilities or mean; out-of-bag estimate.",
  params: baggingParams,
  state,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // as sensitive as its members may be (an svm, an mlp): they get standardised inputs; trees are unchanged by it
  fit,
  predict,
  explain,
};
