/**
 * `isomap` (seed 002 流形学习: Isomap): classical MDS on geodesic distances — each
 * training row joined to its n_neighbors nearest (geodesic.ts: the shared neighbour
 * index, Dijkstra from every row), and the centred −½·geodesic² matrix eigendecomposed
 * (kernel-eigenmap.ts), as scikit-learn's Isomap runs KernelPCA(kernel="precomputed").
 *
 * A new row is placed as scikit-learn does: its geodesic distance to training row l is
 * min over its n_neighbors nearest training rows j of (|x − x_j| + geodesic(j, l)); then
 * −½·that² goes through the kernel transform. So the model keeps the training rows and
 * the n × n geodesic distances (scikit-learn's dist_matrix_), hence ISOMAP_MAX_ROWS.
 *
 * A disconnected neighbour graph is completed as scikit-learn 1.2 completes it (one
 * edge between the closest rows of every pair of components; `graph_components` in
 * explain says it happened); raising n_neighbors avoids it. Parity with scikit-learn
 * 1.2 (eigen_solver="dense", path_method="D"): the same coordinates, signs included.
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import { UnusableInputError, throwIfAborted, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { checkFinite, checkLength, checkUnique, f64, structural } from "../state-schemas.js";
import { neighbourIndex, geodesicDistances } from "./geodesic.js";
import { eigenmapFields } from "./kernel-pca.js";
import { fitKernelEigenmap, transformInBlocks } from "./kernel-eigenmap.js";
import { ISOMAP_MAX_ROWS } from "./limits.js";
import { BoundedExplanation, featureRows, featuresField, outputNamesOf, projectionOf, requireUnsupervised } from "./shared.js";
import { groupDigits } from "../../data/group-digits.js";

const PREFIX = "iso";
const MAX_NEIGHBOURS = 100;

export const isomapParams = z
  .object({
    n_neighbors: z.number().int().min(1).max(MAX_NEIGHBOURS).default(5).describe(`Neighbours each row is joined to in the graph (and a new row is placed through). At most ${MAX_NEIGHBOURS}, and below the training rows.`),
    n_components: z.number().int().min(1).max(ISOMAP_MAX_ROWS).default(2).describe(`Output coordinates; at most the training rows (≤ ${ISOMAP_MAX_ROWS}).`),
  })
  .strict();
export type IsomapParams = z.infer<typeof isomapParams>;

export const isomapState = z
  .object({
    features: featuresField,
    n_neighbors: z.int().min(1).max(MAX_NEIGHBOURS),
    /** The training rows, n × features row-major. */
    X_fit: f64,
    /** n × n geodesic distances between the training rows. */
    dist_matrix: f64,
    /** Connected components of the neighbour graph before it was completed (1: connected). */
    graph_components: z.int().min(1),
    ...eigenmapFields,
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      const p = s.features.length;
      const n = s.k_fit_rows.length;
      const d = s.eigenvalues.length;
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      if (n < 2 || n > ISOMAP_MAX_ROWS || d < 1 || d > n || s.n_neighbors >= n) return report(`has ${n} training rows, ${d} components and ${s.n_neighbors} neighbours; needs 2 to ${ISOMAP_MAX_ROWS} rows, more than the neighbours`, ["k_fit_rows"]);
      if (!checkLength(s.X_fit, n * p, "X_fit", report) || !checkLength(s.dist_matrix, n * n, "dist_matrix", report, `${n} × ${n}`) || !checkLength(s.scaled_alphas, n * d, "scaled_alphas", report)) return;
      for (const key of ["X_fit", "dist_matrix", "scaled_alphas", "eigenvalues", "k_fit_rows"] as const) if (!checkFinite(s[key], key, report)) return;
      if (!Number.isFinite(s.k_fit_all)) report("k_fit_all is not finite", ["k_fit_all"], true);
    }),
  );
export type IsomapState = z.infer<typeof isomapState>;

function fit(train: TrainingSet, params: IsomapParams, ctx: FitContext): IsomapState {
  requireUnsupervised(train, "isomap");
  const features = numericFeatureNames(train.X);
  const n = train.X.rowCount;
  const p = features.length;
  if (n > ISOMAP_MAX_ROWS) throw new UnusableInputError(`isomap keeps the n × n geodesic distances and accepts at most ${groupDigits(ISOMAP_MAX_ROWS)} training rows (this fit has ${groupDigits(n)}); sample the rows`);
  if (params.n_neighbors >= n) throw new UnusableInputError(`isomap: n_neighbors = ${params.n_neighbors} needs more than ${params.n_neighbors} training rows (there are ${n})`);
  if (params.n_components > n) throw new UnusableInputError(`isomap: n_components = ${params.n_components}, and there are only ${n} training rows`);
  const X = rowMajor(train.X) as Float64Array<ArrayBuffer>;
  const { distances, components } = geodesicDistances(X, n, p, params.n_neighbors, ctx.signal);
  ctx.progress(0.5);
  const K = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) K[i] = -0.5 * distances[i] * distances[i];
  throwIfAborted(ctx.signal);
  const map = fitKernelEigenmap(K, n, params.n_components, ctx.signal);
  ctx.progress(1);
  return { features, n_neighbors: params.n_neighbors, X_fit: X, dist_matrix: distances, graph_components: components, ...map };
}

function predict(s: IsomapState, X: Frame) {
  const p = s.features.length;
  const n = s.k_fit_rows.length;
  const m = X.rowCount;
  const k = s.n_neighbors;
  const rows = featureRows(X, s.features);
  const { distances, indices } = neighbourIndex(s.X_fit, n, p).kneighbors(rows, m, k);
  const G = s.dist_matrix;
  const outputs = transformInBlocks(s, m, (start, size, out) => {
    for (let i = 0; i < size; i++) {
      const o = i * n;
      out.fill(Infinity, o, o + n);
      for (let t = 0; t < k; t++) {
        const j = indices[(start + i) * k + t];
        const dj = distances[(start + i) * k + t];
        for (let l = 0; l < n; l++) {
          const via = dj + G[j * n + l];
          if (via < out[o + l]) out[o + l] = via;
        }
      }
      for (let l = 0; l < n; l++) out[o + l] = -0.5 * out[o + l] * out[o + l];
    }
  });
  return projectionOf(outputs, m);
}

export const isomap: Algorithm<IsomapParams, IsomapState> = {
  name: "isomap",
  family: "projection",
  tasks: ["projection"],
  description: `Isomap: classical MDS on geodesic distances over the k-nearest-neighbour graph (completed when disconnected, as scikit-learn does); new rows through their nearest training rows (at most ${groupDigits(ISOMAP_MAX_ROWS)} training rows).`,
  params: isomapParams,
  state: isomapState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true, // neighbours and path lengths are Euclidean, in input units
  fit,
  predict,
  outputNames: (s) => outputNamesOf(PREFIX, s.eigenvalues.length),
  explain(s, options) {
    const names = outputNamesOf(PREFIX, s.eigenvalues.length);
    return new BoundedExplanation(options?.maxValues)
      .set("n_neighbors", s.n_neighbors)
      .set("training_rows", s.k_fit_rows.length)
      .set("graph_components", s.graph_components)
      .byOutput("eigenvalues", names, s.eigenvalues).out;
  },
};
