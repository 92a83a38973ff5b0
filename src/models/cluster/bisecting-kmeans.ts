/**
 * `bisecting_kmeans` (seed 002: 二分 k-means): start with one cluster holding every row;
 * until there are n_clusters, split the cluster with the largest SSE (or, with
 * bisecting_strategy "largest_cluster", the most rows) by 2-means, keeping the best of
 * n_init trial splits (lowest SSE of the two halves). As scikit-learn's BisectingKMeans,
 * the tolerance is computed once on all rows.
 *
 * Numbering: the first cluster is 0; a split cluster c keeps index c for the half grown
 * from its first trial centre, and the other half takes the next free index. Training rows
 * keep the cluster the splits gave them; new rows join the nearest final centre.
 */
import { z } from "zod";
import { UnusableInputError, throwIfAborted, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { centroidState, explainCentroids, predictNearestCentre, sizesOf, type CentroidState } from "./centroid-model.js";
import { absoluteTolerance, centresAtRows, lloyd, type LloydResult } from "./kmeans-engine.js";
import { MAX_N_INIT, maxIterParam, nClustersParam } from "./params.js";
import { checkClusterCount, initialRows } from "./seeding.js";

export const bisectingKmeansParams = z
  .object({
    n_clusters: nClustersParam(),
    init: z
      .enum(["random", "k-means++"])
      .default("random")
      .describe("How each 2-means split starts: two distinct rows of the cluster drawn uniformly (scikit-learn's default), or k-means++ on the cluster."),
    n_init: z.int().min(1).max(MAX_N_INIT).default(1).describe(`Trial splits per bisection (seeded); the one with the lowest SSE is kept. At most ${MAX_N_INIT}.`),
    max_iter: maxIterParam(300, "Lloyd iterations per trial split."),
    tol: z.number().min(0).default(1e-4).describe("Lloyd's tolerance, relative to the mean per-feature variance of all training rows (scikit-learn's rule)."),
    bisecting_strategy: z.enum(["biggest_inertia", "largest_cluster"]).default("biggest_inertia").describe("Which cluster to split next: the one with the largest SSE (seed 002), or the one with the most rows."),
  })
  .strict();
export type BisectingKmeansParams = z.infer<typeof bisectingKmeansParams>;

function fit(train: TrainingSet, params: BisectingKmeansParams, ctx: FitContext): CentroidState {
  if (train.target) throw new UnusableInputError("bisecting_kmeans is unsupervised: train it without a target");
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  const K = params.n_clusters;
  checkClusterCount(n, K);
  const X = rowMajor(train.X);
  const tol = absoluteTolerance(X, n, d, params.tol);
  const labels = new Int32Array(n);
  const centres = new Float64Array(K * d);
  const sse = new Float64Array(K);
  const sizes = new Float64Array(K);
  // One cluster: its centre is the mean of all rows.
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) centres[j] += X[i * d + j] / n;
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) sse[0] += (X[i * d + j] - centres[j]) ** 2;
  sizes[0] = n;
  let iterations = 0;
  for (let k = 1; k < K; k++) {
    throwIfAborted(ctx.signal);
    // The cluster to split: largest score, ties to the lowest index; a single row cannot be split.
    let c = -1;
    for (let q = 0; q < k; q++) {
      if (sizes[q] < 2) continue;
      const score = params.bisecting_strategy === "largest_cluster" ? sizes[q] : sse[q];
      const best = c < 0 ? -Infinity : params.bisecting_strategy === "largest_cluster" ? sizes[c] : sse[c];
      if (score > best) c = q;
    }
    const rows: number[] = [];
    for (let i = 0; i < n; i++) if (labels[i] === c) rows.push(i);
    const m = rows.length;
    const sub = new Float64Array(m * d);
    rows.forEach((r, i) => sub.set(X.subarray(r * d, r * d + d), i * d));
    let best: LloydResult | undefined;
    for (let t = 0; t < params.n_init; t++) {
      const init = centresAtRows(sub, d, initialRows(sub, m, d, 2, { kind: params.init }, ctx.rng, ctx.signal));
      const result = lloyd(sub, m, d, init, 2, { maxIter: params.max_iter, tol, signal: ctx.signal });
      iterations += result.nIter;
      if (!best || result.inertia < best.inertia) best = result;
    }
    const b = best!;
    const halves = [c, k];
    sse[c] = 0;
    sizes[c] = 0;
    for (let i = 0; i < m; i++) {
      const to = halves[b.labels[i]];
      labels[rows[i]] = to;
      sizes[to]++;
      let dd = 0;
      for (let j = 0; j < d; j++) dd += (sub[i * d + j] - b.centres[b.labels[i] * d + j]) ** 2;
      sse[to] += dd;
    }
    centres.set(b.centres.subarray(0, d), c * d);
    centres.set(b.centres.subarray(d, 2 * d), k * d);
    ctx.progress(k / (K - 1));
  }
  const inertia = sse.reduce((a, b) => a + b, 0);
  return { features, centres, sizes: sizesOf(labels, K), labels, inertia, n_iter: iterations };
}

export const bisectingKmeans: Algorithm<BisectingKmeansParams, CentroidState> = {
  name: "bisecting_kmeans",
  family: "cluster",
  tasks: ["clustering"],
  description: "Bisecting k-means: repeatedly split the cluster with the largest SSE (or the most rows) by the best of n_init seeded 2-means; new rows join the nearest centre.",
  params: bisectingKmeansParams,
  state: centroidState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true,
  fit,
  predict: predictNearestCentre,
  trainingLabels: (s) => s.labels,
  explain: (s, options) => explainCentroids(s, options?.maxValues),
};
