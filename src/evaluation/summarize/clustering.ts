/**
 * The clustering evaluation body: external indices when a reference labelling is given
 * (with the seed's pair counts a, b, c, d), internal indices when the points are given.
 */
import { externalIndices, type PairCounts } from "../metrics/clustering-external.js";
import { calinskiHarabaszScore, daviesBouldinScore, dunnIndex, silhouetteScore, sumOfSquaredErrors, type Points } from "../metrics/clustering-internal.js";
import { permutation, type Rng } from "../../data/random.js";
import type { MetricRecord } from "../wire.js";

export interface ClusteringInput {
  /** Cluster per row (any integers; −1 is a cluster like any other). */
  readonly labels: ArrayLike<number>;
  /** Reference labelling (e.g. the classes), for the external indices. */
  readonly reference?: ArrayLike<number>;
  /** The clustered points, for the internal indices. */
  readonly points?: Points;
  /** Silhouette and Dunn (both O(n²)) on a seeded sample of this many rows; the other indices use every row. */
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
    const { points, labels } = input;
    metrics.sse = sumOfSquaredErrors(points, labels);
    metrics.silhouette = silhouetteScore(points, labels, { sampleSize: input.silhouetteSampleSize, rng: input.rng });
    metrics.davies_bouldin = daviesBouldinScore(points, labels);
    metrics.calinski_harabasz = calinskiHarabaszScore(points, labels);
    const sample = input.silhouetteSampleSize;
    metrics.dunn = sample !== undefined && sample < labels.length && input.rng ? dunnIndex(...sampled(points, labels, sample, input.rng)) : dunnIndex(points, labels);
  }
  return summary;
}

function sampled(points: Points, labels: ArrayLike<number>, size: number, rng: Rng): [Points, Int32Array] {
  const rows = permutation(labels.length, rng).subarray(0, size);
  const d = points.nFeatures;
  const X = new Float64Array(size * d);
  rows.forEach((row, i) => {
    for (let f = 0; f < d; f++) X[i * d + f] = points.X[row * d + f];
  });
  return [{ X, nFeatures: d }, Int32Array.from(rows, (row) => labels[row])];
}
