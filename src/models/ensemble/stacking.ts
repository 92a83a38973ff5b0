/**
 * stacking (seed 002, 学习法 / Stacking): the members' predictions become the features of
 * a final learner. The meta-features of a training row come from out-of-fold models
 * (`cv` folds, stratified for classes): no row's meta-features are produced by a member
 * that was fitted on it, or the final learner would learn to trust members that merely
 * remember their training rows. The members kept for prediction are refitted on all rows.
 *
 * Meta-features per member: its class probabilities when it gives them (the first class
 * dropped for two classes, being 1 − the other), else its predicted label one-hot;
 * its value for regression. `passthrough` adds the original features beside them.
 * Like voting it lets the pipeline encode and impute for every member.
 */
import { z } from "zod";
import type { Column, Frame } from "../../data/frame.js";
import { takeRows } from "../../data/frame.js";
import type { Rng } from "../../data/random.js";
import type { Algorithm, FitContext, Prediction, Target, TrainingSet } from "../contract.js";
import { throwIfAborted, UnusableInputError } from "../contract.js";
import { checkClasses, i32, structural } from "../state-schemas.js";
import { ensembleSeed, memberRng } from "./bootstrap.js";
import type { Learner } from "./members.js";
import { alignColumns, checkLearner, checkMemberStates, fitMember, predictMember, resolveLearner, subsetTarget } from "./members.js";
import { ENSEMBLE_FAMILY, learnerSpec, MAX_VOTERS } from "./params.js";
import type { LearnerSpec } from "./params.js";

/** Folds for the out-of-fold predictions: each member is fitted cv + 1 times. */
export const MAX_CV = 20;

/** Generator streams (bootstrap.ts memberRng): the folds, member j's fit f (f = cv for the refit on all rows), the final learner. */
const FOLD_STREAM = 0;
const memberStream = (j: number, f: number) => 1 + j * (MAX_CV + 1) + f;
const FINAL_STREAM = memberStream(MAX_VOTERS, 0);

export const stackingParams = z
  .object({
    estimators: z
      .array(learnerSpec)
      .min(1)
      .max(MAX_VOTERS)
      .default([
        { algorithm: "cart", params: { max_depth: 3 } },
        { algorithm: "cart", params: { max_depth: 6 } },
        { algorithm: "cart", params: {} },
      ])
      .describe(`The members, [{ algorithm, params }], at most ${MAX_VOTERS}; default three cart trees of depth 3, 6 and unlimited.`),
    final_estimator: learnerSpec
      .nullable()
      .default(null)
      .describe("The learner fitted on the members' out-of-fold predictions; null: logistic_regression (classification), ridge (regression)."),
    cv: z.int().min(2).max(MAX_CV).default(5).describe(`Folds for the out-of-fold meta-features (stratified for classes). At most ${MAX_CV}: each member is fitted cv + 1 times.`),
    passthrough: z.boolean().default(false).describe("Give the final learner the original features as well."),
  })
  .strict()
  .superRefine((p, ctx) => {
    p.estimators.forEach((e, i) => checkLearner(e, ["estimators", i], ctx));
    if (p.final_estimator) checkLearner(p.final_estimator, ["final_estimator"], ctx);
  });
export type StackingParams = z.infer<typeof stackingParams>;

const stateObject = z
  .object({
    task: z.enum(["classification", "regression"]),
    classes: z.array(z.string()),
    features: z.array(z.string()),
    /** Per member: 0 = probabilities, 1 = one-hot labels, 2 = value. */
    outputs: i32,
    members: z.array(z.object({ algorithm: z.string(), state: z.unknown() }).strict()).min(1).max(MAX_VOTERS),
    final: z.object({ algorithm: z.string(), state: z.unknown() }).strict(),
    passthrough: z.boolean(),
    /** Column names of the final learner's input, in order. */
    meta_features: z.array(z.string()),
  })
  .strict();
export type StackingState = z.infer<typeof stateObject>;

const PROBA = 0;
const LABELS = 1;
const VALUE = 2;

