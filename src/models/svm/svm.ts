/**
 * `svm`: the soft-margin support vector classifier (seed 002: margin, dual, SMO,
 * kernels, soft margin). Two classes are solved directly; more go through the
 * generic multiclass wrapper, one-vs-one by default as libsvm does.
 * class_weight keeps scikit-learn's shape (null, "balanced", or { "<class>": w }):
 * class i's rows get C·w_i (times their sample weight), as libsvm's -wi does.
 */
import { z } from "zod";
import { checkUnique, structural } from "../state-schemas.js";
import { selectColumns, type Frame } from "../../data/frame.js";
import { UnusableInputError, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import { multiclassParamsShape } from "../multiclass/params.js";
import { fitMulticlass, multiclassStateSchema, predictMulticlass, type MulticlassState } from "../multiclass/wrapper.js";
import { binarySvc, binarySvcState, type BinarySvcParams, type BinarySvcState } from "./binary-svc.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { explainSvm } from "./explain.js";
import { resolveGamma } from "./kernel.js";
import { kernelParamsShape } from "./params.js";

export const svmParams = z
  .object({
    ...kernelParamsShape,
    class_weight: z
      .union([z.literal("balanced"), z.record(z.string(), z.number().positive())])
      .nullable()
      .default(null),
    /** Platt-scaled probabilities from an internal seeded 5-fold cross-validation (fits 6× the models). */
    probability: z.boolean().default(false),
    ...multiclassParamsShape("ovo"),
  })
  .strict();
export type SvmParams = z.infer<typeof svmParams>;

export const svmState = z
  .object({
    features: z.array(z.string()),
    model: multiclassStateSchema(binarySvcState),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      const i = s.model.models.findIndex((m) => m.n_features !== s.features.length);
      if (i >= 0) report(`binary model ${i} has ${s.model.models[i].n_features} features, the model ${s.features.length}`, ["model", "models", i, "n_features"]);
    }),
  );
export type SvmState = { features: string[]; model: MulticlassState<BinarySvcState> };

function classWeights(params: SvmParams, y: Int32Array, classes: readonly string[]): Float64Array {
  const k = classes.length;
  const w = new Float64Array(k).fill(1);
  const cw = params.class_weight;
  if (cw === "balanced") {
    const counts = new Float64Array(k);
    for (let i = 0; i < y.length; i++) counts[y[i]]++;
    for (let c = 0; c < k; c++) w[c] = y.length / (k * counts[c]);
  } else if (cw !== null) {
    for (const [name, value] of Object.entries(cw)) {
      const c = classes.indexOf(name);
      if (c < 0) throw new UnusableInputError(`class_weight names ${name}, which is not a class of the target`);
      w[c] = value;
    }
  }
  return w;
}

function fit(train: TrainingSet, params: SvmParams, ctx: FitContext): SvmState {
  const target = train.target;
  if (!target || target.task !== "classification") throw new UnusableInputError("svm needs a categorical target (use svr for a numeric one)");
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const gamma = resolveGamma(params.gamma, rowMajor(train.X), d);
  const cw = classWeights(params, target.y, target.classes);
  const n = train.X.rowCount;
  const weights = new Float64Array(n);
  for (let i = 0; i < n; i++) weights[i] = (train.weights ? train.weights[i] : 1) * cw[target.y[i]];
  const binaryParams: BinarySvcParams = {
    kernel: { kind: params.kernel, gamma, degree: params.degree, coef0: params.coef0 },
    C: params.C,
    tol: params.tol,
    shrinking: params.shrinking,
    cache_size: params.cache_size,
    max_iter: params.max_iter,
    probability: params.probability,
  };
  const model = fitMulticlass(binarySvc, { X: train.X, target, weights }, binaryParams, params, ctx);
  return { features, model };
}

export const svm: Algorithm<SvmParams, SvmState> & { decision(state: SvmState, X: Frame): Float64Array } = {
  name: "svm",
  family: "svm",
  tasks: ["classification"],
  description:
    "Support vector machine (C-SVC): SMO with second-order working-set selection, linear/poly/rbf/sigmoid kernels, shrinking, a bounded kernel cache, Platt probabilities; multiclass by one-vs-one (default), one-vs-rest or ECOC.",
  params: svmParams,
  state: svmState,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // kernels and the margin are distances in input units
  fit,
  predict(state, X) {
    return predictMulticlass(binarySvc, state.model, selectColumns(X, state.features));
  },
  /** f(x) of a two-class model (> 0 → the second class); the multiclass wrapper's convention. */
  decision(state, X) {
    if (state.model.classes.length !== 2) throw new Error("decision is defined for two-class svm models only");
    return binarySvc.decision!(state.model.models[0], selectColumns(X, state.features));
  },
  explain: (state, options) => explainSvm(state.features, state.model, options?.maxValues),
};

export type { BinarySvcState };
