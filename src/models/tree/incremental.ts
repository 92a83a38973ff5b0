/**
 * Incremental id3 (POST /v1/models/{id}/partial-fit), with the guarantee of Utgoff's ITI:
 * after any sequence of updates the tree is the one id3 grows in one batch on every row seen —
 * the same tests, thresholds, leaves, class distributions and tie-breaking, bit for bit.
 *
 * What is kept: the training instances (ITI keeps them at its leaves; here in one table in the
 * state, `instances`, each row's leaf being where the tree's tests send it). The per-node tallies
 * ITI keeps (class counts per attribute value, the sorted values of a numeric attribute) are
 * re-derived from a node's rows when the node is visited, by the engine's own split search, so
 * the numbers are exactly those of a batch fit rather than a second copy of its arithmetic.
 *
 * The update, top-down from the root (grow.ts with FitOverrides.reuse):
 * - a node none of the new rows reaches has the rows it had, hence the same subtree: it is
 *   copied, not revisited (min_impurity_decrease is applied to it again, the root weight having grown);
 * - a node some new row reaches has its best test recomputed on its rows, old and new; if the
 *   test is unchanged (same attribute, threshold, branches) it is kept and the update goes on
 *   into its children; if it changed, the subtree is regrown from the node's stored rows.
 * Restructuring is this regrowth of the subtree below the node whose best test changed, not
 * ITI's pull-up / transposition of tests: transposition rebuilds the same subtree from the same
 * tallies, and regrowing it with the batch engine is what makes "equal to batch" hold exactly.
 * Cost of an update: the numeric columns of all rows are sorted once (radix), then each visited
 * node scans its own rows — for a few new rows about one pass over the data along their paths,
 * against a pass per level for a refit; the subtrees off their paths cost nothing.
 *
 * What cannot be maintained this way is refused (incremental: true is refused at fit time with
 * the same message): validation pruning (a seeded hold-out of the rows), pessimistic and
 * cost-complexity pruning (they prune the whole tree against its totals), max_features (features
 * drawn at random per node, a draw sequence any change upsets) and class_weight "balanced"
 * (every row's weight moves with the class counts).
 */
import type { FitContext, TrainingSet } from "../contract.js";
import { UnusableInputError, throwIfAborted } from "../contract.js";
import type { Column, ColumnSchema } from "../../data/frame.js";
import { makeFrame } from "../../data/frame.js";
import type { SplitRule } from "./arena.js";
import { branchOf } from "./arena.js";
import type { TreeBuilder } from "./builder.js";
import type { EngineOptions } from "./engine-options.js";
import type { SubtreeReuse } from "./grow.js";
import { fitTree } from "./grow.js";
import { withPruningPath } from "./prune.js";
import type { Candidate } from "./split-search.js";
import type { TreeColumns } from "./tree-columns.js";
import { columnsFor, columnsForFit } from "./tree-columns.js";
import type { TreeInstances, TreeState } from "./tree-state.js";
import { CATEGORICAL, LEAF, THRESHOLD } from "./tree-state.js";

/** Why these options cannot be updated incrementally, or null. */
export function incrementalRefusal(opts: EngineOptions): string | null {
  if (opts.pruning !== "none") return `pruning "${opts.pruning}"`;
  if (opts.ccpAlpha > 0) return "ccp_alpha above 0";
  if (opts.maxFeatures !== null) return "max_features (features drawn at random at each node)";
  if (opts.classWeight === "balanced") return 'class_weight "balanced" (every weight changes with the class counts)';
  if (opts.oblique) return "oblique splits";
  if (opts.criterion !== "info_gain") return `criterion ${opts.criterion}`;
  return null;
}

export function refuseIncremental(opts: EngineOptions): void {
  const why = incrementalRefusal(opts);
  if (why) throw new UnusableInputError(`an incremental tree (incremental: true, partial_fit) keeps the batch tree exactly only without ${why}; leave it at its default or train without incremental`);
}

/** The fitted state with the rows it was grown on, for later updates. */
export function withInstances(s: TreeState, train: TrainingSet): TreeState {
  const target = train.target;
  if (target?.task !== "classification") throw new UnusableInputError("an incremental tree is a classifier");
  const cols = columnsFor(s.features, train.X);
  const n = cols.n;
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = train.weights ? train.weights[i] : 1;
  const instances: TreeInstances = {
    y: Int32Array.from(target.y),
    w,
    columns: s.features.map((_, f) => (cols.num[f] ? Float64Array.from(cols.num[f]) : Int32Array.from(cols.cat[f] as Int32Array))),
  };
  return { ...s, instances };
}