const state = stateObject.superRefine((s, ctx) => {
  structural<StackingState>((st, report) => {
    if (st.task === "classification") checkClasses(st.classes, report);
    if (st.outputs.length !== st.members.length) report("one output kind per member", ["outputs"]);
    for (let j = 0; j < st.outputs.length; j++) if (st.outputs[j] !== (st.task === "regression" ? VALUE : st.outputs[j] === LABELS ? LABELS : PROBA)) report("output kind", ["outputs", j]);
    const width = metaNames(st.outputs, st.classes, st.passthrough ? st.features : []).length;
    if (st.meta_features.length !== width) report("meta_features do not match the members' outputs", ["meta_features"]);
  })(s, ctx);
  s.members.forEach((m, t) => checkMemberStates(m.algorithm, [m.state], ["members", t, "state"], ctx));
  checkMemberStates(s.final.algorithm, [s.final.state], ["final", "state"], ctx);
});

/** Class columns a member contributes: K, or K − 1 for two classes (the first is 1 minus the other). */
function classColumns(K: number): number[] {
  return K === 2 ? [1] : Array.from({ length: K }, (_, k) => k);
}

function metaNames(outputs: Int32Array, classes: readonly string[], passthrough: readonly string[]): string[] {
  const names: string[] = [];
  outputs.forEach((kind, j) => {
    if (kind === VALUE) names.push(`stack_${j}`);
    else for (const k of classColumns(classes.length)) names.push(`stack_${j}_${kind === PROBA ? "p" : "is"}_${classes[k]}`);
  });
  return [...names, ...passthrough];
}

/** Fold per row: a seeded shuffle within each class (or of all rows), dealt round-robin. */
export function stackingFolds(target: Target, cv: number, rng: Rng): Int32Array {
  const n = target.y.length;
  const fold = new Int32Array(n);
  const groups: number[][] = target.task === "classification" ? target.classes.map(() => []) : [[]];
  for (let i = 0; i < n; i++) groups[target.task === "classification" ? target.y[i] : 0].push(i);
  let next = 0;
  for (const g of groups) {
    for (let i = g.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [g[i], g[j]] = [g[j], g[i]];
    }
    for (const r of g) fold[r] = next++ % cv;
  }
  return fold;
}

/** Member j's meta-feature columns for the rows of X (n × width, column-major into `into` at `offset`). */
function metaColumns(pred: Prediction, kind: number, K: number, into: Float64Array[], offset: number, rows: ArrayLike<number> | null): void {
  const n = pred.task === "regression" ? pred.values.length : (pred as { labels: Int32Array }).labels.length;
  for (let r = 0; r < n; r++) {
    const i = rows ? rows[r] : r;
    if (pred.task === "regression") {
      into[offset][i] = pred.values[r];
      continue;
    }
    if (pred.task !== "classification") continue;
    classColumns(K).forEach((k, c) => (into[offset + c][i] = kind === PROBA ? (pred.proba as Float64Array)[r * K + k] : pred.labels[r] === k ? 1 : 0));
  }
}

function kindOf(pred: Prediction): number {
  return pred.task === "regression" ? VALUE : pred.task === "classification" && pred.proba ? PROBA : LABELS;
}

function finalSpec(p: StackingParams, task: "classification" | "regression"): LearnerSpec {
  return p.final_estimator ?? { algorithm: task === "classification" ? "logistic_regression" : "ridge", params: {} };
}

/** The out-of-fold meta-features of the training rows (exported for the no-leakage test). */
export function outOfFold(learners: readonly Learner[], train: TrainingSet, folds: Int32Array, cv: number, seed: number, signal?: FitContext["signal"]): { columns: Float64Array[]; outputs: Int32Array<ArrayBuffer> } {
  const target = train.target as Target;
  const n = train.X.rowCount;
  const K = target.task === "classification" ? target.classes.length : 1;
  const columns: Float64Array[] = [];
  const outputs = new Int32Array(learners.length);
  learners.forEach((learner, j) => {
    const offset = columns.length;
    let kind = -1;
    for (let f = 0; f < cv; f++) {
      throwIfAborted(signal);
      const inside: number[] = [];
      const outside: number[] = [];
      for (let i = 0; i < n; i++) (folds[i] === f ? outside : inside).push(i);
      if (outside.length === 0) continue;
      const weights = train.weights ? Float64Array.from(inside, (r) => (train.weights as Float64Array)[r]) : null;
      const s = fitMember(learner, takeRows(train.X, inside), subsetTarget(target, inside), weights, memberRng(seed, memberStream(j, f)), signal);
      const pred = predictMember(learner.algorithm, s, takeRows(train.X, outside), target.task);
      if (kind < 0) {
        kind = kindOf(pred);
        const width = kind === VALUE ? 1 : classColumns(K).length;
        for (let c = 0; c < width; c++) columns.push(new Float64Array(n));
      } else if (kindOf(pred) !== kind) throw new UnusableInputError(`estimators[${j}] gives probabilities on some folds and not on others`);
      metaColumns(pred, kind, K, columns, offset, outside);
    }
    outputs[j] = kind;
  });
  return { columns, outputs };
}

