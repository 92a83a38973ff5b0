/**
 * `kmeans` (seed 002 聚类: k-means, k-means++): Lloyd's algorithm with scikit-learn's
 * stopping rule and initialisations (kmeans-engine.ts). Cluster c is the one grown from
 * the c-th initial centre (for explicit rows, the c-th row listed), as scikit-learn numbers them.
 * Of n_init restarts the one with the lowest SSE is kept (ties: the earliest).
 */
import { z } from "zod";
import { UnusableInputError, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import type { Frame } from "../../data/frame.js";
import { numericFeatureNames, rowMajor, throwIfMissing } from "../design-matrix.js";
import { centroidState, explainCentroids, predictNearestCentre, sizesOf, type CentroidState } from "./centroid-model.js";
import { absoluteTolerance, lloyd, plusPlusTrials, type LloydResult, type Rows } from "./kmeans-engine.js";
import { kmeansInitSchema, maxIterParam, nClustersParam, nInitParam, restarts, type KmeansInit } from "./params.js";
import { checkClusterCount, initialCentres } from "./seeding.js";
import { RowDistances, SIMD_MIN_ROWS } from "./simd-distances.js";

export const kmeansParams = z
  .object({
    n_clusters: nClustersParam(),
    init: kmeansInitSchema,
    n_init: nInitParam,
    max_iter: maxIterParam(300, "Lloyd iterations per restart."),
    tol: z.number().min(0).default(1e-4).describe("Stop when the summed squared shift of the centres is at most tol × the mean per-feature variance of the training rows (scikit-learn's rule), or when no label changes."),
  })
  .strict();
export type KmeansParams = z.infer<typeof kmeansParams>;

function fit(train: TrainingSet, params: KmeansParams, ctx: FitContext): CentroidState {
  if (train.target) throw new UnusableInputError("kmeans is unsupervised: train it without a target");
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  const k = params.n_clusters;
  checkClusterCount(n, k);
  const X = trainingRows(train.X, n, k, params.init);
  const tol = absoluteTolerance(X, n, d, params.tol);
  const runs = restarts(params.n_init, params.init);
  let best: LloydResult | undefined;
  for (let r = 0; r < runs; r++) {
    const init = initialCentres(X, n, d, k, params.init, ctx.rng, ctx.signal);
    const result = lloyd(X, n, d, init, k, { maxIter: params.max_iter, tol, signal: ctx.signal });
    if (!best || result.inertia < best.inertia) best = result;
    ctx.progress((r + 1) / runs);
  }
  const b = best!;
  return { features, centres: b.centres, sizes: sizesOf(b.labels, k), labels: b.labels, inertia: b.inertia, n_iter: b.nIter };
}

/**
 * From SIMD_MIN_ROWS rows the whole fit runs on the kernel (simd-distances.ts), so its copy of the rows is made straight
 * from the frame's columns, with the columns' sums for the tolerance: no row-major matrix at all. Otherwise row-major.
 */
function trainingRows(frame: Frame, n: number, k: number, init: KmeansInit): Rows {
  const plusPlus = init.kind === "k-means++";
  const trials = plusPlus ? plusPlusTrials(k) : 0;
  const columns = frame.columns.map((c) => (c.type === "numeric" ? c.values : new Float64Array(0)));
  const kernel = n >= SIMD_MIN_ROWS ? RowDistances.fromColumns(columns, n, Math.max(k, trials), trials) : null;
  if (!kernel) return rowMajor(frame);
  // A column's sum is NaN when it holds a missing value (or +∞ and −∞ both): then look, as rowMajor does.
  if (kernel.columnSums!.some(Number.isNaN)) throwIfMissing(frame);
  return kernel;
}

export const kmeans: Algorithm<KmeansParams, CentroidState> = {
  name: "kmeans",
  family: "cluster",
  tasks: ["clustering"],
  description: "k-means (Lloyd) with k-means++, random or explicit-row initialisation and seeded restarts; new rows join the nearest centre.",
  params: kmeansParams,
  state: centroidState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true, // Euclidean distances in input units
  fit,
  predict: predictNearestCentre,
  trainingLabels: (s) => s.labels,
  explain: (s, options) => explainCentroids(s, options?.maxValues),
};
