/**
 * `diana` (seed 002: DIANA, 分裂层次聚类): divisive hierarchical clustering by splinter groups
 * (divisive.ts) under any vector metric (Euclidean by default), cut into flat clusters like agnes (`cut`: a number of clusters, or
 * scikit-learn's distance-threshold rule on the split heights). Transductive: it labels only
 * the rows it was fitted on (/predict answers 422 transductive_model; the labels come from
 * trainingLabels). Clusters are numbered by their lowest training row.
 *
 * explain gives the dendrogram as agnes does: merges in scipy's format (the splits read
 * backwards), each at the height of the diameter of the cluster that split.
 *
 * Memory: the condensed n × n distance matrix, so at most DIANA_MAX_ROWS rows (limits.ts).
 */
import { z } from "zod";
import { UnusableInputError, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { agnesState, cutSchema, explainMerges, type AgnesState } from "./agnes.js";
import { diana as divide } from "./divisive.js";
import { DIANA_MAX_ROWS } from "./limits.js";
import { clustersAtThreshold, cutTree } from "./linkage.js";
import { metricFields, rowMetricOf } from "./params.js";
import { groupDigits } from "../../data/group-digits.js";

export const dianaParams = z.object({ cut: cutSchema, ...metricFields }).strict();
export type DianaParams = z.infer<typeof dianaParams>;

/** The same merge list, labels and cluster count as agnes. */
export const dianaState = agnesState;
export type DianaState = AgnesState;

function fit(train: TrainingSet, params: DianaParams, ctx: FitContext): DianaState {
  if (train.target) throw new UnusableInputError("diana is unsupervised: train it without a target");
  const features = numericFeatureNames(train.X);
  const n = train.X.rowCount;
  if (n < 1) throw new UnusableInputError("diana needs at least one training row");
  if (n > DIANA_MAX_ROWS) {
    throw new UnusableInputError(`diana keeps an n × n distance matrix and accepts at most ${groupDigits(DIANA_MAX_ROWS)} rows (this fit has ${groupDigits(n)}); sample the rows, or use agnes with single linkage or kmeans`);
  }
  const merges = divide(rowMajor(train.X), n, features.length, ctx.signal, rowMetricOf(params));
  const k = params.cut.kind === "n_clusters" ? params.cut.n_clusters : clustersAtThreshold(merges, params.cut.distance_threshold);
  if (k > n) throw new UnusableInputError(`n_clusters is ${k} but there are only ${n} training rows`);
  ctx.progress(1);
  return { features, ...merges, labels: cutTree(merges, n, k), n_clusters: k };
}

export const diana: Algorithm<DianaParams, DianaState> = {
  name: "diana",
  family: "cluster",
  tasks: ["clustering"],
  description: `DIANA divisive hierarchical clustering (split the cluster of largest diameter by a splinter group), cut by n_clusters or a distance threshold; transductive (labels of the training rows only); explain gives the dendrogram with split heights = diameters. At most ${groupDigits(DIANA_MAX_ROWS)} rows.`,
  params: dianaParams,
  state: dianaState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true,
  transductive: true,
  fit,
  predict() {
    throw new UnusableInputError("diana is transductive: it labels its training rows only (GET /v1/models/{id}/labels); use kmeans, gmm or dbscan to label new rows");
  },
  trainingLabels: (s) => s.labels,
  explain: (s, options) => explainMerges(s, options?.maxValues),
};