function metaFrame(names: readonly string[], columns: readonly Float64Array[], X: Frame | null): Frame {
  const meta: Column[] = columns.map((values, c) => ({ type: "numeric", name: names[c], values }));
  return { rowCount: columns[0]?.length ?? X?.rowCount ?? 0, columns: X ? [...meta, ...X.columns] : meta };
}

function fit(train: TrainingSet, p: StackingParams, ctx: FitContext): StackingState {
  const target = train.target;
  if (!target) throw new UnusableInputError("stacking needs a target");
  const n = train.X.rowCount;
  if (n < p.cv) throw new UnusableInputError(`stacking with cv = ${p.cv} needs at least ${p.cv} rows`);
  const learners = p.estimators.map((e) => resolveLearner(e, target.task));
  const final = resolveLearner(finalSpec(p, target.task), target.task);
  const seed = ensembleSeed(ctx.rng);
  const folds = stackingFolds(target, p.cv, memberRng(seed, FOLD_STREAM));
  const { columns, outputs } = outOfFold(learners, train, folds, p.cv, seed, ctx.signal);
  ctx.progress(0.8);
  const classes = target.task === "classification" ? [...target.classes] : [];
  const features = train.X.columns.map((c) => c.name);
  const names = metaNames(outputs, classes, p.passthrough ? features : []);
  if (new Set(names).size !== names.length) throw new UnusableInputError("a feature is named like a stacking meta-feature (stack_…): rename it or turn passthrough off");
  const finalState = fitMember(final, metaFrame(names, columns, p.passthrough ? train.X : null), target, train.weights ?? null, memberRng(seed, FINAL_STREAM), ctx.signal);
  const members = learners.map((learner, j) => ({
    algorithm: learner.algorithm.name,
    state: fitMember(learner, train.X, target, train.weights ?? null, memberRng(seed, memberStream(j, MAX_CV)), ctx.signal),
  }));
  ctx.progress(1);
  return { task: target.task, classes, features, outputs, members, final: { algorithm: final.algorithm.name, state: finalState }, passthrough: p.passthrough, meta_features: names };
}

function predict(s: StackingState, X: Frame): Prediction {
  const n = X.rowCount;
  const aligned = alignColumns(s.features, X);
  const K = s.classes.length || 1;
  const columns: Float64Array[] = [];
  s.members.forEach((m, j) => {
    const learner = resolveLearner({ algorithm: m.algorithm, params: {} }, s.task).algorithm;
    const pred = predictMember(learner, m.state, aligned, s.task);
    const kind = s.outputs[j];
    if (kind === PROBA && pred.task === "classification" && !pred.proba) throw new UnusableInputError(`member ${j} gave no probabilities`);
    const width = kind === VALUE ? 1 : classColumns(K).length;
    const offset = columns.length;
    for (let c = 0; c < width; c++) columns.push(new Float64Array(n));
    metaColumns(pred, kind, K, columns, offset, null);
  });
  const finalLearner = resolveLearner({ algorithm: s.final.algorithm, params: {} }, s.task).algorithm;
  return predictMember(finalLearner, s.final.state, metaFrame(s.meta_features, columns, s.passthrough ? aligned : null), s.task);
}

export const stacking: Algorithm<StackingParams, StackingState> = {
  name: "stacking",
  family: ENSEMBLE_FAMILY,
  tasks: ["classification", "regression"],
  description: "Stacking: a final learner fitted on the members' out-of-fold predictions (probabilities where available), optionally with the original features.",
  params: stackingParams,
  state,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // as sensitive as its members may be (an svm, an mlp): they get standardised inputs; trees are unchanged by it
  fit,
  predict,
  explain: (s) => ({
    members: s.members.map((m, j) => ({ algorithm: m.algorithm, output: ["probabilities", "labels", "value"][s.outputs[j]] })),
    final_estimator: s.final.algorithm,
    meta_features: s.meta_features.slice(0, 1000),
    passthrough: s.passthrough,
  }),
};
