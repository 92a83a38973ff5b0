/**
 * `svr`: ε-support vector regression (seed 002): only residuals outside the ε tube
 * cost, linearly, and the fit is a kernel expansion over the rows on or outside it.
 */
import { z } from "zod";
import { checkUnique, structural } from "../state-schemas.js";
import { selectColumns } from "../../data/frame.js";
import { UnusableInputError, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { resolveGamma, type KernelSpec } from "./kernel.js";
import { MB, kernelParamsShape } from "./params.js";
import { buildModel, decisionValues, supportVectorModelSchema, type SupportVectorModel } from "./support-vector-model.js";
import { solveSvr } from "./svr-problem.js";
import { boundedCoefficients } from "./explain.js";
import { ValueBudget, maxValuesOf } from "../explain-bounds.js";

export const svrParams = z
  .object({
    ...kernelParamsShape,
    /** Half-width of the tube within which residuals cost nothing. */
    epsilon: z.number().nonnegative().default(0.1),
  })
  .strict();
export type SvrParams = z.infer<typeof svrParams>;

export const svrState = z
  .object({ features: z.array(z.string()), model: supportVectorModelSchema })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      if (s.model.n_features !== s.features.length) report(`the model has ${s.model.n_features} features, the state lists ${s.features.length}`, ["model", "n_features"]);
    }),
  );
export type SvrState = { features: string[]; model: SupportVectorModel };

function fit(train: TrainingSet, params: SvrParams, ctx: FitContext): SvrState {
  const target = train.target;
  if (!target || target.task !== "regression") throw new UnusableInputError("svr needs a numeric target (use svm for a categorical one)");
  const features = numericFeatureNames(train.X);
  const n = train.X.rowCount;
  const d = features.length;
  const X = rowMajor(train.X);
  const kernel: KernelSpec = { kind: params.kernel, gamma: resolveGamma(params.gamma, X, d), degree: params.degree, coef0: params.coef0 };
  const C = new Float64Array(n);
  for (let i = 0; i < n; i++) C[i] = params.C * (train.weights ? train.weights[i] : 1);
  const sol = solveSvr(X, n, d, target.y, C, params.epsilon, kernel, {
    tol: params.tol,
    shrinking: params.shrinking,
    maxIter: params.max_iter,
    cacheBytes: params.cache_size * MB,
    signal: ctx.signal,
    progress: (f) => ctx.progress(f),
  });
  return { features, model: buildModel(kernel, X, d, sol.support, sol.coef, sol.intercept) };
}

export const svr: Algorithm<SvrParams, SvrState> = {
  name: "svr",
  family: "svm",
  tasks: ["regression"],
  description: "ε-support vector regression solved by SMO (libsvm's formulation), linear/poly/rbf/sigmoid kernels.",
  params: svrParams,
  state: svrState,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // kernels and the margin are distances in input units
  fit,
  predict(state, X) {
    const frame = selectColumns(X, state.features);
    return { task: "regression", values: decisionValues(state.model, rowMajor(frame), frame.rowCount) };
  },
  explain(state, options) {
    const m = state.model;
    return {
      kernel: m.kernel,
      n_support: m.coef.length,
      intercept: m.intercept,
      ...boundedCoefficients(m, state.features, new ValueBudget(maxValuesOf(options?.maxValues))),
    };
  },
};
