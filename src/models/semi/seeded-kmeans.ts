/**
 * `seeded_kmeans` (the book's 13.6, constrained seed k-means; Basu, Banerjee & Mooney 2002):
 * k-means with one cluster per class, started at the means of each class's labelled rows.
 * With `keep_seeds` (the book's algorithm, Basu's Constrained-KMeans) a labelled row stays in
 * its class's cluster through Lloyd's iterations while unlabelled rows (class −1) join the
 * nearest centre; without it (Basu's Seeded-KMeans) the labelled rows only place the start.
 *
 * Lloyd's iterations are the cluster family's (../cluster/kmeans-engine.ts, its `fixed`
 * option); a row's class is its cluster's, and a new row takes the nearest centre's class.
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { UnusableInputError, type Algorithm, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { explainCentroids, sizesOf } from "../cluster/centroid-model.js";
import { absoluteTolerance, assign, lloyd } from "../cluster/kmeans-engine.js";
import { maxIterParam } from "../cluster/params.js";
import { checkClasses, checkFinite, checkLength, checkUnique, f64, i32, structural } from "../state-schemas.js";
import { seedMeans, seedsOf } from "./seeds.js";

export const seededKmeansParams = z
  .object({
    keep_seeds: z
      .boolean()
      .default(true)
      .describe("true: labelled rows stay in their class's cluster during the iterations (the book's constrained seed k-means); false: they only give the initial centres (seeded k-means)."),
    max_iter: maxIterParam(300, "Lloyd iterations."),
    tol: z.number().min(0).default(1e-4).describe("Stop when the summed squared shift of the centres is at most tol × the mean per-feature variance of the training rows, or when no row changes cluster."),
  })
  .strict();
type SeededKmeansParams = z.infer<typeof seededKmeansParams>;

export const seededKmeansState = z
  .object({
    features: z.array(z.string()).min(1),
    classes: z.array(z.string()),
    /** The class of each cluster (classes without a labelled row have none). */
    cluster_class: i32,
    /** clusters × features, row-major. */
    centres: f64,
    /** Training rows per cluster. */
    sizes: i32,
    /** Class of every training row (its cluster's), in training-row order. */
    labels: i32,
    inertia: z.number(),
    n_iter: z.int().min(0),
    labelled_rows: z.int().min(0),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"]) || !checkClasses(s.classes, report)) return;
      const k = s.cluster_class.length;
      if (k < 1) return report("has no clusters", ["cluster_class"]);
      const badClass = s.cluster_class.findIndex((c, i) => c < 0 || c >= s.classes.length || (i > 0 && c <= s.cluster_class[i - 1]));
      if (badClass >= 0) return report(`cluster_class[${badClass}] is not a class in ascending order`, ["cluster_class", badClass]);
      if (!checkLength(s.sizes, k, "sizes", report, `${k} clusters`)) return;
      if (!checkLength(s.centres, k * s.features.length, "centres", report, `${k} clusters × ${s.features.length} features`) || !checkFinite(s.centres, "centres", report)) return;
      const bad = s.labels.findIndex((l) => l < 0 || l >= s.classes.length);
      if (bad >= 0) report(`labels[${bad}] is not a class`, ["labels", bad]);
    }),
  );
type SeededKmeansState = z.infer<typeof seededKmeansState>;

function fit(train: TrainingSet, params: SeededKmeansParams, ctx: FitContext): SeededKmeansState {
  const target = train.target;
  if (target?.task !== "classification") throw new UnusableInputError("seeded_kmeans needs a categorical target (rows without a value are its unlabelled rows)");
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  const seeds = seedsOf("seeded_kmeans", target.y, target.classes.length);
  const k = seeds.clusterClass.length;
  const X = rowMajor(train.X);
  const run = lloyd(X, n, d, seedMeans(X, d, seeds), k, {
    maxIter: params.max_iter,
    tol: absoluteTolerance(X, n, d, params.tol),
    signal: ctx.signal,
    ...(params.keep_seeds ? { fixed: seeds.fixed } : {}),
  });
  ctx.progress(1);
  return {
    features,
    classes: [...target.classes],
    cluster_class: seeds.clusterClass,
    centres: run.centres,
    sizes: sizesOf(run.labels, k),
    labels: Int32Array.from(run.labels, (c) => seeds.clusterClass[c]),
    inertia: run.inertia,
    n_iter: run.nIter,
    labelled_rows: seeds.labelled,
  };
}

function predict(s: SeededKmeansState, X: Frame): Prediction {
  const n = X.rowCount;
  const labels = new Int32Array(n);
  // The nearest centre (ties: the lowest cluster, so the lowest class), as in training.
  assign(rowMajor(selectColumns(X, s.features)), n, s.features.length, s.centres, s.sizes.length, labels, new Float64Array(n));
  for (let i = 0; i < n; i++) labels[i] = s.cluster_class[labels[i]];
  return { task: "classification", labels };
}

export const seededKmeans: Algorithm<SeededKmeansParams, SeededKmeansState> = {
  name: "seeded_kmeans",
  family: "semi",
  tasks: ["classification"],
  description: "Constrained seed k-means: one cluster per class, started at the means of its labelled rows, which keep their cluster while rows without a target value join the nearest centre; a new row takes the nearest centre's class.",
  params: seededKmeansParams,
  state: seededKmeansState,
  accepts: { categorical: false, missing: false, weights: false, unlabelled: true },
  scaleSensitive: true, // Euclidean distances in input units
  fit,
  predict,
  trainingLabels: (s) => s.labels,
  explain: (s, options) => ({
    ...explainCentroids({ features: s.features, centres: s.centres, sizes: s.sizes, labels: s.labels, inertia: s.inertia, n_iter: s.n_iter }, options?.maxValues),
    cluster_classes: Array.from(s.cluster_class, (c) => s.classes[c]),
    labelled_rows: s.labelled_rows,
    unlabelled_rows: s.labels.length - s.labelled_rows,
  }),
};
