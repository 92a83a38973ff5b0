/**
 * random_forest (seed 002, 随机森林): bagging of cart trees with a random subset of
 * `max_features` attributes drawn at every node. Classification averages the trees'
 * class probabilities (scikit-learn's rule), regression their means. Takes
 * categorical and missing values natively, as cart does, and sample weights
 * (multiplied into the bootstrap counts).
 *
 * Reports the out-of-bag estimate (oob.ts) and impurity importances (each tree's
 * normalised impurity decrease per feature, averaged over the trees) in explain, and,
 * when `permutation_n_repeats` > 0, permutation importances on the out-of-bag rows
 * (permutation-importance.ts), computed at fit time since explain sees no data.
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import type { Algorithm, FitContext, Prediction, TrainingSet } from "../contract.js";
import { UnusableInputError } from "../contract.js";
import { checkClasses, columnSchema, f64, structural } from "../state-schemas.js";
import { engineOptions, maxCategoriesParam, stoppingParams } from "../tree/params.js";
import { featureImportances, depthOf } from "../tree/explain.js";
import { predictValues } from "../tree/predict.js";
import { columnsFor, columnsForFit } from "../tree/tree-columns.js";
import type { TreeState } from "../tree/tree-state.js";
import { LEAF, THRESHOLD, treeStateSchema, valueWidth } from "../tree/tree-state.js";
import type { TreeColumns } from "../tree/tree-columns.js";
import { ensembleSeed } from "./bootstrap.js";
import { addOutOfBag, growTrees, presort, type ForestPlan } from "./forest-grow.js";
import { OobAccumulator, oobSchema } from "./oob.js";
import { oobPermutationImportances } from "./permutation-importance.js";
import { ENSEMBLE_FAMILY, MAX_ESTIMATORS, checkMaxFeatures, featureCount, maxFeaturesParams, maxSamplesParam, nEstimatorsParam } from "./params.js";
import { groupDigits } from "../../data/group-digits.js";

const { max_features: _treeMaxFeatures, ...treeStopping } = stoppingParams;

/** Shuffles per feature: each is a pass over the out-of-bag rows of every tree using it. */
export const MAX_PERMUTATION_REPEATS = 100;
/** Rows scored for permutation importances: repeats × rows × classes sums are held at once. */
export const MAX_PERMUTATION_ROWS = 100_000;

const permutationSchema = z
  .object({
    rows: z.literal("out_of_bag"),
    metric: z.enum(["accuracy", "r2"]),
    n_repeats: z.int().min(1),
    rows_scored: z.int().min(1),
    baseline: z.number(),
    mean: f64,
    std: f64,
  })
  .strict();

export const randomForestParams = z
  .object({
    n_estimators: nEstimatorsParam(100, "Trees in the forest."),
    criterion: z.enum(["gini_index", "info_gain", "mse"]).nullable().default(null).describe("null: gini_index for classification, mse for regression."),
    ...maxFeaturesParams,
    bootstrap: z.boolean().default(true).describe("Draw each tree's rows with replacement (false: max_samples of the rows without replacement, all of them by default)."),
    max_samples: maxSamplesParam,
    oob_score: z.boolean().default(true).describe("Compute the out-of-bag estimate (needs bootstrap or max_samples below 1); shown by explain."),
    permutation_n_repeats: z
      .int()
      .min(0)
      .max(MAX_PERMUTATION_REPEATS)
      .default(0)
      .describe(`Permutation importances (scikit-learn's permutation_importance, on the out-of-bag rows with out-of-bag predictions): shuffles per feature; 0: not computed. At most ${MAX_PERMUTATION_REPEATS}.`),
    permutation_max_rows: z
      .int()
      .min(1)
      .max(MAX_PERMUTATION_ROWS)
      .default(10_000)
      .describe(`Out-of-bag rows the permutation importances are scored on (a seeded draw when more are out of bag): the cost is features × (repeats + 1) × these rows' walks of the trees using each feature. At most ${groupDigits(MAX_PERMUTATION_ROWS)}.`),
    ...treeStopping,
    max_categories_per_split: maxCategoriesParam(null),
  })
  .strict()
  .superRefine(checkMaxFeatures);
export type RandomForestParams = z.infer<typeof randomForestParams>;

const stateObject = z
  .object({
    task: z.enum(["classification", "regression"]),
    classes: z.array(z.string()),
    features: z.array(columnSchema),
    /** Features drawn at each node, as resolved from the params on the training data. */
    max_features: z.int().min(1),
    trees: z.array(treeStateSchema).min(1).max(MAX_ESTIMATORS),
    /** Mean over the trees of each tree's normalised impurity decrease per feature. */
    importances: f64,
    oob: oobSchema.nullable(),
    /** Absent in artifacts from before permutation importances existed. */
    permutation: permutationSchema.nullable().optional(),
  })
  .strict();
export type RandomForestState = z.infer<typeof stateObject>;

