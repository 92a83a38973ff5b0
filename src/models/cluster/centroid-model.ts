/**
 * The state, prediction and explanation shared by the centre-based clusterings
 * (kmeans, bisecting_kmeans, kmedoids): k centres over the training features, and the cluster
 * of every training row. A new row joins its nearest centre (squared Euclidean;
 * ties: the lowest cluster index).
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import type { Prediction } from "../contract.js";
import { rowMajor } from "../design-matrix.js";
import { maxValuesOf, ValueBudget } from "../explain-bounds.js";
import { checkFinite, checkLength, checkUnique, f64, i32, structural, type Check } from "../state-schemas.js";
import { MAX_CLUSTERS, metricStateFields } from "./params.js";

const centroidFields = {
  features: z.array(z.string()).min(1),
  /** k × features, row-major. */
  centres: f64,
  /** Training rows per cluster. */
  sizes: i32,
  /** Cluster of every training row, in training-row order. */
  labels: i32,
  inertia: z.number(),
  n_iter: z.int().min(0),
};

function checkCentroids(s: { features: string[]; centres: Float64Array; sizes: Int32Array; labels: Int32Array }, report: Check): boolean {
  if (!checkUnique(s.features, "feature", report, ["features"])) return false;
  const k = s.sizes.length;
  if (k < 1 || k > MAX_CLUSTERS) {
    report(`has ${k} clusters; 1 to ${MAX_CLUSTERS} are supported`, ["sizes"]);
    return false;
  }
  if (!checkLength(s.centres, k * s.features.length, "centres", report, `${k} clusters × ${s.features.length} features`) || !checkFinite(s.centres, "centres", report)) return false;
  const bad = s.labels.findIndex((l) => l < 0 || l >= k);
  if (bad >= 0) report(`labels[${bad}] is ${s.labels[bad]}, not a cluster of ${k}`, ["labels", bad]);
  return bad < 0;
}

export const centroidState = z.object(centroidFields).strict().superRefine(structural(checkCentroids));
export type CentroidState = z.infer<typeof centroidState>;

/** kmedoids: the same, plus the training row of each medoid (its centre) and the metric it measured with. */
export const medoidState = z
  .object({ ...centroidFields, medoid_rows: i32, ...metricStateFields })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkCentroids(s, report) || !checkLength(s.medoid_rows, s.sizes.length, "medoid_rows", report, `${s.sizes.length} clusters`)) return;
      const bad = s.medoid_rows.findIndex((r) => r < 0 || r >= s.labels.length);
      if (bad >= 0) report(`medoid_rows[${bad}] is not a training row`, ["medoid_rows", bad]);
    }),
  );
export type MedoidState = z.infer<typeof medoidState>;

export function sizesOf(labels: Int32Array, k: number): Int32Array<ArrayBuffer> {
  const sizes = new Int32Array(k);
  for (const l of labels) if (l >= 0) sizes[l]++;
  return sizes;
}

export function predictNearestCentre(s: CentroidState, X: Frame): Prediction {
  const d = s.features.length;
  const k = s.sizes.length;
  const M = rowMajor(selectColumns(X, s.features));
  const n = X.rowCount;
  const labels = new Int32Array(n);
  const C = s.centres;
  for (let i = 0; i < n; i++) {
    let best = 0;
    let bestD = Infinity;
    for (let c = 0; c < k; c++) {
      let dd = 0;
      for (let j = 0; j < d; j++) {
        const t = M[i * d + j] - C[c * d + j];
        dd += t * t;
      }
      if (dd < bestD) {
        bestD = dd;
        best = c;
      }
    }
    labels[i] = best;
  }
  return { task: "clustering", labels };
}

/** Cluster sizes, then centres as { feature: value } per cluster: at most maxValues numbers in all (the rest left out and flagged). */
export function explainCentroids(s: CentroidState, maxValues: number | undefined): Record<string, unknown> {
  const d = s.features.length;
  const k = s.sizes.length;
  const budget = new ValueBudget(maxValuesOf(maxValues));
  const sizes = budget.take(s.sizes);
  const centres: Record<string, number>[] = [];
  let truncated = sizes.truncated;
  for (let c = 0; c < k; c++) {
    if (budget.remaining === 0) {
      truncated = true;
      break;
    }
    const { values, truncated: cut } = budget.take(s.centres.subarray(c * d, c * d + d));
    centres.push(Object.fromEntries(values.map((v, j) => [s.features[j], v])));
    truncated ||= cut;
  }
  return {
    n_clusters: k,
    sizes: sizes.values,
    inertia: s.inertia,
    n_iter: s.n_iter,
    centres,
    ...(truncated ? { centres_truncated: true } : {}),
  };
}
