/**
 * `tsvm` (the book's 13.3, Algorithm 13.2: the transductive SVM of Joachims 1999), two classes:
 *
 *   1. an SVM on the labelled rows (C_l = C) labels the unlabelled rows (ŷ);
 *   2. C_u starts at C_u_initial (≪ C_l); while C_u < C_l: solve the SVM on all rows, labelled
 *      rows with C_l and unlabelled rows with their ŷ and C_u; while an unlabelled pair of
 *      opposite ŷ has slacks ξ_i, ξ_j > 0 with ξ_i + ξ_j > 2, swap their labels and solve
 *      again; then C_u ← min(2·C_u, C_l).
 *
 * The pair swapped is the one with the largest ξ_i + ξ_j (the largest slack of each side,
 * ties the lower row), which exists exactly when some pair qualifies. As in the book the
 * last SVM solved is the model (C_u below C_l at that point, unless C_u_initial ≥ C, when
 * step 1's SVM is) and ŷ the transduction. The SVM is the svm family's C-SVC
 * (../svm/svc-problem.ts) with a bound per row; slacks are ξ = max(0, 1 − y f(x)).
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { throwIfAborted, UnusableInputError, type Algorithm, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { resolveGamma, type KernelSpec } from "../svm/kernel.js";
import { kernelParamsShape, MB } from "../svm/params.js";
import { solveSvc } from "../svm/svc-problem.js";
import { buildModel, checkSupportVectors, decisionValues, supportVectorModelObject, type SupportVectorModel } from "../svm/support-vector-model.js";
import { checkClasses, checkUnique, i32, structural } from "../state-schemas.js";
import { groupDigits } from "../../data/group-digits.js";

/** Label swaps at most over the whole fit: each one is an SVM solve. */
export const MAX_SWAPS = 100_000;

export const tsvmParams = z
  .object({
    ...kernelParamsShape,
    C: kernelParamsShape.C.describe("C_l: the soft-margin penalty of the labelled rows, and the value C_u is raised to."),
    C_u_initial: z.number().min(1e-9).default(0.001).describe("C_u's first value, the penalty of the unlabelled rows (the book's C_u ≪ C_l); doubled after each round until it reaches C, so at least 1e-9 keeps the rounds (log₂ C / C_u_initial) few."),
    max_swaps: z.int().min(0).max(MAX_SWAPS).default(1000).describe(`Label swaps at most over the fit (each is one more SVM solve); at most ${groupDigits(MAX_SWAPS)}.`),
  })
  .strict();
type TsvmParams = z.infer<typeof tsvmParams>;

export const tsvmState = z
  .object({
    features: z.array(z.string()).min(1),
    classes: z.array(z.string()),
    /** f(x) > 0 → the second class. */
    model: supportVectorModelObject,
    /** Class of every training row: its label, or the transduction ŷ. */
    labels: i32,
    labelled_rows: z.int().min(0),
    swaps: z.int().min(0),
    solves: z.int().min(1),
    /** C_u of the last solve (0 when the model is step 1's SVM on the labelled rows). */
    final_C_u: z.number().min(0),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"]) || !checkClasses(s.classes, report, 2)) return;
      if (s.classes.length !== 2) return report(`has ${s.classes.length} classes; tsvm is for two`, ["classes"]);
      if (s.model.n_features !== s.features.length) return report(`the model has ${s.model.n_features} features, not ${s.features.length}`, ["model", "n_features"]);
      if (!checkSupportVectors(s.model, report)) return;
      const bad = s.labels.findIndex((l) => l !== 0 && l !== 1);
      if (bad >= 0) report(`labels[${bad}] is not 0 or 1`, ["labels", bad]);
    }),
  );
type TsvmState = z.infer<typeof tsvmState>;