const state = stateObject.superRefine(
  structural<RandomForestState>((s, report) => {
    if (s.task === "classification" && !checkClasses(s.classes, report)) return;
    if (s.task === "regression" && s.classes.length > 0) return report("a regression forest has no classes", ["classes"]);
    if (s.importances.length !== s.features.length) return report("importances need one value per feature", ["importances"]);
    if (s.permutation && (s.permutation.mean.length !== s.features.length || s.permutation.std.length !== s.features.length)) return report("permutation importances need one value per feature", ["permutation"]);
    const same = JSON.stringify(s.features);
    for (let t = 0; t < s.trees.length; t++) {
      const tree = s.trees[t];
      // Predict reads every tree through the forest's columns: they must agree on features, task and classes.
      if (tree.task !== s.task || JSON.stringify(tree.classes) !== JSON.stringify(s.classes) || JSON.stringify(tree.features) !== same) return report(`tree ${t} does not match the forest's task, classes or features`, ["trees", t]);
      // A forest grows majority leaves, and its single-row walk (addFewRows) reads nothing else.
      if (tree.leafModelOffset || tree.leafModels) return report(`tree ${t} has perceptron leaves, which a forest never grows`, ["trees", t, "leafModelOffset"]);
    }
  }),
);

/**
 * The forest's plan: everything a tree depends on besides its index. Drawn from the fit's
 * generator exactly as fit draws it, so a caller that grows trees [from, to) with
 * growTrees (forest-grow.ts) on another thread gets the trees fit would grow.
 */
export function forestPlan(train: TrainingSet, p: RandomForestParams, rng: FitContext["rng"]): ForestPlan & { maxFeatures: number } {
  const target = train.target;
  if (!target) throw new UnusableInputError("random_forest needs a target");
  const regression = target.task === "regression";
  const cols = columnsForFit(train.X);
  const d = cols.schema.length;
  if (d === 0) throw new UnusableInputError("random_forest needs at least one feature");
  const n = cols.n;
  const k = featureCount(p, d, regression ? "all" : "sqrt");
  const samples = Math.max(1, Math.round(p.max_samples * n));
  const engine = engineOptions(
    { ...p, max_features: k, pruning: "none", ccp_alpha: 0 },
    { criterion: p.criterion ?? (regression ? "mse" : "gini_index"), categoricalSplit: "binary" },
  );
  return { trees: p.n_estimators, bootstrap: p.bootstrap, samples, oob: p.oob_score && (p.bootstrap || samples < n), engine, seed: ensembleSeed(rng), maxFeatures: k };
}

function fit(train: TrainingSet, p: RandomForestParams, ctx: FitContext): RandomForestState {
  const plan = forestPlan(train, p, ctx.rng);
  const target = train.target as NonNullable<TrainingSet["target"]>;
  const regression = target.task === "regression";
  const cols = columnsForFit(train.X);
  const d = cols.schema.length;
  const k = plan.maxFeatures;
  const W = regression ? 1 : target.classes.length;
  const oob = plan.oob ? new OobAccumulator(target, W) : null;
  const permute = p.permutation_n_repeats > 0;
  const oobRows: Int32Array[] | undefined = permute ? [] : undefined;
  // Drawn before the trees' own seeds are used, so turning importances on changes no tree.
  const permutationRng = ctx.rng.fork();
  let trees: TreeState[];
  if (ctx.members && plan.trees > 1) {
    // Trees may grow on other threads too (each depends only on the set, the plan and its index); out-of-bag sums
    // are then added here in tree order, as growTrees adds them, so the forest is the same wherever a tree grew.
    // Sorted once here and handed to the other threads with the work (in shared memory: member-spread.ts).
    const order = presort(train);
    // Trees are claimed in index order across threads, so the index claimed tells how far the forest has got.
    const growHere = (t: number) => {
      const tree = growTrees(train, plan, order, t, t + 1, { ...ctx, progress: () => {} }, null)[0];
      ctx.progress((t + 1) / plan.trees);
      return tree;
    };
    trees = ctx.members.grow({ kind: "forest", train, plan, prepared: order }, plan.trees, growHere);
    addOutOfBag(train, plan, trees, oob, oobRows);
  } else trees = growTrees(train, plan, presort(train), 0, plan.trees, ctx, oob, oobRows);
  const features = cols.schema.map((s) => ({ ...s }));
  for (const t of trees) t.features = features;
  const permutation = oobRows ? oobPermutationImportances(train.X, target, trees, oobRows, W, { repeats: p.permutation_n_repeats, maxRows: p.permutation_max_rows, rng: permutationRng, signal: ctx.signal }) : null;
  return {
    task: target.task,
    classes: regression ? [] : [...target.classes],
    features,
    max_features: k,
    trees,
    importances: meanImportances(trees, d),
    oob: oob ? oob.result() : null,
    permutation,
  };
}

function meanImportances(trees: readonly TreeState[], d: number): Float64Array<ArrayBuffer> {
  const out = new Float64Array(d);
  for (const t of trees) {
    const imp = featureImportances(t);
    t.features.forEach((f, j) => (out[j] += imp[f.name] / trees.length));
  }
  return out;
}

