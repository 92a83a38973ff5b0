/**
 * `dbscan` (seed 002: 密度聚类): a row with at least min_samples rows within eps (itself
 * included) is a core object; clusters are the rows density-reachable from core objects;
 * the rest is noise (−1). Exactly scikit-learn's procedure (`dbscan_inner`): core rows are
 * visited in increasing row order, each unlabelled one starts a new cluster that a
 * depth-first search grows through core rows. So clusters are numbered by their lowest
 * core row, and a border row reachable from two clusters joins the one with the lower
 * number — on watermelon 4.0, row 7 joins the cluster of row 3, as in scikit-learn (the
 * book puts it with rows 6 and 8).
 *
 * A new row joins the cluster of its nearest core object within eps (ties: the lowest core
 * row), else it is noise: "within eps of a core sample", the only rule that needs no refit.
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { UnusableInputError, throwIfAborted, type Algorithm, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { maxValuesOf, ValueBudget } from "../explain-bounds.js";
import { checkFinite, checkLength, checkUnique, f64, i32, structural } from "../state-schemas.js";
import { buildIndex, euclidean, type RowMetric } from "../../data/neighbors/index.js";
import { MAX_ROW_ID, metricFields, metricStateFields, rowMetricOf } from "./params.js";

export const dbscanParams = z
  .object({
    eps: z.number().positive().default(0.5).describe("Neighbourhood radius (inclusive), under `metric`."),
    min_samples: z
      .int()
      .min(1)
      .max(MAX_ROW_ID)
      .default(5)
      .describe("Rows within eps (the row itself included) that make a row a core object. Above the training rows nothing is core and every row is noise."),
    ...metricFields,
  })
  .strict();
export type DbscanParams = z.infer<typeof dbscanParams>;

export const dbscanState = z
  .object({
    features: z.array(z.string()).min(1),
    eps: z.number().positive(),
    min_samples: z.int().min(1),
    ...metricStateFields,
    /** Training rows that are core objects, increasing. */
    core_rows: i32,
    /** Their features, core × features (what predict searches). */
    core_points: f64,
    labels: i32,
    n_clusters: z.int().min(0),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      const n = s.labels.length;
      if (!checkLength(s.core_points, s.core_rows.length * s.features.length, "core_points", report, `${s.core_rows.length} core rows × ${s.features.length} features`) || !checkFinite(s.core_points, "core_points", report)) return;
      const badCore = s.core_rows.findIndex((r, i) => r < 0 || r >= n || (i > 0 && r <= s.core_rows[i - 1]) || s.labels[r] < 0);
      if (badCore >= 0) return report(`core_rows[${badCore}] is not an increasing, clustered training row`, ["core_rows", badCore]);
      const bad = s.labels.findIndex((l) => l < -1 || l >= s.n_clusters);
      if (bad >= 0) report(`labels[${bad}] is ${s.labels[bad]}, not noise (−1) or a cluster of ${s.n_clusters}`, ["labels", bad]);
    }),
  );
export type DbscanState = z.infer<typeof dbscanState>;

/** Rows per radius query: the index answers a block at once (Euclidean brute force with the SIMD filter). */
const QUERY_BLOCK = 256;
/**
 * Neighbour lists kept from the core pass (4 bytes each): up to 2²⁵ (128 MiB), the growth needs
 * no second search — scikit-learn keeps every neighbourhood, without a bound. Beyond, they are
 * dropped and the core rows queried again while growing: O(n) memory.
 */
const KEPT_NEIGHBOURS = 2 ** 25;