function fit(train: TrainingSet, params: TsvmParams, ctx: FitContext): TsvmState {
  const target = train.target;
  if (target?.task !== "classification") throw new UnusableInputError("tsvm needs a categorical target (rows without a value are its unlabelled rows)");
  if (target.classes.length !== 2) throw new UnusableInputError(`tsvm is a two-class method; the target has ${target.classes.length} classes`);
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  const X = rowMajor(train.X);
  const y = target.y;
  const labelledRows: number[] = [];
  const unlabelled: number[] = [];
  for (let i = 0; i < n; i++) (y[i] >= 0 ? labelledRows : unlabelled).push(i);
  const ones = labelledRows.filter((i) => y[i] === 1).length;
  if (ones === 0 || ones === labelledRows.length) throw new UnusableInputError("tsvm needs labelled rows of both classes");
  // γ from all rows, labelled or not: the kernel of the final problem.
  const kernel: KernelSpec = { kind: params.kernel, gamma: resolveGamma(params.gamma, X, d), degree: params.degree, coef0: params.coef0 };
  const settings = { tol: params.tol, shrinking: params.shrinking, maxIter: params.max_iter, cacheBytes: params.cache_size * MB, signal: ctx.signal };
  const solve = (rows: readonly number[], labels: Uint8Array, C: Float64Array): SupportVectorModel => {
    const m = rows.length;
    const Xs = new Float64Array(m * d);
    rows.forEach((i, r) => Xs.set(X.subarray(i * d, i * d + d), r * d));
    const sol = solveSvc(Xs, m, d, Uint8Array.from(rows, (i) => labels[i]), Float64Array.from(rows, (i) => C[i]), kernel, settings);
    return buildModel(kernel, Xs, d, sol.support, sol.coef, sol.intercept);
  };

  // Step 1: the SVM of the labelled rows labels the unlabelled ones.
  const label = Uint8Array.from(y, (v) => (v === 1 ? 1 : 0));
  const C = new Float64Array(n).fill(params.C);
  let model = solve(labelledRows, label, C);
  let solves = 1;
  const f0 = decisionValues(model, X, n);
  for (const i of unlabelled) label[i] = f0[i] >= 0 ? 1 : 0;

  let swaps = 0;
  let finalCu = 0;
  const all = Array.from({ length: n }, (_, i) => i);
  if (unlabelled.length > 0) {
    for (let cu = params.C_u_initial; cu < params.C; cu = Math.min(2 * cu, params.C)) {
      throwIfAborted(ctx.signal);
      for (const i of unlabelled) C[i] = cu;
      finalCu = cu;
      model = solve(all, label, C);
      solves++;
      while (swaps < params.max_swaps) {
        const f = decisionValues(model, X, n);
        // The largest slack among the unlabelled rows of each side.
        let best0 = -1;
        let best1 = -1;
        const slack = (i: number) => Math.max(0, 1 - (label[i] === 1 ? f[i] : -f[i]));
        for (const i of unlabelled) {
          const xi = slack(i);
          if (xi <= 0) continue;
          if (label[i] === 1) {
            if (best1 < 0 || xi > slack(best1)) best1 = i;
          } else if (best0 < 0 || xi > slack(best0)) best0 = i;
        }
        if (best0 < 0 || best1 < 0 || slack(best0) + slack(best1) <= 2) break;
        label[best0] = 1;
        label[best1] = 0;
        swaps++;
        throwIfAborted(ctx.signal);
        model = solve(all, label, C);
        solves++;
      }
      ctx.progress(Math.log(cu / params.C_u_initial + 1) / Math.log(params.C / params.C_u_initial + 1));
    }
  }
  return { features, classes: [...target.classes], model, labels: Int32Array.from(label), labelled_rows: labelledRows.length, swaps, solves, final_C_u: finalCu };
}

function predict(s: TsvmState, X: Frame): Prediction {
  const f = decisionValues(s.model, rowMajor(selectColumns(X, s.features)), X.rowCount);
  // f = 0 goes to the second class, as the svm's does.
  return { task: "classification", labels: Int32Array.from(f, (v) => (v >= 0 ? 1 : 0)) };
}

export const tsvm: Algorithm<TsvmParams, TsvmState> = {
  name: "tsvm",
  family: "semi",
  tasks: ["classification"],
  description: "Transductive SVM (two classes): an SVM on the labelled rows labels the rows without a target value, then their penalty C_u is raised step by step to C while pairs of opposite labels with slacks summing over 2 are swapped.",
  params: tsvmParams,
  state: tsvmState,
  accepts: { categorical: false, missing: false, weights: false, unlabelled: true, maxClasses: 2 },
  scaleSensitive: true, // kernels and the margin are distances in input units
  fit,
  predict,
  trainingLabels: (s) => s.labels,
  explain: (s) => ({
    kernel: s.model.kernel,
    support_vectors: s.model.coef.length,
    intercept: s.model.intercept,
    labelled_rows: s.labelled_rows,
    unlabelled_rows: s.labels.length - s.labelled_rows,
    swaps: s.swaps,
    solves: s.solves,
    final_C_u: s.final_C_u,
  }),
};
