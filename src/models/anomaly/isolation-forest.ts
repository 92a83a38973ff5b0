/**
 * isolation_forest (Liu, Ting & Zhou 2008; scikit-learn's IsolationForest): an ensemble
 * of isolation trees (isolation-tree.ts), each grown on ψ = max_samples rows drawn
 * without replacement (with, when bootstrap), fitted without a target.
 *
 * Conventions (task "anomaly"): a row's score is the paper's s(x, ψ) = 2^(−E[h(x)]/c(ψ))
 * in (0, 1], higher is more anomalous — scikit-learn's score_samples is −s. A row is an
 * outlier (label 1; inlier 0) when its score is above the threshold: 0.5 for
 * contamination "auto" (scikit-learn's offset_ = −0.5), else the (1 − contamination)
 * quantile of the training rows' scores (numpy's linear percentile, as scikit-learn),
 * so that share of the training rows is flagged. offset = −threshold.
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { permutation } from "../../data/random.js";
import { UnusableInputError, throwIfAborted, type Algorithm, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { MAX_FEATURE_COUNT } from "../limits.js";
import { checkUnique, f64, i32, structural } from "../state-schemas.js";
import { ensembleSeed, memberRng } from "../ensemble/bootstrap.js";
import { MAX_ESTIMATORS, checkMaxFeatures, featureCount, maxFeaturesParams, nEstimatorsParam } from "../ensemble/params.js";
import { anomalyScore, growIsolationTree, heightLimit, meanDepth, pathLength, type IsolationTree } from "./isolation-tree.js";

/** scikit-learn's "auto" sample size: min(256, rows). */
export const AUTO_MAX_SAMPLES = 256;
/** scikit-learn's threshold for contamination "auto" (offset_ = −0.5), in score units. */
export const AUTO_THRESHOLD = 0.5;

export const isolationForestParams = z
  .object({
    n_estimators: nEstimatorsParam(100, "Isolation trees."),
    max_samples: z
      .union([z.literal("auto"), z.int().min(1).max(1_000_000_000)])
      .default("auto")
      .describe('Rows ψ each tree is grown on: "auto" = min(256, rows), or a count (above the row count: all rows). Not with max_samples_fraction.'),
    max_samples_fraction: z.number().gt(0).max(1).nullable().default(null).describe("ψ as a share of the training rows (at least one); only when max_samples is \"auto\"."),
    contamination: z
      .union([z.literal("auto"), z.number().gt(0).max(0.5)])
      .default("auto")
      .describe('Expected share of outliers: "auto" flags rows scoring above 0.5 (the paper\'s rule; scikit-learn\'s offset −0.5); a share in (0, 0.5] flags that share of the training rows (the threshold is their scores\' quantile).'),
    ...maxFeaturesParams,
    bootstrap: z.boolean().default(false).describe("Draw each tree's ψ rows with replacement."),
  })
  .strict()
  .superRefine(checkMaxFeatures)
  .superRefine((p, ctx) => {
    if (p.max_samples !== "auto" && p.max_samples_fraction !== null) ctx.addIssue({ code: "custom", path: ["max_samples_fraction"], message: "give max_samples (a count) or max_samples_fraction (a share), not both" });
  });
export type IsolationForestParams = z.infer<typeof isolationForestParams>;

const treeSchema = z.object({ feature: i32, threshold: f64, left: i32, right: i32, size: i32 }).strict();

const stateObject = z
  .object({
    features: z.array(z.string()).min(1).max(MAX_FEATURE_COUNT),
    /** ψ: the rows each tree was grown on (c(ψ) normalises the path lengths). */
    sample_size: z.int().min(1),
    /** Features each tree splits on, as resolved from the params. */
    max_features: z.int().min(1),
    contamination: z.union([z.literal("auto"), z.number().gt(0).max(0.5)]),
    /** Scores above this are outliers. */
    threshold: z.number(),
    trees: z.array(treeSchema).min(1).max(MAX_ESTIMATORS),
  })
  .strict();
export type IsolationForestState = z.infer<typeof stateObject>;

const state = stateObject.superRefine(
  structural<IsolationForestState>((s, report) => {
    if (!checkUnique(s.features, "feature", report, ["features"])) return;
    if (!Number.isFinite(s.threshold)) return report("threshold is not finite", ["threshold"], true);
    const d = s.features.length;
    for (let t = 0; t < s.trees.length; t++) {
      const tree = s.trees[t];
      const m = tree.feature.length;
      if (m < 1 || tree.threshold.length !== m || tree.left.length !== m || tree.right.length !== m || tree.size.length !== m) return report(`tree ${t}: its arrays need one entry per node`, ["trees", t]);
      for (let i = 0; i < m; i++) {
        const f = tree.feature[i];
        if (!(tree.size[i] >= 0)) return report(`tree ${t}: node ${i} has a negative size`, ["trees", t, "size", i]);
        if (f === -1) continue;
        if (!(f >= 0 && f < d)) return report(`tree ${t}: node ${i} splits on feature ${f} of ${d}`, ["trees", t, "feature", i]);
        if (!Number.isFinite(tree.threshold[i])) return report(`tree ${t}: node ${i} has a non-finite threshold`, ["trees", t, "threshold", i], true);
        // Children after their parent: every walk ends at a leaf.
        for (const child of [tree.left[i], tree.right[i]]) if (!(child > i && child < m)) return report(`tree ${t}: node ${i} has child ${child}`, ["trees", t, "left", i]);
      }
    }
  }),
);

