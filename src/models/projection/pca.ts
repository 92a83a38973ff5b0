/**
 * `pca` (seed 002 特征映射; scikit-learn's PCA): the numeric features projected onto
 * their leading principal components, fitted without a target. The same options and
 * math as the `pca` preprocessing step (pca-core.ts): `n_components` (how many) or
 * `explained_variance` (the fewest components whose cumulative ratio exceeds it),
 * `whiten`. Parity with scikit-learn 1.2 (full SVD): components up to scikit-learn's
 * own svd_flip signs, explained_variance_(ratio_), transform.
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { UnusableInputError, type Algorithm, type TrainingSet } from "../contract.js";
import { numericFeatureNames } from "../design-matrix.js";
import { columnCountParam } from "../limits.js";
import { checkFinite, checkLength, checkUnique, f64, structural } from "../state-schemas.js";
import { componentCount, fitPrincipalComponents, project, whitenOutputs } from "./pca-core.js";
import { BoundedExplanation, featuresField, outputNamesOf, projectionOf, requireUnsupervised } from "./shared.js";

const PREFIX = "pc";

export const pcaParams = z
  .object({
    n_components: columnCountParam("How many components to keep (default: min(rows, features), unless explained_variance is given).", "the features or rows"),
    explained_variance: z.number().gt(0).lt(1).nullable().default(null).describe("Keep the fewest components whose explained-variance ratios add up to more than this share; not with n_components."),
    whiten: z.boolean().default(false).describe("Divide each projection by the square root of its variance (unit-variance outputs)."),
  })
  .strict()
  .refine((s) => s.n_components === null || s.explained_variance === null, {
    message: "give n_components (how many components) or explained_variance (what share of the variance), not both",
    path: ["explained_variance"],
  });
export type PcaParams = z.infer<typeof pcaParams>;

export const pcaState = z
  .object({
    features: featuresField,
    mean: f64,
    /** d × features row-major: component k is row k. */
    components: f64,
    explained_variance: f64,
    explained_variance_ratio: f64,
    whiten: z.boolean(),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      const p = s.features.length;
      const d = s.explained_variance.length;
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      if (d < 1) return report("has no components", ["explained_variance"]);
      if (!checkLength(s.mean, p, "mean", report) || !checkLength(s.components, d * p, "components", report, `${d} components × ${p} features`)) return;
      if (!checkLength(s.explained_variance_ratio, d, "explained_variance_ratio", report)) return;
      if (!checkFinite(s.mean, "mean", report) || !checkFinite(s.components, "components", report)) return;
      if (!checkFinite(s.explained_variance, "explained_variance", report)) return;
      const negative = s.explained_variance.findIndex((v) => v < 0);
      if (negative >= 0) report(`explained_variance[${negative}] is negative`, ["explained_variance", negative]);
    }),
  );
export type PcaState = z.infer<typeof pcaState>;

function fit(train: TrainingSet, params: PcaParams): PcaState {
  requireUnsupervised(train, "pca");
  const features = numericFeatureNames(train.X);
  const columns = features.map((_, j) => (train.X.columns[j] as { values: Float64Array }).values);
  const n = train.X.rowCount;
  const pcs = fitPrincipalComponents(columns, n, (ratios, available) => {
    if (params.n_components !== null && params.n_components > available) {
      throw new UnusableInputError(`pca: n_components = ${params.n_components}, and there are only ${available} (the smaller of rows and features)`);
    }
    return componentCount(params.n_components, params.explained_variance, ratios, available);
  });
  if (pcs.explainedVariance.some((v) => !Number.isFinite(v))) throw new UnusableInputError("pca: the covariance of the features is not finite; rescale them");
  return { features, mean: pcs.mean, components: pcs.components, explained_variance: pcs.explainedVariance, explained_variance_ratio: pcs.explainedVarianceRatio, whiten: params.whiten };
}

function predict(s: PcaState, X: Frame) {
  const columns = selectColumns(X, s.features).columns.map((c) => (c as { values: Float64Array }).values);
  const n = X.rowCount;
  const d = s.explained_variance.length;
  const outputs = Array.from({ length: d }, () => new Float64Array(n));
  project(columns, s.mean, s.components, d, n, outputs);
  if (s.whiten) whitenOutputs(outputs, s.explained_variance);
  return projectionOf(outputs, n);
}

export const pca: Algorithm<PcaParams, PcaState> = {
  name: "pca",
  family: "projection",
  tasks: ["projection"],
  description: "Principal component analysis: the features projected onto their leading principal components (by count or explained-variance share), optionally whitened.",
  params: pcaParams,
  state: pcaState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true, // the components follow the variances, which follow the units
  fit,
  predict,
  outputNames: (s) => outputNamesOf(PREFIX, s.explained_variance.length),
  explain(s, options) {
    const names = outputNamesOf(PREFIX, s.explained_variance.length);
    return new BoundedExplanation(options?.maxValues)
      .set("n_components", names.length)
      .byOutput("explained_variance_ratio", names, s.explained_variance_ratio)
      .byOutput("explained_variance", names, s.explained_variance)
      .matrix("components", names, s.features, s.components).out;
  },
};
