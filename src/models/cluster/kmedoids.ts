/**
 * `kmedoids` (seed 002: k-medoids, PAM): k training rows as cluster centres (medoids) that
 * minimise the sum of Euclidean distances from every row to its nearest medoid (pam.ts:
 * BUILD + SWAP; deterministic, no seed involved). Cluster c is the c-th medoid BUILD chose
 * (a swap keeps the position). New rows join the nearest medoid (ties: the lowest cluster).
 * The full distance matrix limits a fit to KMEDOIDS_MAX_ROWS rows (limits.ts).
 */
import { z } from "zod";
import { UnusableInputError, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { explainCentroids, medoidState, predictNearestCentre, sizesOf, type MedoidState } from "./centroid-model.js";
import { centresAtRows } from "./kmeans-engine.js";
import { KMEDOIDS_MAX_ROWS } from "./limits.js";
import { distanceMatrix, pam } from "./pam.js";
import { maxIterParam, nClustersParam } from "./params.js";
import { checkClusterCount } from "./seeding.js";

export const kmedoidsParams = z
  .object({
    n_clusters: nClustersParam(),
    max_iter: maxIterParam(300, "SWAP steps (each applies the best exchange of a medoid for a non-medoid) at most."),
  })
  .strict();
export type KmedoidsParams = z.infer<typeof kmedoidsParams>;

function fit(train: TrainingSet, params: KmedoidsParams, ctx: FitContext): MedoidState {
  if (train.target) throw new UnusableInputError("kmedoids is unsupervised: train it without a target");
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  const k = params.n_clusters;
  checkClusterCount(n, k);
  if (n > KMEDOIDS_MAX_ROWS) throw new UnusableInputError(`kmedoids keeps an n × n distance matrix and accepts at most ${KMEDOIDS_MAX_ROWS.toLocaleString("en")} rows (this fit has ${n.toLocaleString("en")}); sample the rows or use kmeans`);
  const X = rowMajor(train.X);
  const result = pam(distanceMatrix(X, n, d, ctx.signal), n, k, params.max_iter, ctx.signal);
  ctx.progress(1);
  return {
    features,
    centres: centresAtRows(X, d, Array.from(result.medoids)),
    sizes: sizesOf(result.labels, k),
    labels: result.labels,
    inertia: result.cost,
    n_iter: result.swaps,
    medoid_rows: result.medoids,
  };
}

export const kmedoids: Algorithm<KmedoidsParams, MedoidState> = {
  name: "kmedoids",
  family: "cluster",
  tasks: ["clustering"],
  description: "k-medoids by PAM (BUILD + SWAP) on Euclidean distances: k training rows as centres minimising the summed distance; new rows join the nearest medoid.",
  params: kmedoidsParams,
  state: medoidState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true,
  fit,
  predict: predictNearestCentre,
  trainingLabels: (s) => s.labels,
  explain: (s, options) => ({ ...explainCentroids(s, options?.maxValues), medoid_rows: Array.from(s.medoid_rows.subarray(0, Math.min(s.medoid_rows.length, options?.maxValues ?? 1000))), cost: s.inertia }),
};