/** ψ for n training rows. */
export function sampleSize(p: Pick<IsolationForestParams, "max_samples" | "max_samples_fraction">, n: number): number {
  if (p.max_samples_fraction !== null) return Math.max(1, Math.floor(p.max_samples_fraction * n));
  if (p.max_samples === "auto") return Math.min(AUTO_MAX_SAMPLES, n);
  return Math.min(p.max_samples, n);
}

/** numpy.percentile's default (linear interpolation between order statistics), q in [0, 100]. */
export function percentile(values: Float64Array, q: number): number {
  const sorted = Float64Array.from(values).sort();
  const pos = (q / 100) * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

function fit(train: TrainingSet, p: IsolationForestParams, ctx: FitContext): IsolationForestState {
  if (train.target) throw new UnusableInputError("isolation_forest is unsupervised: train it without a target (score it against a reference column with POST /v1/evaluations)");
  const features = numericFeatureNames(train.X);
  const n = train.X.rowCount;
  if (n < 1) throw new UnusableInputError("isolation_forest needs at least one training row");
  const d = features.length;
  const X = rowMajor(selectColumns(train.X, features));
  const psi = sampleSize(p, n);
  const k = featureCount(p, d, "all");
  const limit = heightLimit(psi);
  const seed = ensembleSeed(ctx.rng);
  const trees: IsolationTree[] = [];
  const rows = new Int32Array(psi);
  // Every row once, in some order: the first ψ after a partial shuffle are a draw without replacement,
  // whatever order earlier trees left them in (O(ψ) per tree, not O(n)).
  const pool = Int32Array.from({ length: n }, (_, i) => i);
  for (let t = 0; t < p.n_estimators; t++) {
    throwIfAborted(ctx.signal);
    const rng = memberRng(seed, t);
    // Features: scikit-learn draws max_features per tree (without replacement).
    const used = k === d ? Int32Array.from({ length: d }, (_, j) => j) : permutation(d, rng).slice(0, k);
    if (p.bootstrap) for (let i = 0; i < psi; i++) rows[i] = rng.int(n);
    else {
      for (let i = 0; i < psi; i++) {
        const j = i + rng.int(n - i);
        const tmp = pool[i];
        pool[i] = pool[j];
        pool[j] = tmp;
      }
      rows.set(pool.subarray(0, psi));
    }
    trees.push(growIsolationTree(X, d, rows, used, limit, rng));
    ctx.progress((t + 1) / p.n_estimators);
  }
  const partial: IsolationForestState = { features, sample_size: psi, max_features: k, contamination: p.contamination, threshold: AUTO_THRESHOLD, trees };
  if (p.contamination !== "auto") partial.threshold = percentile(scoreRows(partial, X, n), 100 * (1 - p.contamination));
  return partial;
}

function scoreRows(s: IsolationForestState, X: Float64Array, n: number): Float64Array {
  const d = s.features.length;
  const total = new Float64Array(n);
  // Tree by tree: one tree's arrays stay in cache while every row walks it.
  for (const tree of s.trees) for (let i = 0; i < n; i++) total[i] += pathLength(tree, X, d, i);
  return total.map((h) => anomalyScore(h / s.trees.length, s.sample_size));
}

function predict(s: IsolationForestState, X: Frame): Prediction {
  const scores = scoreRows(s, rowMajor(selectColumns(X, s.features)), X.rowCount);
  return { task: "anomaly", scores, labels: Int32Array.from(scores, (v) => (v > s.threshold ? 1 : 0)) };
}

export const isolationForest: Algorithm<IsolationForestParams, IsolationForestState> = {
  name: "isolation_forest",
  family: "anomaly",
  tasks: ["anomaly"],
  description: "Isolation forest: random trees isolate each row; rows isolated by short paths score near 1 and are flagged outliers above a threshold (0.5, or the contamination share of the training rows).",
  params: isolationForestParams,
  state,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: false, // thresholds drawn between the node's min and max follow any rescaling of a feature
  fit,
  predict,
  explain(s) {
    return {
      n_estimators: s.trees.length,
      sample_size: s.sample_size,
      height_limit: heightLimit(s.sample_size),
      max_features: s.max_features,
      contamination: s.contamination,
      threshold: s.threshold,
      offset: -s.threshold,
      mean_depth: s.trees.reduce((sum, t) => sum + meanDepth(t), 0) / s.trees.length,
      mean_nodes: s.trees.reduce((sum, t) => sum + t.feature.length, 0) / s.trees.length,
    };
  },
};
