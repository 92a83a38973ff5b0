/**
 * `agnes` (seed 002: AGNES, 层次聚类): agglomerative clustering with single (d_min),
 * complete (d_max), average (d_avg), centroid or Ward linkage (linkage.ts), cut into flat
 * clusters by a number of clusters or a distance threshold. Transductive: it labels the
 * rows it was fitted on and defines no cluster for a new row (/predict answers 422
 * transductive_model; the labels come from trainingLabels). Clusters are numbered by their
 * lowest training row (cluster 0 holds row 0).
 *
 * Memory: every linkage but single keeps the condensed n × n distance matrix, so those fits
 * accept at most AGNES_MAX_ROWS rows (limits.ts); single linkage needs O(n).
 */
import { z } from "zod";
import { UnusableInputError, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { maxValuesOf, ValueBudget } from "../explain-bounds.js";
import { checkLength, checkUnique, f64, i32, structural } from "../state-schemas.js";
import { AGNES_MAX_ROWS } from "./limits.js";
import { clustersAtThreshold, cutTree, linkage } from "./linkage.js";
import { MAX_CLUSTERS, metricFields, rowMetricOf } from "./params.js";
import { groupDigits } from "../../data/group-digits.js";

/** Where to cut a dendrogram into flat clusters (agnes and diana). */
export const cutSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("n_clusters"), n_clusters: z.int().min(1).max(MAX_CLUSTERS) }).strict(),
    z.object({ kind: z.literal("distance_threshold"), distance_threshold: z.number().min(0) }).strict(),
  ])
  .default({ kind: "n_clusters", n_clusters: 2 })
  .describe(
    `Where to cut the dendrogram: {"kind":"n_clusters","n_clusters":k} (undo the last k − 1 merges; k at most ${groupDigits(MAX_CLUSTERS)} and the training rows), or {"kind":"distance_threshold","distance_threshold":t} (scikit-learn's rule: one cluster more than the merges of height ≥ t).`,
  );

export const agnesParams = z
  .object({
    linkage: z
      .enum(["ward", "complete", "average", "single", "centroid"])
      .default("ward")
      .describe(
        `Cluster distance: ward (increase in SSE), complete (d_max), average (d_avg), single (d_min), centroid (between means); ward and centroid need the euclidean metric. All but single keep an n × n distance matrix and accept at most ${groupDigits(AGNES_MAX_ROWS)} training rows.`,
      ),
    cut: cutSchema,
    ...metricFields,
  })
  .strict()
  .superRefine((p, ctx) => {
    // Ward's SSE and the centroid's means exist only in Euclidean geometry (scikit-learn refuses the same).
    if ((p.linkage === "ward" || p.linkage === "centroid") && p.metric !== "euclidean") {
      ctx.addIssue({ code: "custom", path: ["metric"], message: `${p.linkage} linkage is defined for the euclidean metric only; use single, complete or average linkage with ${p.metric}` });
    }
  });
export type AgnesParams = z.infer<typeof agnesParams>;

export const agnesState = z
  .object({
    features: z.array(z.string()).min(1),
    /** scipy-like merge list: merge i joins clusters a[i] and b[i] (ids < rows are rows, rows + j the cluster of merge j) at height[i] into size[i] rows. */
    a: i32,
    b: i32,
    height: f64,
    size: i32,
    labels: i32,
    n_clusters: z.int().min(1),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      const m = Math.max(0, s.labels.length - 1);
      for (const [name, a] of [["a", s.a], ["b", s.b], ["height", s.height], ["size", s.size]] as const) if (!checkLength(a, m, name, report, `rows − 1 = ${m}`)) return;
      const bad = s.labels.findIndex((l) => l < 0 || l >= s.n_clusters);
      if (bad >= 0) report(`labels[${bad}] is ${s.labels[bad]}, not a cluster of ${s.n_clusters}`, ["labels", bad]);
    }),
  );
export type AgnesState = z.infer<typeof agnesState>;

