/**
 * The two-class C-SVC as a binary learner for the multiclass wrapper (not
 * registered on its own: `svm` is). Its params arrive resolved by `svm` — γ as a
 * number computed on the full training set and class weights folded into the row
 * weights — so every binary problem of a multiclass fit sees the same kernel and
 * the same per-class C, as libsvm's own one-vs-one does.
 * Probabilities: Platt scaling fitted on decision values from an internal seeded
 * 5-fold cross-validation (libsvm's svm_binary_svc_probability).
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import { permutation, type Rng } from "../../data/random.js";
import { UnusableInputError, throwIfAborted, type FitContext, type TrainingSet } from "../contract.js";
import type { BinaryLearner } from "../multiclass/binary-learner.js";
import { rowMajor } from "../design-matrix.js";
import type { KernelSpec } from "./kernel.js";
import { MB } from "./params.js";
import { fitSigmoid, sigmoidProbability } from "./platt.js";
import { solveSvc, type SmoSettings } from "./svc-problem.js";
import { structural } from "../state-schemas.js";
import { buildModel, checkSupportVectors, decisionValues, kernelSpecSchema, supportVectorModelObject } from "./support-vector-model.js";

export const binarySvcParams = z
  .object({
    kernel: kernelSpecSchema,
    C: z.number().positive(),
    tol: z.number().positive(),
    shrinking: z.boolean(),
    cache_size: z.number().positive(),
    max_iter: z.number().int().positive().nullable(),
    probability: z.boolean(),
  })
  .strict();
export type BinarySvcParams = z.infer<typeof binarySvcParams>;

export const binarySvcState = supportVectorModelObject
  .extend({
    /** Support vectors of class index 0 and class index 1. */
    n_support: z.tuple([z.number().int(), z.number().int()]),
    /** Platt's P(class 1 | f) = 1/(1 + exp(A f + B)); null without probability. */
    sigmoid: z.object({ A: z.number(), B: z.number() }).strict().nullable(),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkSupportVectors(s, report)) return;
      const [a, b] = s.n_support;
      if (a < 0 || b < 0 || a + b !== s.coef.length) report(`n_support ${a} + ${b} is not the ${s.coef.length} support vectors`, ["n_support"]);
    }),
  );
export type BinarySvcState = z.infer<typeof binarySvcState>;

const PROBABILITY_FOLDS = 5;

function settingsOf(params: BinarySvcParams, ctx: Pick<FitContext, "signal">, progress?: (f: number) => void): SmoSettings {
  return { tol: params.tol, shrinking: params.shrinking, maxIter: params.max_iter, cacheBytes: params.cache_size * MB, signal: ctx.signal, progress };
}

/** Decision values of each row when it was held out (the input Platt scaling needs). */
function crossValidatedDecisions(
  X: Float64Array,
  n: number,
  d: number,
  isClass1: Uint8Array,
  C: Float64Array,
  params: BinarySvcParams,
  rng: Rng,
  ctx: FitContext,
  progress: (f: number) => void,
): Float64Array {
  const perm = permutation(n, rng);
  const out = new Float64Array(n);
  for (let fold = 0; fold < PROBABILITY_FOLDS; fold++) {
    throwIfAborted(ctx.signal);
    const begin = Math.floor((fold * n) / PROBABILITY_FOLDS);
    const end = Math.floor(((fold + 1) * n) / PROBABILITY_FOLDS);
    const m = n - (end - begin);
    const Xt = new Float64Array(m * d);
    const yt = new Uint8Array(m);
    const Ct = new Float64Array(m);
    let r = 0;
    let ones = 0;
    for (let t = 0; t < n; t++) {
      if (t >= begin && t < end) continue;
      const i = perm[t];
      Xt.set(X.subarray(i * d, i * d + d), r * d);
      yt[r] = isClass1[i];
      Ct[r] = C[i];
      ones += yt[r];
      r++;
    }
    if (ones === 0 || ones === m) {
      // A fold that saw one class only predicts that class with unit confidence, as libsvm does.
      const v = m === 0 ? 0 : ones === 0 ? -1 : 1;
      for (let t = begin; t < end; t++) out[perm[t]] = v;
    } else {
      const sol = solveSvc(Xt, m, d, yt, Ct, params.kernel as KernelSpec, settingsOf(params, ctx));
      const model = buildModel(params.kernel as KernelSpec, Xt, d, sol.support, sol.coef, sol.intercept);
      const held = new Float64Array((end - begin) * d);
      for (let t = begin; t < end; t++) held.set(X.subarray(perm[t] * d, perm[t] * d + d), (t - begin) * d);
      const dec = decisionValues(model, held, end - begin);
      for (let t = begin; t < end; t++) out[perm[t]] = dec[t - begin];
    }
    progress((fold + 1) / PROBABILITY_FOLDS);
  }
  return out;
}

function fit(train: TrainingSet, params: BinarySvcParams, ctx: FitContext): BinarySvcState {
  const target = train.target;
  if (!target || target.task !== "classification" || target.classes.length !== 2) throw new UnusableInputError("the binary SVC needs a two-class target");
  const n = train.X.rowCount;
  const d = train.X.columns.length;
  const X = rowMajor(train.X);
  const isClass1 = new Uint8Array(n);
  const C = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    isClass1[i] = target.y[i] === 1 ? 1 : 0;
    C[i] = params.C * (train.weights ? train.weights[i] : 1);
  }
  const share = params.probability ? 1 / (1 + PROBABILITY_FOLDS) : 1;
  const kernel = params.kernel as KernelSpec;
  const sol = solveSvc(X, n, d, isClass1, C, kernel, settingsOf(params, ctx, (f) => ctx.progress(f * share)));
  const model = buildModel(kernel, X, d, sol.support, sol.coef, sol.intercept);
  let sigmoid: BinarySvcState["sigmoid"] = null;
  if (params.probability) {
    const dec = crossValidatedDecisions(X, n, d, isClass1, C, params, ctx.rng, ctx, (f) => ctx.progress(share + f * (1 - share)));
    sigmoid = fitSigmoid(dec, isClass1);
  }
  return { ...model, n_support: sol.nSupport, sigmoid };
}

function decision(state: BinarySvcState, X: Frame): Float64Array {
  return decisionValues(state, rowMajor(X), X.rowCount);
}

function probabilityOf(state: BinarySvcState, scores: Float64Array): Float64Array | null {
  const s = state.sigmoid;
  if (!s) return null;
  const out = new Float64Array(scores.length);
  for (let i = 0; i < scores.length; i++) out[i] = sigmoidProbability(scores[i], s);
  return out;
}

export const binarySvc: BinaryLearner<BinarySvcParams, BinarySvcState> = {
  name: "binary_svc",
  family: "svm",
  tasks: ["classification"],
  description: "Two-class C-SVC solved by SMO (used by svm through the multiclass wrapper).",
  params: binarySvcParams,
  state: binarySvcState,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // kernels and the margin are distances in input units
  fit,
  predict(state, X) {
    const f = decision(state, X);
    const n = f.length;
    const labels = new Int32Array(n);
    // f = 0 goes to class 1, as libsvm's vote does.
    for (let i = 0; i < n; i++) labels[i] = f[i] >= 0 ? 1 : 0;
    const p1 = probabilityOf(state, f);
    if (!p1) return { task: "classification", labels };
    const proba = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      proba[2 * i] = 1 - p1[i];
      proba[2 * i + 1] = p1[i];
    }
    return { task: "classification", labels, proba };
  },
  decision,
  probabilityOf,
};
