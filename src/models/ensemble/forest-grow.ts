/**
 * Growing a random forest on the one tree engine (src/models/tree/): each tree is a
 * cart grown on a bootstrap given as weights (a row drawn twice weighs 2; the rows
 * never drawn are simply not in the tree's arena), with `max_features` attributes
 * drawn at every node by the engine itself.
 *
 * The numeric columns are sorted once for the whole forest, their values kept in that
 * order; a tree's presorted lists are that order filtered to its bag (O(n) per feature,
 * read in order, no sort per tree), through makeArena's `sortedFrom` hook.
 *
 * Tree t depends only on (seed, t) (bootstrap.ts memberRng), so growing trees
 * [a, b) in one call and [b, c) in another gives the same forest as [a, c): that is
 * what lets a job spread its trees over several workers (FitContext.members,
 * src/training/member-spread.ts); without it they grow in one loop on the job's thread.
 */
import type { FitContext, TrainingSet } from "../contract.js";
import { throwIfAborted } from "../contract.js";
import type { EngineOptions } from "../tree/engine-options.js";
import { fitTree } from "../tree/grow.js";
import { predictValues } from "../tree/predict.js";
import type { SortedSlots } from "../tree/arena.js";
import { argsortByValue } from "../tree/sort.js";
import { columnsFor, columnsForFit } from "../tree/tree-columns.js";
import type { TreeState } from "../tree/tree-state.js";
import { takeRows } from "../../data/frame.js";
import { bootstrapCounts, inBag, memberRng, subsampleCounts } from "./bootstrap.js";
import { OobAccumulator, outOfBag } from "./oob.js";
import type { OobEstimate } from "./oob.js";

export interface ForestPlan {
  readonly trees: number;
  readonly bootstrap: boolean;
  /** Rows drawn per tree (with replacement when bootstrap). */
  readonly samples: number;
  readonly oob: boolean;
  readonly engine: EngineOptions;
  /** Seed every tree's generator derives from (with its index). */
  readonly seed: number;
}

/** One numeric column sorted: rows by value (NaN last, ties by row), and their values and targets in that order. */
export interface SortedColumn {
  readonly order: Int32Array;
  readonly values: Float64Array;
  /** Class indices (classification) or target values (regression). */
  readonly target: Int32Array | Float64Array;
}

/** Per numeric feature, its column sorted (null for a categorical one): shared by every tree of the forest. */
export function presort(train: TrainingSet): (SortedColumn | null)[] {
  const cols = columnsForFit(train.X);
  const y = (train.target as NonNullable<TrainingSet["target"]>).y;
  const ids = Int32Array.from({ length: cols.n }, (_, i) => i);
  return cols.num.map((v) => {
    if (!v) return null;
    const order = argsortByValue(ids, v);
    const values = new Float64Array(order.length);
    const target = y instanceof Int32Array ? new Int32Array(order.length) : new Float64Array(order.length);
    for (let i = 0; i < order.length; i++) {
      values[i] = v[order[i]];
      target[i] = y[order[i]];
    }
    return { order, values, target };
  });
}

/**
 * One thread's buffers for its trees' lists, per forest sort: a tree's lists are garbage once
 * it is grown, and allocating 20 columns' worth per tree (tens of MB outside the heap) kept
 * the collector busy. Keyed by the sort, which a helper thread receives once per fit.
 */
const listBuffers = new WeakMap<readonly (SortedColumn | null)[], ({ list: Int32Array; values: Float64Array; target: Int32Array | Float64Array } | null)[]>();

function buffersFor(order: readonly (SortedColumn | null)[]) {
  let b = listBuffers.get(order);
  if (!b) {
    // One spare entry: sortedFrom writes every row and only advances past bag rows.
    b = order.map((c) => (c ? { list: new Int32Array(c.order.length + 1), values: new Float64Array(c.order.length + 1), target: c.target instanceof Int32Array ? new Int32Array(c.order.length + 1) : new Float64Array(c.order.length + 1) } : null));
    listBuffers.set(order, b);
  }
  return b;
}

/** Tree t's bootstrap counts: the first draws of its generator, as growTrees makes them. */
function treeCounts(n: number, plan: ForestPlan, rng: ReturnType<typeof memberRng>): Float64Array {
  return plan.bootstrap ? bootstrapCounts(n, plan.samples, rng) : plan.samples < n ? subsampleCounts(n, plan.samples, rng) : new Float64Array(n).fill(1);
}

/**
 * Trees [from, to) of the forest, and (when given) their out-of-bag outputs added to `oob`;
 * with `oobRows`, each tree's out-of-bag rows are pushed to it (permutation importances).
 */
