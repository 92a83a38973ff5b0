/**
 * `knn`: k-nearest-neighbour classification and regression (seed 002, lazy
 * learning: "近朱者赤近墨者黑"). Fitting stores the training rows in the layout
 * the metric measures (encode.ts) and, for vdm/hvdm, fits the metric's tables;
 * the neighbour index (src/data/neighbors) is built once per loaded state, on the
 * first prediction, and kept beside it. Votes and weights: vote.ts.
 *
 * Input: categorical columns are taken natively (accepts.categorical), because
 * vdm/hvdm need the levels themselves; under the vector metrics they count as
 * their 0/1 indicators, the same numbers the pipeline's one_hot would feed in.
 * Missing values are imputed by the pipeline in front. Scale-sensitive: the
 * pipeline standardises numeric columns unless auto_scale is false (hvdm divides
 * by 4σ itself and is unaffected).
 */
import { frameSchema, type ColumnSchema, type Frame } from "../../data/frame.js";
import { buildIndex, resolveAlgorithm, vectorMetric, type NeighborIndex, type RowMetric } from "../../data/neighbors/index.js";
import { fitVdm, vdmMetric } from "../../data/neighbors/vdm.js";
import { UnusableInputError, type Algorithm, type Prediction, type TrainingSet } from "../contract.js";
import { encodedWidth, encodeRows, type Layout } from "./encode.js";
import { knnState, type KnnState } from "./knn-state.js";
import { knnParams, type KnnParams } from "./params.js";
import { fitWhitening, whiten } from "./mahalanobis.js";
import { classify as classifyVotes, regress as regressVotes } from "./vote.js";

const layoutOf = (metric: KnnParams["metric"]): Layout => (metric === "vdm" || metric === "hvdm" ? "codes" : "indicators");

function checkFiniteRows(X: Float64Array, features: readonly ColumnSchema[], layout: Layout): void {
  for (let i = 0; i < X.length; i++) {
    if (Number.isFinite(X[i])) continue;
    const width = encodedWidth(features, layout);
    throw new UnusableInputError(`row ${Math.floor(i / width)} has a missing or non-finite value; knn needs complete rows (impute them first)`);
  }
}

function fit(train: TrainingSet, params: KnnParams): KnnState {
  const target = train.target;
  if (!target) throw new UnusableInputError("knn needs a target");
  const n = train.X.rowCount;
  if (n < params.n_neighbors) throw new UnusableInputError(`n_neighbors is ${params.n_neighbors} but there are only ${n} training rows`);
  const features = frameSchema(train.X);
  const layout = layoutOf(params.metric);
  if (params.metric === "vdm" && features.some((f) => f.type !== "categorical")) throw new UnusableInputError("metric vdm measures categorical columns only; use hvdm for a table with numeric columns");
  const encoded = encodeRows(train.X, features, layout);
  checkFiniteRows(encoded, features, layout);
  const whitening = params.metric === "mahalanobis" ? fitWhitening(encoded, n, encodedWidth(features, layout)) : null;
  const X = whitening ? whiten(encoded, n, encodedWidth(features, layout), whitening) : encoded;
  if (target.task === "regression") {
    if (layout === "codes") throw new UnusableInputError(`metric ${params.metric} is fitted from class frequencies: it needs a categorical target`);
    return { task: "regression", features, settings: params, X, whitening, y: Float64Array.from(target.y) };
  }
  let vdm: Extract<KnnState, { task: "classification" }>["vdm"] = null;
  if (layout === "codes") {
    const levels = Int32Array.from(features, (f) => (f.type === "categorical" ? f.levels.length : -1));
    const t = fitVdm(params.metric as "vdm" | "hvdm", params.p, X, n, features.length, levels, target.y, target.classes.length);
    vdm = { levels: t.levels, offsets: t.offsets, probs: t.probs, spread: t.spread };
  }
  return { task: "classification", classes: [...target.classes], features, settings: params, X, whitening, y: Int32Array.from(target.y), vdm };
}

/** Coordinates of the searched rows: the encoded width, or the whitening's rank under mahalanobis. */
function searchedWidth(s: KnnState): number {
  return s.whitening ? s.whitening.rank : encodedWidth(s.features, layoutOf(s.settings.metric));
}

function metricOf(s: KnnState): RowMetric {
  const { metric, p } = s.settings;
  // Whitened rows: Mahalanobis distance is the Euclidean distance between them.
  if (metric === "mahalanobis") return vectorMetric("euclidean");
  if (metric !== "vdm" && metric !== "hvdm") return vectorMetric(metric, p);
  if (s.task !== "classification" || s.vdm === null) throw new Error(`${metric} state without its tables`);
  return vdmMetric({ kind: metric, p, classes: s.classes.length, ...s.vdm });
}

/** The index of a loaded state, built on its first prediction and kept as long as the state. */
const indexes = new WeakMap<KnnState, NeighborIndex>();

export function knnIndex(s: KnnState): NeighborIndex {
  let index = indexes.get(s);
  if (!index) {
    index = buildIndex(s.X, s.y.length, searchedWidth(s), { algorithm: s.settings.algorithm, leafSize: s.settings.leaf_size, metric: metricOf(s) });
    indexes.set(s, index);
  }
  return index;
}

function predict(s: KnnState, frame: Frame): Prediction {
  const layout = layoutOf(s.settings.metric);
  const encoded = encodeRows(frame, s.features, layout);
  if (layout === "indicators") checkFiniteRows(encoded, s.features, layout);
  const m = frame.rowCount;
  const Q = s.whitening ? whiten(encoded, m, encodedWidth(s.features, layout), s.whitening) : encoded;
  const k = s.settings.n_neighbors;
  const result = knnIndex(s).kneighbors(Q, m, k);
  const byDistance = s.settings.weights === "distance";
  if (s.task === "regression") return { task: "regression", values: regressVotes(result, m, k, s.y, byDistance) };
  const { labels, proba } = classifyVotes(result, m, k, s.y, s.classes.length, byDistance);
  return { task: "classification", labels, proba };
}

export const knn: Algorithm<KnnParams, KnnState> = {
  name: "knn",
  family: "neighbors",
  tasks: ["classification", "regression"],
  description:
    "k-nearest neighbours: majority or distance-weighted vote (probabilities from the vote), mean or distance-weighted mean; minkowski/euclidean/manhattan/chebyshev/mahalanobis, or vdm/hvdm for categorical and mixed tables; kd-tree, ball tree or blocked brute force. Ties: the lower training row is the nearer neighbour, the lower class wins a tied vote.",
  params: knnParams,
  state: knnState,
  accepts: { categorical: true, missing: false, weights: false },
  scaleSensitive: true, // distances are in input units
  fit: (train, params) => fit(train, params),
  predict,
  explain: (s) => ({
    training_rows: s.y.length,
    coordinates: searchedWidth(s),
    n_neighbors: s.settings.n_neighbors,
    weights: s.settings.weights,
    metric: s.settings.metric,
    ...(s.settings.metric === "minkowski" || s.settings.metric === "vdm" || s.settings.metric === "hvdm" ? { p: s.settings.p } : {}),
    // What `auto` resolves to, without building the index.
    algorithm: resolveAlgorithm(s.settings.algorithm, searchedWidth(s), metricOf(s)),
  }),
};
