/**
 * voting (seed 002, 结合策略: 平均法 / 投票法): different learners fitted on the same
 * rows, combined by hard voting (a weighted count of predicted labels; probabilities
 * are the vote shares), soft voting (weighted average of the members' probabilities,
 * each member must give them) or, for regression, the weighted mean.
 * Like bagging it lets the pipeline encode and impute for all members, and is not
 * scale sensitive by declaration: with svm / mlp members add a `scale` step.
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import { takeRows } from "../../data/frame.js";
import type { Algorithm, FitContext, Prediction, TrainingSet } from "../contract.js";
import { throwIfAborted, UnusableInputError } from "../contract.js";
import { checkClasses, f64, structural } from "../state-schemas.js";
import { ensembleSeed, memberRng } from "./bootstrap.js";
import { addClassVotes, addValues, votesToPrediction } from "./combine.js";
import { checkLearner, checkMemberStates, fitMember, predictMember, resolveLearner } from "./members.js";
import { ENSEMBLE_FAMILY, learnerSpec, MAX_VOTERS } from "./params.js";

/** Relative weights: their ratios matter, and a ratio beyond this makes one member the whole vote. */
const MAX_VOTE_WEIGHT = 1e6;

export const votingParams = z
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
    voting: z.enum(["hard", "soft"]).default("hard").describe("Classification: hard counts predicted labels, soft averages probabilities (every member must give them)."),
    weights: z
      .array(z.number().min(0).max(MAX_VOTE_WEIGHT))
      .max(MAX_VOTERS)
      .nullable()
      .default(null)
      .describe(`One non-negative weight per member (null: equal); each at most ${MAX_VOTE_WEIGHT.toExponential()}.`),
  })
  .strict()
  .superRefine((p, ctx) => {
    p.estimators.forEach((e, i) => checkLearner(e, ["estimators", i], ctx));
    if (p.weights !== null) {
      if (p.weights.length !== p.estimators.length) ctx.addIssue({ code: "custom", path: ["weights"], message: `${p.weights.length} weights for ${p.estimators.length} estimators` });
      else if (!p.weights.some((w) => w > 0)) ctx.addIssue({ code: "custom", path: ["weights"], message: "at least one weight must be positive" });
    }
  });
export type VotingParams = z.infer<typeof votingParams>;

const stateObject = z
  .object({
    task: z.enum(["classification", "regression"]),
    classes: z.array(z.string()),
    voting: z.enum(["hard", "soft"]),
    weights: f64,
    members: z.array(z.object({ algorithm: z.string(), state: z.unknown() }).strict()).min(1).max(MAX_VOTERS),
  })
  .strict();
export type VotingState = z.infer<typeof stateObject>;

const state = stateObject.superRefine((s, ctx) => {
  structural<VotingState>((st, report) => {
    if (st.task === "classification") checkClasses(st.classes, report);
    if (st.weights.length !== st.members.length) report("one weight per member", ["weights"]);
    for (let t = 0; t < st.weights.length; t++) if (!(st.weights[t] >= 0 && Number.isFinite(st.weights[t]))) report(`weights[${t}] must be finite and non-negative`, ["weights", t], true);
    if (!st.weights.some((w) => w > 0)) report("at least one weight must be positive", ["weights"]);
  })(s, ctx);
  s.members.forEach((m, t) => checkMemberStates(m.algorithm, [m.state], ["members", t, "state"], ctx));
});

function fit(train: TrainingSet, p: VotingParams, ctx: FitContext): VotingState {
  const target = train.target;
  if (!target) throw new UnusableInputError("voting needs a target");
  const seed = ensembleSeed(ctx.rng);
  const members: VotingState["members"] = [];
  p.estimators.forEach((spec, t) => {
    throwIfAborted(ctx.signal);
    const learner = resolveLearner(spec, target.task);
    const memberState = fitMember(learner, train.X, target, train.weights ?? null, memberRng(seed, t), ctx.signal);
    if (target.task === "classification" && p.voting === "soft") {
      const probe = predictMember(learner.algorithm, memberState, takeRows(train.X, [0]), "classification");
      if (probe.task === "classification" && !probe.proba) throw new UnusableInputError(`soft voting needs probabilities and estimators[${t}] (${spec.algorithm}) gives none: use hard voting`);
    }
    members.push({ algorithm: learner.algorithm.name, state: memberState });
    ctx.progress((t + 1) / p.estimators.length);
  });
  return {
    task: target.task,
    classes: target.task === "classification" ? [...target.classes] : [],
    voting: p.voting,
    weights: Float64Array.from(p.weights ?? p.estimators.map(() => 1)),
    members,
  };
}

function predict(s: VotingState, X: Frame): Prediction {
  const n = X.rowCount;
  let total = 0;
  for (const w of s.weights) total += w;
  const learnerOf = (name: string) => resolveLearner({ algorithm: name, params: {} }, s.task).algorithm;
  if (s.task === "regression") {
    const sum = new Float64Array(n);
    s.members.forEach((m, t) => addValues(sum, predictMember(learnerOf(m.algorithm), m.state, X, "regression"), s.weights[t] / total));
    return { task: "regression", values: sum };
  }
  const K = s.classes.length;
  const sum = new Float64Array(n * K);
  s.members.forEach((m, t) => {
    const pred = predictMember(learnerOf(m.algorithm), m.state, X, "classification");
    if (s.voting === "soft" && pred.task === "classification" && !pred.proba) throw new UnusableInputError(`member ${t} gives no probabilities for soft voting`);
    addClassVotes(sum, pred, K, s.weights[t], s.voting === "hard");
  });
  return votesToPrediction(sum, n, K);
}

export const voting: Algorithm<VotingParams, VotingState> = {
  name: "voting",
  family: ENSEMBLE_FAMILY,
  tasks: ["classification", "regression"],
  description: "Voting: different learners on the same rows; hard (label votes), soft (averaged probabilities) or weighted voting; weighted mean for regression.",
  params: votingParams,
  state,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // as sensitive as its members may be (an svm, an mlp): they get standardised inputs; trees are unchanged by it
  fit,
  predict,
  explain: (s) => ({
    voting: s.task === "regression" ? "weighted mean" : s.voting,
    members: s.members.map((m, t) => ({ algorithm: m.algorithm, weight: s.weights[t] })),
  }),
};