/** Per tree, the leaf outputs ready to add: class weights normalised to probabilities, or means. Built once per loaded state. */
const leafOutputs = new WeakMap<RandomForestState, Float64Array[]>();

function leavesOf(s: RandomForestState): Float64Array[] {
  let out = leafOutputs.get(s);
  if (out) return out;
  const W = valueWidth(s);
  out = s.trees.map((t) => {
    const v = Float64Array.from(t.value);
    if (s.task === "classification") {
      for (let node = 0; node < t.kind.length; node++) {
        let total = 0;
        for (let k = 0; k < W; k++) total += v[node * W + k];
        for (let k = 0; k < W; k++) v[node * W + k] = total > 0 ? v[node * W + k] / total : 0;
      }
    }
    return v;
  });
  leafOutputs.set(s, out);
  return out;
}

/** Below this many rows the trees are walked row by row here: tree/predict.ts's blocked walk pays its set-up once per tree. */
const FEW_ROWS = 8;

/** Row-major n × width: the trees' averaged probabilities (classification) or means. */
export function forestValues(s: RandomForestState, X: Frame): Float64Array {
  const cols = columnsFor(s.features, X);
  const W = valueWidth(s);
  const out = new Float64Array(cols.n * W);
  if (cols.n <= FEW_ROWS) addFewRows(s, cols, out, W);
  else {
    for (const tree of s.trees) {
      const v = predictValues(tree, cols);
      for (let i = 0; i < out.length; i++) out[i] += v[i];
    }
  }
  const T = s.trees.length;
  for (let i = 0; i < out.length; i++) out[i] /= T;
  return out;
}

/**
 * Single rows (the serving path): each tree walked with plain threshold tests; a tree
 * that meets a categorical or oblique test or a missing value hands that row to the
 * general walk of tree/predict.ts.
 */
function addFewRows(s: RandomForestState, cols: TreeColumns, out: Float64Array, W: number): void {
  const leaves = leavesOf(s);
  for (let t = 0; t < s.trees.length; t++) {
    const { kind, feature, threshold, childStart } = s.trees[t];
    const leaf = leaves[t];
    let general: Float64Array | null = null;
    for (let i = 0; i < cols.n; i++) {
      let node = 0;
      for (;;) {
        const k = kind[node];
        if (k === LEAF) break;
        const column = k === THRESHOLD ? cols.num[feature[node]] : null;
        const v = column ? column[i] : NaN;
        if (v !== v) {
          node = -1;
          break;
        }
        node = childStart[node] + (v > threshold[node] ? 1 : 0);
      }
      if (node >= 0) for (let c = 0; c < W; c++) out[i * W + c] += leaf[node * W + c];
      else {
        general ??= predictValues(s.trees[t], cols);
        for (let c = 0; c < W; c++) out[i * W + c] += general[i * W + c];
      }
    }
  }
}

function predict(s: RandomForestState, X: Frame): Prediction {
  const values = forestValues(s, X);
  if (s.task === "regression") return { task: "regression", values };
  const K = s.classes.length;
  const n = X.rowCount;
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let k = 1; k < K; k++) if (values[i * K + k] > values[i * K + best]) best = k;
    labels[i] = best;
  }
  return { task: "classification", labels, proba: values };
}

function explain(s: RandomForestState) {
  const nodes = s.trees.map((t) => t.kind.length);
  const depths = s.trees.map((t) => depthOf(t));
  const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  return {
    n_estimators: s.trees.length,
    max_features: s.max_features,
    oob: s.oob,
    feature_importances: Object.fromEntries(s.features.map((f, j) => [f.name, s.importances[j]])),
    permutation_importances: s.permutation
      ? {
          rows: s.permutation.rows,
          metric: s.permutation.metric,
          n_repeats: s.permutation.n_repeats,
          rows_scored: s.permutation.rows_scored,
          baseline: s.permutation.baseline,
          mean: Object.fromEntries(s.features.map((f, j) => [f.name, (s.permutation as { mean: Float64Array }).mean[j]])),
          std: Object.fromEntries(s.features.map((f, j) => [f.name, (s.permutation as { std: Float64Array }).std[j]])),
        }
      : null,
    trees: { node_count: { mean: mean(nodes), min: Math.min(...nodes), max: Math.max(...nodes) }, depth: { mean: mean(depths), max: Math.max(...depths) } },
  };
}

export const randomForest: Algorithm<RandomForestParams, RandomForestState> = {
  name: "random_forest",
  family: ENSEMBLE_FAMILY,
  tasks: ["classification", "regression"],
  description: "Random forest: cart trees on bootstraps with max_features attributes drawn at every node; averaged probabilities or means; out-of-bag estimate, impurity and (optional) out-of-bag permutation importances.",
  params: randomForestParams,
  state,
  accepts: { categorical: true, missing: true, weights: true },
  scaleSensitive: false,
  fit,
  predict,
  explain,
};
