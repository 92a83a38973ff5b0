/**
 * `constrained_kmeans` (the book's 13.6, Algorithm 13.5: COP-k-means; Wagstaff et al. 2001):
 * k-means under pairwise constraints between training rows. Each pass takes the rows in order
 * and puts each one in the nearest centre that breaks no constraint with the rows already
 * placed in this pass: a must-link partner already in another cluster, or a cannot-link
 * partner already in this one, rules a centre out. When every centre is ruled out the fit fails
 * (the book's "return error"); the centres then become the means of their rows, until no row
 * changes cluster or the centres move by at most tol. Constraints are not closed transitively
 * (as in the book); a contradictory set simply fails.
 *
 * Initialisation, the centre update and the model are the k-means family's
 * (../cluster/seeding.ts, kmeans-engine.ts, centroid-model.ts): a new row, which has no
 * constraints, joins the nearest centre.
 */
import { z } from "zod";
import { throwIfAborted, UnusableInputError, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { centroidState, explainCentroids, predictNearestCentre, sizesOf, type CentroidState } from "../cluster/centroid-model.js";
import { absoluteTolerance, squaredDistance, updateCentres } from "../cluster/kmeans-engine.js";
import { kmeansInitSchema, MAX_ROW_ID, maxIterParam, nClustersParam, nInitParam, restarts } from "../cluster/params.js";
import { checkClusterCount, initialCentres } from "../cluster/seeding.js";
import { groupDigits } from "../../data/group-digits.js";

/** Pairs per constraint list: each is kept twice (both rows' lists) and checked once per pass and candidate centre. */
export const MAX_CONSTRAINTS = 100_000;

const pairs = (what: string) =>
  z
    .array(z.tuple([z.int().min(0).max(MAX_ROW_ID), z.int().min(0).max(MAX_ROW_ID)]))
    .max(MAX_CONSTRAINTS)
    .default([])
    .describe(`${what} As [row, row] pairs of 0-based training rows; at most ${groupDigits(MAX_CONSTRAINTS)} pairs.`);

export const constrainedKmeansParams = z
  .object({
    n_clusters: nClustersParam(),
    must_link: pairs("Rows that must share a cluster."),
    cannot_link: pairs("Rows that must not share a cluster."),
    init: kmeansInitSchema,
    n_init: nInitParam,
    max_iter: maxIterParam(300, "Iterations per restart (each one a constrained assignment and a centre update)."),
    tol: z.number().min(0).default(1e-4).describe("Stop when the summed squared shift of the centres is at most tol × the mean per-feature variance of the training rows, or when no row changes cluster."),
  })
  .strict();
type ConstrainedKmeansParams = z.infer<typeof constrainedKmeansParams>;

/** Each row's partners (both directions), compressed: partners of row i are list[start[i] .. start[i + 1]). */
interface Partners {
  readonly start: Int32Array;
  readonly list: Int32Array;
}

function partnersOf(links: readonly (readonly [number, number])[], n: number, what: string): Partners {
  const start = new Int32Array(n + 1);
  for (const [a, b] of links) {
    const bad = a >= n ? a : b >= n ? b : -1;
    if (bad >= 0) throw new UnusableInputError(`${what} names row ${bad}, which is not a training row (there are ${n}, numbered from 0)`);
    start[a + 1]++;
    start[b + 1]++;
  }
  for (let i = 0; i < n; i++) start[i + 1] += start[i];
  const fill = start.slice(0, n);
  const list = new Int32Array(start[n]);
  for (const [a, b] of links) {
    list[fill[a]++] = b;
    list[fill[b]++] = a;
  }
  return { start, list };
}

/**
 * One pass of Algorithm 13.5's assignment, rows in order, into labels. Returns the SSE, or
 * the first row that no centre can take.
 */
function constrainedAssign(X: Float64Array, n: number, d: number, C: Float64Array, k: number, must: Partners, cannot: Partners, labels: Int32Array): { sse: number } | { stuck: number } {
  labels.fill(-1);
  const dist = new Float64Array(k);
  const order = Int32Array.from({ length: k }, (_, c) => c);
  let sse = 0;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < k; c++) dist[c] = squaredDistance(X, i, C, c, d);
    // Nearest first; ties: the lower cluster, as in k-means.
    order.sort((a, b) => dist[a] - dist[b] || a - b);
    let chosen = -1;
    for (const c of order) {
      if (violates(i, c, labels, must, cannot)) continue;
      chosen = c;
      break;
    }
    if (chosen < 0) return { stuck: i };
    labels[i] = chosen;
    sse += dist[chosen];
  }
  return { sse };
}

