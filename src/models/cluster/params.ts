/**
 * Parameter pieces shared by the clustering algorithms (scikit-learn names).
 * Row ids are 0-based positions among the training rows, as everywhere in xigua.
 */
import { z } from "zod";
import { vectorMetric, type RowMetric, type VectorMetricName } from "../../data/neighbors/metric.js";
import { groupDigits } from "../../data/group-digits.js";

/** Most clusters a model may have: its state holds clusters × features centres and predict scans them all for each row. */
export const MAX_CLUSTERS = 10_000;
/** Restarts of a randomised fit: each one is a whole fit. */
export const MAX_N_INIT = 1000;
/** Iterations of Lloyd / EM: each one is a pass over the data. */
export const MAX_ITERATIONS = 100_000;
/** A training-row id: below the most rows a table can have (XIGUA_MAX_CELLS over one column). */
export const MAX_ROW_ID = 2 ** 31 - 2;

export const nClustersParam = (what = "Clusters to find.") =>
  z
    .int()
    .min(1)
    .max(MAX_CLUSTERS)
    .default(8)
    .describe(`${what} At most ${groupDigits(MAX_CLUSTERS)} (and never above the training rows).`);

export const rowIdsSchema = z
  .array(z.int().min(0).max(MAX_ROW_ID))
  .min(1)
  .max(MAX_CLUSTERS)
  .describe(`0-based training-row ids, one per cluster (at most ${groupDigits(MAX_CLUSTERS)}); their values are the initial centres.`);

/** k-means initialisation: a tagged union, so one field never carries two kinds of value. */
export const kmeansInitSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("k-means++") }).strict(),
    z.object({ kind: z.literal("random") }).strict(),
    z.object({ kind: z.literal("rows"), rows: rowIdsSchema }).strict(),
  ])
  .default({ kind: "k-means++" })
  .describe(
    '{"kind":"k-means++"} (scikit-learn\'s greedy variant: 2 + ⌊ln k⌋ candidates per centre, the one that lowers the potential most is kept), {"kind":"random"} (k distinct training rows drawn uniformly), or {"kind":"rows","rows":[…]} (explicit 0-based training rows; their count must equal n_clusters).',
  );
export type KmeansInit = z.infer<typeof kmeansInitSchema>;

export const maxIterParam = (fallback: number, what: string) =>
  z
    .int()
    .min(1)
    .max(MAX_ITERATIONS)
    .default(fallback)
    .describe(`${what} At most ${groupDigits(MAX_ITERATIONS)}.`);

export const nInitParam = z
  .int()
  .min(1)
  .max(MAX_N_INIT)
  .nullable()
  .default(null)
  .describe(`Restarts from different seeded initialisations; the one with the lowest objective is kept. null: 1 for k-means++ and explicit rows, 10 for random (scikit-learn's "auto"). Explicit rows always run once. At most ${MAX_N_INIT}.`);

/** Restarts actually run: explicit rows are deterministic, so repeating them repeats the same fit. */
export function restarts(nInit: number | null, init: KmeansInit): number {
  if (init.kind === "rows") return 1;
  return nInit ?? (init.kind === "random" ? 10 : 1);
}

/** Exponents above this overflow |Δ|^p for ordinary differences; chebyshev is the p → ∞ limit (as knn's MAX_P). */
export const MAX_METRIC_P = 100;

/**
 * The distance of the clusterings that work on distances alone (dbscan, optics, kmedoids, and
 * agnes / diana): the vector metrics of the shared neighbour module (src/data/neighbors/metric.ts,
 * the one place distances are defined). Seed 002's Minkowski family for ordered attributes.
 */
export const metricFields = {
  metric: z
    .enum(["euclidean", "manhattan", "chebyshev", "minkowski"])
    .default("euclidean")
    .describe("Distance between rows: euclidean, manhattan (city block), chebyshev (max |Δ|), or minkowski with p."),
  p: z.number().min(1).max(MAX_METRIC_P).default(2).describe(`The exponent of minkowski (ignored by the other metrics). At most ${MAX_METRIC_P}: use chebyshev for the limit.`),
};
export interface MetricChoice {
  readonly metric: VectorMetricName;
  readonly p: number;
}

export const rowMetricOf = (c: MetricChoice): RowMetric => vectorMetric(c.metric, c.p);

/** The same fields in a fitted state: artifacts saved before the metric was a parameter were Euclidean. */
export const metricStateFields = {
  metric: z.enum(["euclidean", "manhattan", "chebyshev", "minkowski"]).default("euclidean"),
  p: z.number().min(1).max(MAX_METRIC_P).default(2),
};
