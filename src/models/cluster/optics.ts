/**
 * `optics` (seed 002: OPTICS, 密度聚类): orders the training rows so that density-connected
 * rows are neighbours, with each row's reachability distance (optics-graph.ts, scikit-learn
 * 1.2's procedure), then extracts flat clusters from that reachability plot, either by
 * scikit-learn's xi method (steep down/up areas) or by an eps cut (DBSCAN at any eps ≤ max_eps
 * without refitting). Noise is −1. Transductive: /predict answers 422 transductive_model;
 * the training rows' labels come from trainingLabels.
 *
 * explain gives the reachability plot: rows in OPTICS order with their reachability (null for
 * ∞), core distance (null for ∞) and predecessor (−1: none), cut to max_values.
 */
import { z } from "zod";
import { UnusableInputError, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { maxValuesOf, ValueBudget } from "../explain-bounds.js";
import { checkLength, checkUnique, f64, i32, structural } from "../state-schemas.js";
import { dbscanCut, opticsGraph, xiClusters, xiLabels } from "./optics-graph.js";
import { MAX_ROW_ID, metricFields, metricStateFields, rowMetricOf } from "./params.js";

export const opticsParams = z
  .object({
    min_samples: z
      .int()
      .min(2)
      .max(MAX_ROW_ID)
      .default(5)
      .describe("Rows within a row's neighbourhood (the row itself included) that make it a core point; also the xi method's limit on non-steep rows inside a steep area. At most the training rows."),
    max_eps: z
      .number()
      .positive()
      .nullable()
      .default(null)
      .describe("Largest neighbourhood radius searched (under `metric`); null: no limit (scikit-learn's inf). A smaller value is faster; rows farther apart are never reachable from each other."),
    cluster_method: z
      .discriminatedUnion("kind", [
        z
          .object({
            kind: z.literal("xi"),
            xi: z.number().gt(0).lt(1).default(0.05).describe("Least relative steepness of a cluster's boundary in the reachability plot."),
            min_cluster_size: z.int().min(2).max(MAX_ROW_ID).nullable().default(null).describe("Fewest rows of a cluster; null: min_samples. At most the training rows."),
            predecessor_correction: z.boolean().default(true).describe("Drop cluster ends whose predecessor lies outside the cluster (Schubert & Gertz)."),
          })
          .strict(),
        z.object({ kind: z.literal("dbscan"), eps: z.number().positive().describe("The cut: at most max_eps.") }).strict(),
      ])
      .default({ kind: "xi", xi: 0.05, min_cluster_size: null, predecessor_correction: true })
      .describe('How flat clusters are read off the reachability plot: {"kind":"xi","xi":0.05,…} (scikit-learn\'s cluster_optics_xi) or {"kind":"dbscan","eps":e} (cluster_optics_dbscan: DBSCAN at eps ≤ max_eps).'),
    ...metricFields,
  })
  .strict();
export type OpticsParams = z.infer<typeof opticsParams>;

export const opticsState = z
  .object({
    features: z.array(z.string()).min(1),
    min_samples: z.int().min(2),
    max_eps: z.number().positive().nullable(),
    ...metricStateFields,
    ordering: i32,
    /** Per training row, ∞ where undefined. */
    reachability: f64,
    core_distances: f64,
    predecessor: i32,
    labels: i32,
    n_clusters: z.int().min(0),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      const n = s.labels.length;
      for (const [name, a] of [["ordering", s.ordering], ["reachability", s.reachability], ["core_distances", s.core_distances], ["predecessor", s.predecessor]] as const) if (!checkLength(a, n, name, report, `${n} training rows`)) return;
      const seen = new Uint8Array(n);
      const badOrder = s.ordering.findIndex((r) => r < 0 || r >= n || seen[r]++ > 0);
      if (badOrder >= 0) return report(`ordering[${badOrder}] is not a permutation of the training rows`, ["ordering", badOrder]);
      const badPred = s.predecessor.findIndex((p) => p < -1 || p >= n);
      if (badPred >= 0) return report(`predecessor[${badPred}] is not a training row or −1`, ["predecessor", badPred]);
      const bad = s.labels.findIndex((l) => l < -1 || l >= s.n_clusters);
      if (bad >= 0) report(`labels[${bad}] is ${s.labels[bad]}, not noise (−1) or a cluster of ${s.n_clusters}`, ["labels", bad]);
    }),
  );
