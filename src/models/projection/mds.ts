/**
 * `mds` (seed 002 低维嵌入): classical (Torgerson) multidimensional scaling of the
 * training rows' Euclidean distances, as the `mds` preprocessing step does
 * (classical-mds.ts): the top eigenpairs of the double-centred squared distances; any
 * row, training or new, placed by Gower's out-of-sample formula. At most `max_landmarks`
 * training rows (drawn with the seed when there are more) carry the embedding.
 *
 * Not scikit-learn's MDS (SMACOF stress minimisation, no transform): the fixtures check
 * it against classical MDS computed with numpy, up to the sign of each coordinate.
 */
import { z } from "zod";
import { permutation } from "../../data/random.js";
import type { Frame } from "../../data/frame.js";
import { UnusableInputError, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { checkFinite, checkLength, checkUnique, f64, structural } from "../state-schemas.js";
import { classicalScaling, placeRows, squaredDistances } from "./classical-mds.js";
import { MDS_MAX_LANDMARKS } from "./limits.js";
import { BoundedExplanation, featureRows, featuresField, outputNamesOf, projectionOf, requireUnsupervised } from "./shared.js";

const PREFIX = "mds";

export const mdsParams = z
  .object({
    n_components: z
      .number()
      .int()
      .min(1)
      .max(MDS_MAX_LANDMARKS - 1)
      .default(2)
      .describe(`Output coordinates; m landmarks give at most m − 1, so at most max_landmarks − 1 (≤ ${MDS_MAX_LANDMARKS - 1}).`),
    max_landmarks: z
      .number()
      .int()
      .min(2)
      .max(MDS_MAX_LANDMARKS)
      .default(500)
      .describe(`Training rows that carry the embedding (drawn with the seed when there are more). At most ${MDS_MAX_LANDMARKS}: their squared distances are eigendecomposed densely.`),
  })
  .strict()
  .refine((s) => s.n_components < s.max_landmarks, { message: "n_components must be below max_landmarks: m landmarks give at most m − 1 dimensions", path: ["n_components"] });
export type MdsParams = z.infer<typeof mdsParams>;

export const mdsState = z
  .object({
    features: featuresField,
    /** m × features row-major. */
    landmarks: f64,
    /** δ̄: mean squared distance from each landmark to the others (m). */
    mean_sq_distance: f64,
    /** d × m row-major: ½ Λ^{−1/2} Vᵀ. */
    projection: f64,
    eigenvalues: f64,
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      const p = s.features.length;
      const m = s.mean_sq_distance.length;
      const d = s.eigenvalues.length;
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      if (m < 2 || d < 1) return report(`has ${m} landmarks and ${d} coordinates; needs at least 2 and 1`, ["eigenvalues"]);
      if (!checkLength(s.landmarks, m * p, "landmarks", report, `${m} landmarks × ${p} features`) || !checkLength(s.projection, d * m, "projection", report, `${d} × ${m}`)) return;
      for (const key of ["landmarks", "mean_sq_distance", "projection", "eigenvalues"] as const) if (!checkFinite(s[key], key, report)) return;
    }),
  );
export type MdsState = z.infer<typeof mdsState>;

function fit(train: TrainingSet, params: MdsParams, ctx: FitContext): MdsState {
  requireUnsupervised(train, "mds");
  const features = numericFeatureNames(train.X);
  const n = train.X.rowCount;
  const p = features.length;
  const X = rowMajor(train.X);
  const rows = n <= params.max_landmarks ? Int32Array.from({ length: n }, (_, i) => i) : permutation(n, ctx.rng).subarray(0, params.max_landmarks).sort();
  const m = rows.length;
  const d = params.n_components;
  if (d > m - 1) throw new UnusableInputError(`mds: n_components = ${d}, and ${m} rows give at most ${m - 1} dimensions`);
  const landmarks = new Float64Array(m * p);
  for (let l = 0; l < m; l++) landmarks.set(X.subarray(rows[l] * p, (rows[l] + 1) * p), l * p);
  const scaling = classicalScaling(squaredDistances(landmarks, m, landmarks, m, p), m, d);
  ctx.progress(1);
  return { features, landmarks, mean_sq_distance: scaling.meanSqDistance, projection: scaling.projection, eigenvalues: scaling.eigenvalues };
}

function predict(s: MdsState, X: Frame) {
  const n = X.rowCount;
  const outputs = Array.from({ length: s.eigenvalues.length }, () => new Float64Array(n));
  placeRows(featureRows(X, s.features), n, s.features.length, s.landmarks, { meanSqDistance: s.mean_sq_distance, projection: s.projection }, outputs);
  return projectionOf(outputs, n);
}

export const mds: Algorithm<MdsParams, MdsState> = {
  name: "mds",
  family: "projection",
  tasks: ["projection"],
  description: "Classical (Torgerson) multidimensional scaling: coordinates that keep the Euclidean distances between rows; new rows by Gower's out-of-sample formula; landmark rows above max_landmarks.",
  params: mdsParams,
  state: mdsState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true, // Euclidean distances in input units
  fit,
  predict,
  outputNames: (s) => outputNamesOf(PREFIX, s.eigenvalues.length),
  explain(s, options) {
    const names = outputNamesOf(PREFIX, s.eigenvalues.length);
    return new BoundedExplanation(options?.maxValues).set("method", "classical").set("landmarks", s.mean_sq_distance.length).byOutput("eigenvalues", names, s.eigenvalues).out;
  },
};