/** The book's is_violated: a placed must-link partner elsewhere, or a placed cannot-link partner in c (a row cannot-linked to itself always). */
function violates(i: number, c: number, labels: Int32Array, must: Partners, cannot: Partners): boolean {
  for (let e = must.start[i]; e < must.start[i + 1]; e++) {
    const j = must.list[e];
    if (labels[j] >= 0 && labels[j] !== c) return true;
  }
  for (let e = cannot.start[i]; e < cannot.start[i + 1]; e++) {
    const j = cannot.list[e];
    if (j === i || labels[j] === c) return true;
  }
  return false;
}

interface Run {
  readonly centres: Float64Array<ArrayBuffer>;
  readonly labels: Int32Array<ArrayBuffer>;
  readonly inertia: number;
  readonly nIter: number;
}

function copKmeans(X: Float64Array, n: number, d: number, init: Float64Array, k: number, must: Partners, cannot: Partners, maxIter: number, tol: number, ctx: FitContext): Run | { stuck: number } {
  let C = Float64Array.from(init);
  let next = new Float64Array(k * d);
  const labels = new Int32Array(n);
  const old = new Int32Array(n).fill(-1);
  const counts = new Float64Array(k);
  const dist = new Float64Array(n);
  // An empty cluster takes the row farthest from its centre (the engine's relocation); distances asked only then.
  const distances = () => {
    for (let i = 0; i < n; i++) dist[i] = squaredDistance(X, i, C, labels[i], d);
    return dist;
  };
  let it = 0;
  let sse = 0;
  while (it < maxIter) {
    throwIfAborted(ctx.signal);
    const pass = constrainedAssign(X, n, d, C, k, must, cannot, labels);
    if ("stuck" in pass) return pass;
    sse = pass.sse;
    it++;
    if (labels.every((l, i) => l === old[i])) break;
    const shift = updateCentres(X, n, d, labels, distances, C, k, next, counts);
    [C, next] = [next, C];
    if (shift <= tol) break;
    old.set(labels);
  }
  // The centres are the means of the last assignment's clusters; the SSE is recomputed against them.
  sse = 0;
  for (let i = 0; i < n; i++) sse += squaredDistance(X, i, C, labels[i], d);
  return { centres: C, labels, inertia: sse, nIter: it };
}

function fit(train: TrainingSet, params: ConstrainedKmeansParams, ctx: FitContext): CentroidState {
  if (train.target) throw new UnusableInputError("constrained_kmeans is unsupervised: train it without a target (the constraints are its supervision)");
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  const k = params.n_clusters;
  checkClusterCount(n, k);
  const must = partnersOf(params.must_link, n, "must_link");
  const cannot = partnersOf(params.cannot_link, n, "cannot_link");
  const X = rowMajor(train.X);
  const tol = absoluteTolerance(X, n, d, params.tol);
  const runs = restarts(params.n_init, params.init);
  let best: Run | undefined;
  let stuck = -1;
  for (let r = 0; r < runs; r++) {
    const result = copKmeans(X, n, d, initialCentres(X, n, d, k, params.init, ctx.rng, ctx.signal), k, must, cannot, params.max_iter, tol, ctx);
    if ("stuck" in result) stuck = result.stuck;
    else if (!best || result.inertia < best.inertia) best = result;
    ctx.progress((r + 1) / runs);
  }
  if (!best) {
    throw new UnusableInputError(
      `constrained_kmeans: row ${stuck} can join none of the ${k} clusters without breaking a constraint (${runs === 1 ? "the start" : `all ${runs} starts`} failed); loosen the constraints, raise n_clusters or try other starts`,
    );
  }
  return { features, centres: best.centres, sizes: sizesOf(best.labels, k), labels: best.labels, inertia: best.inertia, n_iter: best.nIter };
}

export const constrainedKmeans: Algorithm<ConstrainedKmeansParams, CentroidState> = {
  name: "constrained_kmeans",
  family: "semi",
  tasks: ["clustering"],
  description: "COP-k-means: k-means whose assignment honours must-link and cannot-link pairs of training rows (each row joins the nearest centre that breaks none; the fit fails when none is left); new rows join the nearest centre.",
  params: constrainedKmeansParams,
  state: centroidState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true, // Euclidean distances in input units
  fit,
  predict: predictNearestCentre,
  trainingLabels: (s) => s.labels,
  explain: (s, options) => explainCentroids(s, options?.maxValues),
};