export function growTrees(train: TrainingSet, plan: ForestPlan, order: readonly (SortedColumn | null)[], from: number, to: number, ctx: FitContext, oob: OobAccumulator | null, oobRows?: Int32Array[]): TreeState[] {
  const n = train.X.rowCount;
  const slotOf = new Int32Array(n);
  const trees: TreeState[] = [];
  for (let t = from; t < to; t++) {
    throwIfAborted(ctx.signal);
    const rng = memberRng(plan.seed, t);
    const counts = treeCounts(n, plan, rng);
    const bag = inBag(counts);
    if (train.weights) for (let j = 0; j < bag.rows.length; j++) bag.weights[j] *= train.weights[bag.rows[j]];
    slotOf.fill(-1);
    for (let j = 0; j < bag.rows.length; j++) slotOf[bag.rows[j]] = j;
    const m = bag.rows.length;
    const buffers = buffersFor(order);
    const sortedFrom = (f: number): SortedSlots => {
      const all = order[f] as SortedColumn;
      const { order: rows, values, target } = all;
      const { list, values: sv, target: st } = buffers[f] as NonNullable<(typeof buffers)[number]>;
      let k = 0;
      // Every row is written and only bag rows advance k: a row is in the bag at random, a branch would guess wrong.
      for (let i = 0; i < rows.length; i++) {
        const s = slotOf[rows[i]];
        list[k] = s;
        sv[k] = values[i];
        st[k] = target[i];
        k += (s >>> 31) ^ 1;
      }
      const slots = { list: list.subarray(0, m), values: sv.subarray(0, m) };
      return st instanceof Int32Array ? { ...slots, classes: st.subarray(0, m) } : { ...slots, targets: st.subarray(0, m) };
    };
    const tree = compact(fitTree(train, plan.engine, { rng, progress: () => {}, signal: ctx.signal }, { bag: { rows: bag.rows, weights: bag.weights, sortedFrom } }));
    trees.push(tree);
    addTreeOutOfBag(train, plan, tree, counts, oob, oobRows);
    ctx.progress((t + 1 - from) / (to - from));
  }
  return trees;
}

function addTreeOutOfBag(train: TrainingSet, plan: ForestPlan, tree: TreeState, counts: Float64Array, oob: OobAccumulator | null, oobRows: Int32Array[] | undefined): void {
  if (oobRows) oobRows.push(outOfBag(counts));
  if (oob && plan.oob) {
    const left = outOfBag(counts);
    if (left.length > 0) oob.add(left, predictValues(tree, columnsFor(tree.features, takeRows(train.X, left))), false);
    else oob.add(left, new Float64Array(0), false);
  }
}

/**
 * The out-of-bag outputs of trees grown elsewhere (a spread fit: member-spread.ts), added in
 * tree order exactly as growTrees adds them while growing: each tree's bag is drawn again
 * from its own generator (its first draws), so the sums are the same, bit for bit.
 */
export function addOutOfBag(train: TrainingSet, plan: ForestPlan, trees: readonly TreeState[], oob: OobAccumulator | null, oobRows?: Int32Array[]): void {
  if (!oobRows && !(oob && plan.oob)) return;
  const n = train.X.rowCount;
  trees.forEach((tree, t) => addTreeOutOfBag(train, plan, tree, treeCounts(n, plan, memberRng(plan.seed, t)), oob, oobRows));
}

/**
 * Grows the members another thread claims from a spread forest fit: the forest's presort
 * (the fit's own, in shared memory, when it sent one), then each claimed tree alone (tree t
 * depends only on the training set, the plan and t).
 */
export function memberGrower(train: TrainingSet, plan: ForestPlan, ctx: Pick<FitContext, "signal">, sorted?: readonly (SortedColumn | null)[]): (t: number) => TreeState {
  const order = sorted ?? presort(train);
  return (t) => growTrees(train, plan, order, t, t + 1, { rng: memberRng(plan.seed, t), progress: () => {}, signal: ctx.signal }, null)[0];
}

/**
 * The tree without its per-node split candidates (kept by a single tree for explain,
 * dead weight in a forest's artifact): offsets all zero, no candidates.
 */
function compact(s: TreeState): TreeState {
  return {
    task: s.task,
    criterion: s.criterion,
    entropy_base: s.entropy_base,
    features: s.features,
    classes: s.classes,
    kind: s.kind,
    feature: s.feature,
    threshold: s.threshold,
    childStart: s.childStart,
    childCount: s.childCount,
    mapOffset: s.mapOffset,
    branchFraction: s.branchFraction,
    samples: s.samples,
    impurity: s.impurity,
    score: s.score,
    value: s.value,
    levelMap: s.levelMap,
    obliqueWeights: s.obliqueWeights,
    featureScale: s.featureScale,
    candOffset: new Int32Array(s.kind.length + 1),
    candFeature: new Int32Array(0),
    candScore: new Float64Array(0),
    candThreshold: new Float64Array(0),
  };
}

export type { OobEstimate };