function fit(train: TrainingSet, params: AgnesParams, ctx: FitContext): AgnesState {
  if (train.target) throw new UnusableInputError("agnes is unsupervised: train it without a target");
  const features = numericFeatureNames(train.X);
  const n = train.X.rowCount;
  if (n < 1) throw new UnusableInputError("agnes needs at least one training row");
  if (params.linkage !== "single" && n > AGNES_MAX_ROWS) {
    throw new UnusableInputError(`agnes with ${params.linkage} linkage keeps an n × n distance matrix and accepts at most ${groupDigits(AGNES_MAX_ROWS)} rows (this fit has ${groupDigits(n)}); use single linkage, sample the rows, or kmeans`);
  }
  const X = rowMajor(train.X);
  checkSquaredDistancesFinite(X, features.length);
  const merges = linkage(X, n, features.length, params.linkage, ctx.signal, rowMetricOf(params));
  const k = params.cut.kind === "n_clusters" ? params.cut.n_clusters : clustersAtThreshold(merges, params.cut.distance_threshold);
  if (k > n) throw new UnusableInputError(`n_clusters is ${k} but there are only ${n} training rows`);
  ctx.progress(1);
  return { features, ...merges, labels: cutTree(merges, n, k), n_clusters: k };
}

/**
 * Squared distances of values beyond ~1e154 overflow to Infinity, and Infinity − Infinity in
 * the linkage updates is NaN: nearest neighbours (and so the whole dendrogram) would be
 * arbitrary. A bound on the largest value keeps every squared distance finite.
 */
function checkSquaredDistancesFinite(X: Float64Array, d: number): void {
  let largest = 0;
  for (let i = 0; i < X.length; i++) largest = Math.max(largest, Math.abs(X[i]));
  // ‖x − y‖² ≤ d · (2·largest)², which must stay below Number.MAX_VALUE (with room for the updates' sums).
  if (largest > Math.sqrt(Number.MAX_VALUE / (16 * Math.max(1, d)))) {
    throw new UnusableInputError(`the distances between training rows overflow (a value of ${largest.toExponential(2)}): rescale the inputs (a scale step, or a log transform)`);
  }
}

/** The merge list from the top of the dendrogram down: the last merges are the ones a cut chooses between. */
export function explainMerges(s: AgnesState, maxValues: number | undefined): Record<string, unknown> {
  const m = s.a.length;
  const budget = new ValueBudget(maxValuesOf(maxValues));
  const counts = new Int32Array(s.n_clusters);
  for (const l of s.labels) counts[l]++;
  // Sizes first (up to half the allowance), then the merges with what is left, four numbers each.
  const sizes = new ValueBudget(Math.ceil(budget.remaining / 2)).take(counts);
  budget.spend(sizes.values.length);
  const listed = Math.min(m, Math.max(1, Math.floor(budget.remaining / 4)));
  const from = m - listed;
  const merges = Array.from({ length: listed }, (_, i) => [s.a[from + i], s.b[from + i], s.height[from + i], s.size[from + i]]);
  return {
    n_clusters: s.n_clusters,
    n_leaves: s.labels.length,
    sizes: sizes.values,
    ...(sizes.truncated ? { sizes_truncated: true } : {}),
    /** [a, b, height, size] per merge, scipy's linkage-matrix rows; merge i creates cluster n_leaves + i. */
    merges,
    first_merge_listed: from,
    ...(from > 0 ? { merges_truncated: true } : {}),
  };
}

export const agnes: Algorithm<AgnesParams, AgnesState> = {
  name: "agnes",
  family: "cluster",
  tasks: ["clustering"],
  description: "AGNES agglomerative clustering (single / complete / average / centroid / Ward linkage), cut by n_clusters or a distance threshold; transductive (labels of the training rows only); explain gives the dendrogram's merges.",
  params: agnesParams,
  state: agnesState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true,
  transductive: true,
  fit,
  predict() {
    throw new UnusableInputError("agnes is transductive: it labels its training rows only (GET /v1/models/{id}/labels); use kmeans, gmm or dbscan to label new rows");
  },
  trainingLabels: (s) => s.labels,
  explain: (s, options) => explainMerges(s, options?.maxValues),
};
