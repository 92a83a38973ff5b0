/**
 * `kmedoids` (seed 002: k-medoids, PAM): k training rows as cluster centres (medoids) that
 * minimise the sum of distances (`metric`, Euclidean by default) from every row to its nearest medoid (pam.ts:
 * BUILD + SWAP; deterministic, no seed involved). Cluster c is the c-th medoid BUILD chose
 * (a swap keeps the position). New rows join the nearest medoid under the same metric (ties: the lowest cluster).
 * The full distance matrix limits a fit to KMEDOIDS_MAX_ROWS rows (limits.ts).
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { UnusableInputError, type Algorithm, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { explainCentroids, medoidState, sizesOf, type MedoidState } from "./centroid-model.js";
import { centresAtRows } from "./kmeans-engine.js";
import { KMEDOIDS_MAX_ROWS } from "./limits.js";
import { distanceMatrix, pam } from "./pam.js";
import { maxIterParam, metricFields, nClustersParam, rowMetricOf } from "./params.js";
import { checkClusterCount } from "./seeding.js";
import { groupDigits } from "../../data/group-digits.js";

export const kmedoidsParams = z
  .object({
    n_clusters: nClustersParam(),
    max_iter: maxIterParam(300, "SWAP steps (each applies the best exchange of a medoid for a non-medoid) at most."),
    ...metricFields,
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
  if (n > KMEDOIDS_MAX_ROWS) throw new UnusableInputError(`kmedoids keeps an n × n distance matrix and accepts at most ${groupDigits(KMEDOIDS_MAX_ROWS)} rows (this fit has ${groupDigits(n)}); sample the rows or use kmeans`);
  const X = rowMajor(train.X);
  const result = pam(distanceMatrix(X, n, d, ctx.signal, rowMetricOf(params)), n, k, params.max_iter, ctx.signal);
  ctx.progress(1);
  return {
    features,
    centres: centresAtRows(X, d, Array.from(result.medoids)),
    sizes: sizesOf(result.labels, k),
    labels: result.labels,
    inertia: result.cost,
    n_iter: result.swaps,
    medoid_rows: result.medoids,
    metric: params.metric,
    p: params.p,
  };
}

/** The nearest medoid under the fitted metric (reduced distances; ties: the lowest cluster). */
function predict(s: MedoidState, X: Frame): Prediction {
  const d = s.features.length;
  const k = s.sizes.length;
  const M = rowMajor(selectColumns(X, s.features));
  const metric = rowMetricOf(s);
  const labels = new Int32Array(X.rowCount);
  for (let i = 0; i < labels.length; i++) {
    let best = 0;
    let bestD = Infinity;
    for (let c = 0; c < k; c++) {
      const dd = metric.reduced(M, i, s.centres, c, d);
      if (dd < bestD) {
        bestD = dd;
        best = c;
      }
    }
    labels[i] = best;
  }
  return { task: "clustering", labels };
}

export const kmedoids: Algorithm<KmedoidsParams, MedoidState> = {
  name: "kmedoids",
  family: "cluster",
  tasks: ["clustering"],
  description: "k-medoids by PAM (BUILD + SWAP) on distances under `metric` (Euclidean by default): k training rows as centres minimising the summed distance; new rows join the nearest medoid.",
  params: kmedoidsParams,
  state: medoidState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true,
  fit,
  predict,
  trainingLabels: (s) => s.labels,
  explain: (s, options) => ({ ...explainCentroids(s, options?.maxValues), medoid_rows: Array.from(s.medoid_rows.subarray(0, Math.min(s.medoid_rows.length, options?.maxValues ?? 1000))), cost: s.inertia, metric: s.metric }),
};