/** partial_fit: the tree id3 grows on the stored rows followed by the new ones, updated along the new rows' paths only. */
export function partialFitTree(s: TreeState, train: TrainingSet, opts: EngineOptions, ctx: FitContext): TreeState {
  refuseIncremental(opts);
  const kept = s.instances;
  if (!kept) throw new UnusableInputError("this id3 model keeps no training rows (it was trained without incremental: true, or before partial_fit existed); train it again with params.incremental: true");
  const target = train.target;
  if (target?.task !== "classification" || target.classes.length !== s.classes.length || target.classes.some((c, k) => c !== s.classes[k])) {
    throw new UnusableInputError("partial_fit rows must use the model's classes");
  }
  throwIfAborted(ctx.signal);
  const fresh = columnsFor(s.features, train.X);
  const n0 = kept.y.length;
  const n = n0 + fresh.n;
  const columns: Column[] = s.features.map((f, j) => joinColumn(f, kept.columns[j], fresh.num[j] ?? (fresh.cat[j] as Int32Array), n));
  const y = new Int32Array(n);
  y.set(kept.y);
  y.set(target.y, n0);
  const w = new Float64Array(n);
  w.set(kept.w);
  for (let i = 0; i < fresh.n; i++) w[n0 + i] = train.weights ? train.weights[i] : 1;
  const all: TrainingSet = { X: makeFrame(columns), target: { task: "classification", classes: s.classes, y }, weights: w };
  const reuse = previousTree(s, columnsForFit(all.X), n0);
  const grown = withPruningPath(fitTree(all, opts, ctx, { reuse }));
  return withInstances(grown, all);
}

function joinColumn(f: ColumnSchema, old: Float64Array | Int32Array, added: Float64Array | Int32Array, n: number): Column {
  if (f.type === "numeric") {
    const values = new Float64Array(n);
    values.set(old);
    values.set(added, old.length);
    return { type: "numeric", name: f.name, values };
  }
  const codes = new Int32Array(n);
  codes.set(old);
  codes.set(added, old.length);
  return { type: "categorical", name: f.name, levels: f.levels, codes };
}

/** The split rule of each internal node of a state, as branchOf reads it. */
function rulesOf(s: TreeState): (SplitRule | null)[] {
  return Array.from(s.kind, (kind, i) => {
    if (kind === LEAF) return null;
    if (kind !== THRESHOLD && kind !== CATEGORICAL) throw new UnusableInputError("an incremental tree has axis-parallel splits only");
    const f = s.feature[i];
    const feature = s.features[f];
    const levelMap = kind === CATEGORICAL && feature.type === "categorical" ? s.levelMap.subarray(s.mapOffset[i], s.mapOffset[i] + feature.levels.length) : null;
    return { kind, feature: f, threshold: s.threshold[i], nBranches: s.childCount[i], levelMap, weights: null };
  });
}

/**
 * The previous tree for grow.ts: which of its nodes the new rows (rows from n0 on) pass
 * through, and its subtrees to copy where they pass through none.
 */
export function previousTree(s: TreeState, cols: TreeColumns, n0: number): SubtreeReuse {
  const rules = rulesOf(s);
  const touched = new Uint8Array(s.kind.length);
  for (let r = n0; r < cols.n; r++) {
    let node = 0;
    for (;;) {
      touched[node] = 1;
      const rule = rules[node];
      if (!rule) break;
      const b = branchOf(rule, cols, r);
      if (b < 0) break; // a missing value: refused by the grower (id3 takes none) before anything is copied
      node = s.childStart[node] + b;
    }
  }
  const W = s.task === "classification" ? s.classes.length : 1;
  const copy = (old: number, builder: TreeBuilder, node: number, keepSplit: (weight: number, gain: number) => boolean): void => {
    const rule = rules[old];
    // id3's score is its information gain, the number min_impurity_decrease weighs.
    if (!rule || !keepSplit(s.samples[old], s.score[old])) return;
    const first = builder.size;
    for (let c = 0; c < s.childCount[old]; c++) {
      const child = s.childStart[old] + c;
      builder.add(node, s.branchFraction[child], s.samples[child], s.impurity[child], s.value.subarray(child * W, (child + 1) * W));
    }
    const candidates: Candidate[] = [];
    for (let j = s.candOffset[old]; j < s.candOffset[old + 1]; j++) {
      candidates.push({ feature: s.candFeature[j], gain: NaN, score: s.candScore[j], ratio: NaN, threshold: s.candThreshold[j], rule });
    }
    builder.setSplit(node, { feature: rule.feature, gain: NaN, score: s.score[old], ratio: NaN, threshold: rule.threshold, rule }, candidates, first);
    for (let c = 0; c < s.childCount[old]; c++) copy(s.childStart[old] + c, builder, first + c, keepSplit);
  };
  return {
    untouched: (old) => touched[old] === 0,
    childOf: (old, rule, branch) => (sameRule(rules[old], rule) ? s.childStart[old] + branch : -1),
    copy,
  };
}

function sameRule(a: SplitRule | null, b: SplitRule): boolean {
  if (!a || a.kind !== b.kind || a.feature !== b.feature || a.nBranches !== b.nBranches) return false;
  if (a.kind === THRESHOLD) return a.threshold === b.threshold;
  const x = a.levelMap as Int32Array;
  const y = b.levelMap as Int32Array;
  if (x.length !== y.length) return false;
  for (let l = 0; l < x.length; l++) if (x[l] !== y[l]) return false;
  return true;
}
