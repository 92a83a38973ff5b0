/**
 * What a fitted clustering model says about its training rows (GET /v1/models/{id}:
 * n_clusters, noise_count) and its evaluation (POST /v1/evaluations with a clustering
 * model_id): internal indices in the space the algorithm clustered (after the pipeline's
 * steps, so after automatic scaling), external ones against a `reference` column.
 */
import { conformFrame } from "../data/conform.js";
import { getColumn, type Frame } from "../data/frame.js";
import { createRng } from "../data/random.js";
import { rowMajor } from "../models/design-matrix.js";
import { summarizeClustering } from "../evaluation/summarize/clustering.js";
import type { FittedModel } from "./artifact.js";
import { applySteps } from "./pipeline.js";
import type { EvaluationResult } from "./train.js";

/** Silhouette and Dunn cost O(n²): past this many rows they are computed on a seeded sample of this size. */
export const INTERNAL_INDEX_SAMPLE = 5000;

export interface ClusterCounts {
  n_clusters: number;
  noise_count: number;
}

export function clusterCounts(labels: ArrayLike<number>): ClusterCounts {
  const clusters = new Set<number>();
  let noise = 0;
  for (let i = 0; i < labels.length; i++) {
    if (labels[i] === -1) noise++;
    else clusters.add(labels[i]);
  }
  return { n_clusters: clusters.size, noise_count: noise };
}

/** The training rows' counts, from the labels the state keeps; null for any other task. */
export function trainingClusterCounts(model: Pick<FittedModel, "task" | "algorithm" | "pipeline">): ClusterCounts | null {
  if (model.task !== "clustering" || !model.algorithm.trainingLabels) return null;
  return clusterCounts(model.algorithm.trainingLabels(model.pipeline.state));
}

export interface ClusteringScoreOptions {
  /** The frame is the dataset the model was trained on, in the same row order: the stored labels are used (transductive models need this). */
  readonly trainingRows: boolean;
  /** A column of the frame holding a reference labelling (classes, a known grouping) for the external indices. */
  readonly reference?: string;
  readonly seed?: number;
}

export function scoreClustering(model: FittedModel, frame: Frame, options: ClusteringScoreOptions, progress: (f: number) => void): EvaluationResult {
  const X = applySteps(model.pipeline.steps, conformFrame(frame, model.features));
  let labels: Int32Array;
  if (options.trainingRows && model.algorithm.trainingLabels) labels = model.algorithm.trainingLabels(model.pipeline.state);
  else if (model.algorithm.transductive) throw new Error(`${model.algorithm.name} is transductive: it can only be scored on its training rows`);
  else {
    const p = model.algorithm.predict(model.pipeline.state, X);
    if (p.task !== "clustering") throw new Error("a clustering model predicted another task");
    labels = p.labels;
  }
  progress(0.3);
  if (labels.length !== frame.rowCount) throw new Error(`the model labels ${labels.length} rows and the dataset has ${frame.rowCount}`);
  const points = { X: rowMajor(X), nFeatures: X.columns.length };
  let reference: Int32Array | undefined;
  let keep: Int32Array | null = null;
  if (options.reference !== undefined) {
    const codes = referenceCodes(frame, options.reference);
    // Rows without a reference value are left out of the external indices only.
    const kept: number[] = [];
    codes.forEach((c, i) => c >= 0 && kept.push(i));
    keep = Int32Array.from(kept);
    reference = Int32Array.from(kept, (i) => codes[i]);
  }
  const seed = options.seed ?? 0;
  const internal = summarizeClustering({ labels, points, silhouetteSampleSize: labels.length > INTERNAL_INDEX_SAMPLE ? INTERNAL_INDEX_SAMPLE : undefined, rng: createRng(seed) });
  progress(0.8);
  const metrics = { ...internal.metrics, ...clusterCounts(labels) };
  if (reference && keep) Object.assign(metrics, summarizeClustering({ labels: Int32Array.from(keep, (i) => labels[i]), reference }).metrics);
  progress(1);
  return { metrics, test_rows: labels.length };
}

/** A reference column as codes (−1 missing): only the partition matters, so a numeric column's distinct values are its groups. */
function referenceCodes(frame: Frame, name: string): Int32Array {
  const c = getColumn(frame, name);
  if (c.type === "categorical") return c.codes;
  const groups = new Map<number, number>();
  return Int32Array.from(c.values, (v) => {
    if (Number.isNaN(v)) return -1;
    let g = groups.get(v);
    if (g === undefined) groups.set(v, (g = groups.size));
    return g;
  });
}
