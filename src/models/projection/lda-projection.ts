/**
 * `lda_projection` (seed 004, watermelon book §3.4; scikit-learn's
 * LinearDiscriminantAnalysis.transform): the features projected onto the linear
 * discriminant directions of the training classes — at most K − 1 for K classes.
 * The `lda` classifier's fit (models/linear/lda.ts), as the lda_projection
 * preprocessing step calls it; the model keeps what projecting needs, the centre x̄
 * and the p × d scalings, and answers (x − x̄) · scalings (linear-map.ts, the step's
 * code). Parity with scikit-learn 1.2 up to the sign of each direction.
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { UnusableInputError, type Algorithm, type TrainingSet } from "../contract.js";
import { columnCountParam } from "../limits.js";
import { fitLda, ldaParams } from "../linear/lda.js";
import { checkFinite, checkLength, checkUnique, f64, structural } from "../state-schemas.js";
import { projectCentred } from "./linear-map.js";
import { BoundedExplanation, classesAndColumns, featuresField, outputNamesOf, projectionOf } from "./shared.js";

const NAME = "lda_projection";
const PREFIX = "ld";

/** The options the lda_projection step and model share (the step adds columns and prefix). */
export const ldaProjectionOptionsShape = {
  n_components: columnCountParam("Discriminant directions kept; null: min(K − 1, columns).", "K − 1 or the columns"),
  shrinkage: z.number().min(0).max(1).nullable().default(null).describe("Shrinkage of the within-class covariance towards a scaled identity, in [0, 1]; null: none."),
};

export const ldaProjectionParams = z.object(ldaProjectionOptionsShape).strict();
export type LdaProjectionParams = z.infer<typeof ldaProjectionParams>;

export const ldaProjectionState = z
  .object({
    features: featuresField,
    classes: z.array(z.string()).min(2),
    xbar: f64,
    /** features × n_components row-major: projection = (x − x̄) · scalings. */
    scalings: f64,
    explained_variance_ratio: f64,
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      const p = s.features.length;
      const d = s.explained_variance_ratio.length;
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      if (d < 1 || d > Math.min(p, s.classes.length - 1)) return report(`has ${d} directions; needs 1 to min(features, classes − 1) = ${Math.min(p, s.classes.length - 1)}`, ["explained_variance_ratio"]);
      if (!checkLength(s.xbar, p, "xbar", report) || !checkLength(s.scalings, p * d, "scalings", report, `${p} features × ${d} directions`)) return;
      if (!checkFinite(s.xbar, "xbar", report) || !checkFinite(s.scalings, "scalings", report)) return;
      checkFinite(s.explained_variance_ratio, "explained_variance_ratio", report);
    }),
  );
export type LdaProjectionState = z.infer<typeof ldaProjectionState>;

function fit(train: TrainingSet, params: LdaProjectionParams): LdaProjectionState {
  const { features, classes } = classesAndColumns(train, NAME);
  const K = classes.length;
  if (params.n_components !== null && params.n_components > K - 1) {
    throw new UnusableInputError(`${NAME}: n_components = ${params.n_components}, and ${K} classes give at most ${K - 1} discriminant directions`);
  }
  if (params.n_components !== null && params.n_components > features.length) {
    throw new UnusableInputError(`${NAME}: n_components = ${params.n_components}, and there are only ${features.length} numeric features`);
  }
  const X = selectColumns(train.X, features);
  const state = fitLda(X, (train.target as { y: Int32Array }).y, classes, ldaParams.parse({ n_components: params.n_components, shrinkage: params.shrinkage }));
  if (state.n_components < 1) throw new UnusableInputError(`${NAME}: the classes' means do not differ in any direction the features span; there is nothing to project onto`);
  return { features, classes: [...classes], xbar: state.xbar, scalings: state.scalings, explained_variance_ratio: state.explained_variance_ratio };
}

function predict(s: LdaProjectionState, X: Frame) {
  const columns = selectColumns(X, s.features).columns.map((c) => (c as { values: Float64Array }).values);
  return projectionOf(projectCentred(columns, s.xbar, s.scalings, s.explained_variance_ratio.length, X.rowCount, "by_input"), X.rowCount);
}

export const ldaProjection: Algorithm<LdaProjectionParams, LdaProjectionState> = {
  name: NAME,
  family: "projection",
  tasks: ["projection"],
  description: "Linear discriminant projection (supervised, needs a categorical target): the features onto at most K − 1 directions that separate the K classes best.",
  params: ldaProjectionParams,
  state: ldaProjectionState,
  accepts: { categorical: false, missing: false, weights: false, classes: true },
  scaleSensitive: false, // the discriminant directions rescale with the units; the projections do not change
  fit,
  predict,
  outputNames: (s) => outputNamesOf(PREFIX, s.explained_variance_ratio.length),
  explain(s, options) {
    const names = outputNamesOf(PREFIX, s.explained_variance_ratio.length);
    const d = names.length;
    // The scalings are stored features × directions; explained by direction, as pca's components.
    const byDirection = Float64Array.from({ length: d * s.features.length }, (_, i) => s.scalings[(i % s.features.length) * d + Math.floor(i / s.features.length)]);
    return new BoundedExplanation(options?.maxValues)
      .set("n_components", d)
      .set("classes", s.classes)
      .byOutput("explained_variance_ratio", names, s.explained_variance_ratio)
      .matrix("scalings", names, s.features, byDirection).out;
  },
};
