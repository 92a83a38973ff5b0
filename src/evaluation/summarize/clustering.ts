/**
 * The clustering evaluation body: external indices when a reference labelling is given
 * (with the seed's pair counts a, b, c, d), internal indices when the points are given.
 */
import { externalIndices, type PairCounts } from "../metrics/clustering-external.js";
import { daviesBouldinScore, dunnIndex, silhouetteScore, type Points } from "../metrics/clustering-internal.js";
import type { Rng } from "../../data/random.js";
import type { MetricRecord } from "../wire.js";

export interface ClusteringInput {
  /** Cluster per row (any integers; −1 is a cluster like any other). */
  readonly labels: ArrayLike<number>;
  /** Reference labelling (e.g. the classes), for the external indices. */
  readonly reference?: ArrayLike<number>;
  /** The clustered points, for the internal indices. */
  readonly points?: Points;
  /** Silhouette on a seeded sample of this many rows (it costs O(n²)). */
  readonly silhouetteSampleSize?: number;
  readonly rng?: Rng;
}

export interface ClusteringSummary {
  metrics: MetricRecord;
  pair_counts?: PairCounts;
}

export function summarizeClustering(input: ClusteringInput): ClusteringSummary {
  const metrics: MetricRecord = {};
  const summary: ClusteringSummary = { metrics };
  if (input.reference) {
    const { pair_counts, ...indices } = externalIndices(input.reference, input.labels);
    Object.assign(metrics, indices);
    summary.pair_counts = pair_counts;
  }
  if (input.points) {
    metrics.silhouette = silhouetteScore(input.points, input.labels, { sampleSize: input.silhouetteSampleSize, rng: input.rng });
    metrics.davies_bouldin = daviesBouldinScore(input.points, input.labels);
    metrics.dunn = dunnIndex(input.points, input.labels);
  }
  return summary;
}