/** Core flags and labels of scikit-learn's DBSCAN on a row-major matrix. */
export function dbscanLabels(X: Float64Array, n: number, d: number, eps: number, minSamples: number, signal?: FitContext["signal"], metric: RowMetric = euclidean, keepBudget = KEPT_NEIGHBOURS): { core: Uint8Array; labels: Int32Array<ArrayBuffer>; clusters: number } {
  const index = buildIndex(X, n, d, { algorithm: "auto", leafSize: 30, metric });
  const core = new Uint8Array(n);
  let kept: (Int32Array | undefined)[] | null = [];
  let keptCount = 0;
  for (let q0 = 0; q0 < n; q0 += QUERY_BLOCK) {
    throwIfAborted(signal);
    const q1 = Math.min(n, q0 + QUERY_BLOCK);
    const { offsets, indices } = index.radiusRows(X.subarray(q0 * d, q1 * d), q1 - q0, eps);
    for (let q = 0; q < q1 - q0; q++) {
      const count = offsets[q + 1] - offsets[q];
      if (count < minSamples) continue;
      core[q0 + q] = 1;
      if (kept === null) continue;
      keptCount += count;
      if (keptCount > keepBudget) kept = null;
      else kept[q0 + q] = indices.slice(offsets[q], offsets[q + 1]);
    }
  }
  // A cluster is every unlabelled row reachable from its first core row through core rows,
  // whatever the order of the search, so its frontier is expanded a block of core rows at a time.
  const labels = new Int32Array(n).fill(-1);
  const frontier: number[] = [];
  const Q = new Float64Array(QUERY_BLOCK * d);
  const visit = (j: number, cluster: number) => {
    if (labels[j] !== -1) return;
    labels[j] = cluster;
    if (core[j]) frontier.push(j);
  };
  let cluster = 0;
  for (let start = 0; start < n; start++) {
    if (labels[start] !== -1 || !core[start]) continue;
    labels[start] = cluster;
    frontier.push(start);
    while (frontier.length > 0) {
      throwIfAborted(signal);
      if (kept !== null) {
        for (const j of kept[frontier.pop()!]!) visit(j, cluster);
        continue;
      }
      const m = Math.min(QUERY_BLOCK, frontier.length);
      for (let q = 0; q < m; q++) {
        const i = frontier.pop()!;
        Q.set(X.subarray(i * d, i * d + d), q * d);
      }
      const { offsets, indices } = index.radiusRows(Q.subarray(0, m * d), m, eps);
      for (let t = 0; t < offsets[m]; t++) visit(indices[t], cluster);
    }
    cluster++;
  }
  return { core, labels, clusters: cluster };
}

function fit(train: TrainingSet, params: DbscanParams, ctx: FitContext): DbscanState {
  if (train.target) throw new UnusableInputError("dbscan is unsupervised: train it without a target");
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  const X = rowMajor(train.X);
  const { core, labels, clusters } = dbscanLabels(X, n, d, params.eps, params.min_samples, ctx.signal, rowMetricOf(params));
  const coreRows: number[] = [];
  for (let i = 0; i < n; i++) if (core[i]) coreRows.push(i);
  const corePoints = new Float64Array(coreRows.length * d);
  coreRows.forEach((r, c) => corePoints.set(X.subarray(r * d, r * d + d), c * d));
  ctx.progress(1);
  return { features, eps: params.eps, min_samples: params.min_samples, metric: params.metric, p: params.p, core_rows: Int32Array.from(coreRows), core_points: corePoints, labels, n_clusters: clusters };
}

function predict(s: DbscanState, X: Frame): Prediction {
  const d = s.features.length;
  const M = rowMajor(selectColumns(X, s.features));
  const n = X.rowCount;
  const m = s.core_rows.length;
  const metric = rowMetricOf(s);
  // Reduced distances (no root per pair); within eps is inclusive, as in the fit.
  const within = metric.toReduced(s.eps);
  const labels = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    let best = -1;
    let bestD = within;
    for (let c = 0; c < m; c++) {
      const dd = metric.reduced(M, i, s.core_points, c, d);
      if (dd < bestD || (best < 0 && dd <= bestD)) {
        bestD = dd;
        best = c;
      }
    }
    if (best >= 0) labels[i] = s.labels[s.core_rows[best]];
  }
  return { task: "clustering", labels };
}

function explain(s: DbscanState, maxValues: number | undefined): Record<string, unknown> {
  const budget = new ValueBudget(maxValuesOf(maxValues));
  const sizes = new Int32Array(s.n_clusters);
  let noise = 0;
  for (const l of s.labels) {
    if (l < 0) noise++;
    else sizes[l]++;
  }
  const listedSizes = budget.take(sizes);
  const core = budget.take(s.core_rows);
  return {
    n_clusters: s.n_clusters,
    noise_count: noise,
    eps: s.eps,
    min_samples: s.min_samples,
    metric: s.metric,
    sizes: listedSizes.values,
    n_core_samples: s.core_rows.length,
    /** 0-based training rows. */
    core_sample_ids: core.values,
    ...(listedSizes.truncated || core.truncated ? { truncated: true } : {}),
  };
}

export const dbscan: Algorithm<DbscanParams, DbscanState> = {
  name: "dbscan",
  family: "cluster",
  tasks: ["clustering"],
  description: "DBSCAN density clustering (eps, min_samples counting the row itself; noise −1); a new row joins the cluster of its nearest core object within eps, else noise.",
  params: dbscanParams,
  state: dbscanState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true,
  fit,
  predict,
  trainingLabels: (s) => s.labels,
  explain: (s, options) => explain(s, options?.maxValues),
};