export type OpticsState = z.infer<typeof opticsState>;

function fit(train: TrainingSet, params: OpticsParams, ctx: FitContext): OpticsState {
  if (train.target) throw new UnusableInputError("optics is unsupervised: train it without a target");
  const features = numericFeatureNames(train.X);
  const n = train.X.rowCount;
  if (params.min_samples > n) throw new UnusableInputError(`min_samples is ${params.min_samples} but there are only ${n} training rows`);
  const maxEps = params.max_eps ?? Infinity;
  const method = params.cluster_method;
  if (method.kind === "dbscan" && method.eps > maxEps) throw new UnusableInputError(`cluster_method.eps (${method.eps}) is above max_eps (${maxEps}): the reachability plot says nothing beyond max_eps`);
  if (method.kind === "xi" && (method.min_cluster_size ?? 0) > n) throw new UnusableInputError(`min_cluster_size is ${method.min_cluster_size} but there are only ${n} training rows`);
  const g = opticsGraph(rowMajor(train.X), n, features.length, params.min_samples, maxEps, ctx.signal, rowMetricOf(params));
  let labels: Int32Array<ArrayBuffer>;
  let count: number;
  if (method.kind === "dbscan") {
    labels = dbscanCut(g, method.eps);
    count = labels.reduce((m, l) => Math.max(m, l + 1), 0);
  } else {
    ({ labels, count } = xiLabels(g.ordering, xiClusters(g, method.xi, params.min_samples, method.min_cluster_size ?? params.min_samples, method.predecessor_correction)));
  }
  ctx.progress(1);
  return {
    features,
    min_samples: params.min_samples,
    max_eps: params.max_eps,
    metric: params.metric,
    p: params.p,
    ordering: g.ordering,
    reachability: g.reachability,
    core_distances: g.coreDistances,
    predecessor: g.predecessor,
    labels,
    n_clusters: count,
  };
}

const finiteOrNull = (v: number) => (Number.isFinite(v) ? v : null);

function explain(s: OpticsState, maxValues: number | undefined): Record<string, unknown> {
  const n = s.labels.length;
  const budget = new ValueBudget(maxValuesOf(maxValues));
  const sizes = new Int32Array(s.n_clusters);
  let noise = 0;
  for (const l of s.labels) {
    if (l < 0) noise++;
    else sizes[l]++;
  }
  const listedSizes = budget.take(sizes);
  // The plot: four numbers per position of the ordering, the first positions while the allowance lasts.
  const listed = Math.min(n, Math.floor(budget.remaining / 4));
  const rows = Array.from(s.ordering.subarray(0, listed));
  return {
    n_clusters: s.n_clusters,
    noise_count: noise,
    min_samples: s.min_samples,
    max_eps: s.max_eps,
    sizes: listedSizes.values,
    ...(listedSizes.truncated ? { sizes_truncated: true } : {}),
    /** 0-based training rows in OPTICS order; the next three arrays are aligned with it. */
    ordering: rows,
    reachability: rows.map((r) => finiteOrNull(s.reachability[r])),
    core_distances: rows.map((r) => finiteOrNull(s.core_distances[r])),
    predecessor: rows.map((r) => s.predecessor[r]),
    ...(listed < n ? { ordering_truncated: true } : {}),
  };
}

export const optics: Algorithm<OpticsParams, OpticsState> = {
  name: "optics",
  family: "cluster",
  tasks: ["clustering"],
  description: "OPTICS density ordering (min_samples, max_eps) with clusters extracted by xi or an eps cut (noise −1); transductive (labels of the training rows only); explain gives the reachability plot (ordering, reachability, core distances, predecessors).",
  params: opticsParams,
  state: opticsState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true,
  transductive: true,
  fit,
  predict() {
    throw new UnusableInputError("optics is transductive: it labels its training rows only (GET /v1/models/{id}/labels); use dbscan to label new rows");
  },
  trainingLabels: (s) => s.labels,
  explain: (s, options) => explain(s, options?.maxValues),
};
