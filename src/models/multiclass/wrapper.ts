/**
 * One wrapper for every binary learner: k classes become m binary problems
 * through a code matrix (OvR: k problems, OvO: k(k−1)/2, ECOC: as many columns as
 * the code has), one fitted binary model per problem, and a strategy-specific
 * decoder at predict time. With two classes there is nothing to wrap: one model,
 * whose own predict is used as is.
 *
 * A learner uses it through its `multiclass` params (see params.ts):
 *   state.models = fitMulticlass(binaryLearner, train, binaryParams, options, ctx)
 *   predict      = predictMulticlass(binaryLearner, state.models, X)
 *   state schema = multiclassStateSchema(binaryLearner.state)
 */
import { z } from "zod";
import { takeRows, type Frame } from "../../data/frame.js";
import type { Rng } from "../../data/random.js";
import { UnusableInputError, throwIfAborted, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { binaryOutput, type BinaryLearner } from "./binary-learner.js";
import { exhaustiveCode, oneVsOne, oneVsRest, randomCode, type CodeMatrix } from "./code-matrix.js";
import { DECODERS } from "./decoders.js";
import { checkClasses, structural } from "../state-schemas.js";
import { STRATEGIES, type Decoding, type MulticlassOptions, type Strategy } from "./params.js";

export interface MulticlassState<S> {
  strategy: Strategy;
  classes: string[];
  /** k × m row-major code matrix, entries −1 / 0 / +1 (see code-matrix.ts). */
  code: Int8Array;
  decoding: Decoding;
  /** One binary model per code column. */
  models: S[];
}

export function multiclassStateSchema<S>(model: z.ZodType<S>) {
  return z
    .object({
      strategy: z.enum(STRATEGIES),
      classes: z.array(z.string()).min(2),
      code: z.instanceof(Int8Array),
      decoding: z.enum(["hamming", "euclidean"]),
      models: z.array(model).min(1),
    })
    .strict()
    .superRefine(
      structural((s, report) => {
        const k = s.classes.length;
        const m = s.models.length;
        if (!checkClasses(s.classes, report, 2)) return;
        if (s.code.length !== k * m) return report(`code has ${s.code.length} entries, classes × models is ${k * m}`, ["code"]);
        const expected = k === 2 ? 1 : s.strategy === "ovr" ? k : s.strategy === "ovo" ? (k * (k - 1)) / 2 : m;
        if (m !== expected) return report(`${s.strategy} over ${k} classes has ${expected} binary models, not ${m}`, ["models"]);
        for (let i = 0; i < s.code.length; i++) if (s.code[i] < -1 || s.code[i] > 1) return report("code entries are −1, 0 or +1", ["code", i]);
      }),
    );
}

function codeFor(k: number, options: MulticlassOptions, rng: Rng): CodeMatrix {
  if (k === 2) return { k, m: 1, code: Int8Array.of(-1, 1) };
  switch (options.multiclass) {
    case "ovr":
      return oneVsRest(k);
    case "ovo":
      return oneVsOne(k);
    case "ecoc": {
      if (options.code_matrix === "exhaustive") return exhaustiveCode(k);
      const m = Math.max(Math.ceil(Math.log2(k)), Math.floor(options.code_size * k));
      return randomCode(k, m, rng);
    }
  }
}

function sideName(classes: readonly string[], code: Int8Array, m: number, j: number, sign: number): string {
  const names = classes.filter((_, c) => code[c * m + j] === sign);
  return names.join("|");
}

/** Binary problem j of the code: the rows of classes the column names (±1), relabelled 0 / 1, with the side names as classes. */
function binaryProblem(train: TrainingSet, target: { y: Int32Array; classes: readonly string[] }, code: Int8Array, m: number, j: number): { train: TrainingSet; count: number; positives: number } {
  const k = target.classes.length;
  const n = train.X.rowCount;
  const y = target.y;
  let rows: Int32Array | null = null;
  let seen = 0;
  for (let i = 0; i < n; i++) if (code[y[i] * m + j] !== 0) seen++;
  if (seen < n) {
    rows = new Int32Array(seen);
    let r = 0;
    for (let i = 0; i < n; i++) if (code[y[i] * m + j] !== 0) rows[r++] = i;
  }
  const count = rows ? rows.length : n;
  const yb = new Int32Array(count);
  let positives = 0;
  for (let r = 0; r < count; r++) {
    yb[r] = code[y[rows ? rows[r] : r] * m + j] > 0 ? 1 : 0;
    positives += yb[r];
  }
  const X = rows ? takeRows(train.X, rows) : train.X;
  let weights: Float64Array | undefined;
  if (train.weights) {
    const w = train.weights;
    weights = rows ? Float64Array.from(rows, (i) => w[i]) : w;
  }
  const classes = k === 2 ? [...target.classes] : [sideName(target.classes, code, m, j, -1), sideName(target.classes, code, m, j, 1)];
  return { train: { X, target: { task: "classification", y: yb, classes }, weights }, count, positives };
}

/**
 * partial_fit of every binary model on its problem's share of the new rows (the code matrix stays);
 * a problem none of the rows belongs to keeps its model. The learner must have partialFit.
 */
export function partialFitMulticlass<P, S>(learner: BinaryLearner<P, S>, state: MulticlassState<S>, train: TrainingSet, params: P, ctx: FitContext): MulticlassState<S> {
  const target = train.target;
  if (!target || target.task !== "classification" || target.classes.length !== state.classes.length || target.classes.some((c, k) => c !== state.classes[k])) {
    throw new UnusableInputError(`partial_fit rows must use the model's classes`);
  }
  const m = state.models.length;
  const rngs = Array.from({ length: m }, () => ctx.rng.fork());
  const models = state.models.map((model, j) => {
    throwIfAborted(ctx.signal);
    const problem = binaryProblem(train, target, state.code, m, j);
    if (problem.count === 0) return model;
    return learner.partialFit!(model, problem.train, params, { rng: rngs[j], signal: ctx.signal, progress: () => {} });
  });
  return { ...state, models };
}

export function fitMulticlass<P, S>(
  learner: BinaryLearner<P, S>,
  train: TrainingSet,
  params: P,
  options: MulticlassOptions,
  ctx: FitContext,
): MulticlassState<S> {
  const target = train.target;
  if (!target || target.task !== "classification") throw new UnusableInputError(`${learner.name} needs a categorical target`);
  const k = target.classes.length;
  if (k < 2) throw new UnusableInputError("the target has fewer than two classes");
  const { m, code } = codeFor(k, options, ctx.rng.fork());
  const rngs = Array.from({ length: m }, () => ctx.rng.fork());
  const models: S[] = [];

  for (let j = 0; j < m; j++) {
    throwIfAborted(ctx.signal);
    const problem = binaryProblem(train, target, code, m, j);
    if (problem.positives === 0 || problem.positives === problem.count) {
      throw new UnusableInputError(`binary problem ${j} has rows of one side only; every class needs training rows`);
    }
    const sub: FitContext = {
      rng: rngs[j],
      signal: ctx.signal,
      progress: (f) => ctx.progress((j + Math.min(1, Math.max(0, f))) / m),
    };
    models.push(learner.fit(problem.train, params, sub));
    ctx.progress((j + 1) / m);
  }
  return { strategy: options.multiclass, classes: [...target.classes], code, decoding: options.decoding, models };
}

/** n × m binary scores (and P(positive side) when every model has them). */
export function binaryScores<P, S>(learner: BinaryLearner<P, S>, state: MulticlassState<S>, X: Frame): { scores: Float64Array; positives: Float64Array | null } {
  const n = X.rowCount;
  const m = state.models.length;
  const scores = new Float64Array(n * m);
  let positives: Float64Array | null = new Float64Array(n * m);
  for (let j = 0; j < m; j++) {
    const out = binaryOutput(learner, state.models[j], X);
    for (let i = 0; i < n; i++) scores[i * m + j] = out.score[i];
    if (positives && out.positive) for (let i = 0; i < n; i++) positives[i * m + j] = out.positive[i];
    else positives = null;
  }
  return { scores, positives };
}

export function predictMulticlass<P, S>(learner: BinaryLearner<P, S>, state: MulticlassState<S>, X: Frame): Prediction {
  const k = state.classes.length;
  if (k === 2) return learner.predict(state.models[0], X);
  const { scores, positives } = binaryScores(learner, state, X);
  const decoded = DECODERS[state.strategy]({
    n: X.rowCount,
    k,
    m: state.models.length,
    code: state.code,
    scores,
    positives,
    decoding: state.decoding,
  });
  return { task: "classification", labels: decoded.labels, ...(decoded.proba ? { proba: decoded.proba } : {}) };
}
