/**
 * TreeGenerate (seed 001) as one engine: grow from the root with an explicit
 * stack, every node judged by the configured criterion, then prune.
 *
 * A node becomes a leaf when (seed 001's three cases, then the usual limits):
 * 1. its rows are all one class (or, for regression, all the same value);
 * 2. no attribute is left, or the rows agree on every remaining one (no valid split);
 * 3. (for a child) its branch is empty: the leaf takes its parent's distribution;
 * or max_depth, min_samples_split, min_samples_leaf, min_impurity_decrease, or
 * pre-pruning on the validation rows stops it; or, for perceptron leaves (Utgoff's
 * perceptron tree, leaf-model.ts), a perceptron puts each of its rows in its own class.
 */
import type { FitContext, TrainingSet } from "../contract.js";
import { UnusableInputError, throwIfAborted } from "../contract.js";
import type { Rng } from "../../data/random.js";
import type { NodeRange, SortedFrom, SplitRule, TreeTarget } from "./arena.js";
import { accumulate, branchOf, makeArena, releaseRange } from "./arena.js";
import { splitRange } from "./partition.js";
import { TreeBuilder } from "./builder.js";
import type { EngineOptions, LeafModelOptions } from "./engine-options.js";
import { impurityOf } from "./impurity.js";
import { LazyLists } from "./lazy-lists.js";
import { fitLeafModel, fitLeafModels } from "./leaf-model.js";
import { nodeRowsOf, standardisedRows } from "./linear-node.js";
import { obliqueCandidate } from "./oblique.js";
import { ccpPrune, pessimisticPrune, reducedErrorPrune, leafError } from "./prune.js";
import type { Candidate } from "./split-search.js";
import { SplitSearch, chooseSplit, impurityKindOf } from "./split-search.js";
import type { TreeColumns } from "./tree-columns.js";
import { columnsForFit } from "./tree-columns.js";
import type { TreeState } from "./tree-state.js";
import { leafClasses } from "./tree-state.js";
import { classWeights, hasMissing, holdOut, resolveMaxFeatures } from "./fit-inputs.js";

export interface FitOverrides {
  /** Rows (of train.X) held out for pre/post pruning instead of a seeded draw: lets tests reproduce the book's split. */
  readonly validationRows?: Int32Array;
  /**
   * A bootstrap drawn as weights (ensemble/): grow on these rows with these weights
   * (times class weights) instead of every row with train.weights, and take each
   * numeric feature's slots already sorted from `sortedFrom` (a forest sorts once for
   * all its trees, see ensemble/forest-grow.ts). Not combined with validation pruning.
   */
  readonly bag?: { readonly rows: Int32Array; readonly weights: Float64Array; readonly sortedFrom?: SortedFrom };
  /**
   * Incremental growth (id3's partial_fit, incremental.ts): where the grower reaches, through
   * the same tests, a node of the previous tree that none of the new rows reached, that node has
   * the same rows as before and so the same subtree — it is copied instead of grown again.
   * Everywhere else (the nodes the new rows pass through) the grower runs as in any fit.
   */
  readonly reuse?: SubtreeReuse;
  /** Partition every list at every split even when a node searches only some features (tests: lazy-lists.ts must grow the same tree). */
  readonly eagerLists?: boolean;
}

/**
 * The previous tree, as the grower consults it (node ids are the previous state's). Valid only
 * where a subtree is a function of its node's rows and depth alone: no validation pruning, no
 * cost-complexity pruning, no features drawn at random per node, class weights that do not
 * depend on the rows; min_impurity_decrease, which also reads the root's weight, is applied to
 * the copy again through `keepSplit`.
 */
export interface SubtreeReuse {
  /** No new row reached old node `old` (routed by the previous tree's tests). */
  untouched(old: number): boolean;
  /** The old node behind branch `branch` when `rule` is old node `old`'s own test (same feature, threshold, branches); else -1. */
  childOf(old: number, rule: SplitRule, branch: number): number;
  /**
   * Adds old node `old`'s subtree below builder node `node` (which already holds the node's own
   * statistics). keepSplit(weight, gain) says whether min_impurity_decrease still keeps a split.
   */
  copy(old: number, builder: TreeBuilder, node: number, keepSplit: (weight: number, gain: number) => boolean): void;
}

/** Rows routed to one node during growth, for pre-pruning. */
interface ValRows {
  readonly rows: Int32Array;
  readonly w: Float64Array;
}

interface Work {
  readonly range: NodeRange;
  readonly node: number;
  readonly depth: number;
  /** Rows in the node, a missing-value copy counting by its share (Arena.share). */
  readonly count: number;
  readonly stats: Float64Array;
  readonly weight: number;
  readonly val: ValRows | null;
  /** The previous tree's node at this position (FitOverrides.reuse), or -1. */
  readonly old: number;
  /** Where each sorted list of the node can be brought up to date from (lazy-lists.ts); null: the lists are always current. */
  readonly base: Int32Array | null;
  /** Per feature, 1 where an ancestor (or this node) found fewer than two different known values (SplitSearch.spent): not evaluated again below; null: none. */
  readonly spent: Uint8Array | null;
}

export function fitTree(train: TrainingSet, opts: EngineOptions, ctx: FitContext, overrides: FitOverrides = {}): TreeState {
  const target = train.target;
  if (!target) throw new UnusableInputError("a tree needs a target");
  const regression = target.task === "regression";
  if (regression !== (opts.criterion === "mse")) {
    throw new UnusableInputError(regression ? `criterion ${opts.criterion} is for classification; regression trees use mse` : "criterion mse is for regression targets");
  }
  const cols = columnsForFit(train.X);
  if (cols.schema.length === 0) throw new UnusableInputError("a tree needs at least one feature");
  if (!opts.allowMissing && hasMissing(cols)) throw new UnusableInputError("this tree does not take missing values: impute them first");
  const n = cols.n;
  const K = target.task === "classification" ? target.classes.length : 0;
  const tt: TreeTarget = target.task === "classification" ? { K, S: K, yc: target.y, yr: null } : { K: 0, S: 3, yc: null, yr: target.y };

  const w = new Float64Array(n);
  const cw = target.task === "classification" ? classWeights(opts.classWeight, target.y, target.classes) : null;
  for (let i = 0; i < n; i++) {
    const wi = train.weights ? train.weights[i] : 1;
    if (!(wi >= 0) || !Number.isFinite(wi)) throw new UnusableInputError("sample weights must be finite and non-negative");
    w[i] = cw ? wi * cw[(target.y as Int32Array)[i]] : wi;
  }
  const usesValidation = opts.pruning === "pre" || opts.pruning === "post";
  const split = usesValidation ? holdOut(n, opts.validationFraction, target, ctx.rng, overrides.validationRows) : { grow: identity(n), validation: new Int32Array(0) };
  if (opts.pruning === "pessimistic" && regression) throw new UnusableInputError("pessimistic pruning is for classification trees");

  const bag = overrides.bag;
  const reuse = overrides.reuse;
  if (reuse && (opts.pruning !== "none" || opts.ccpAlpha > 0 || opts.maxFeatures !== null || opts.classWeight === "balanced" || opts.oblique || bag)) {
    throw new Error("a previous tree can only be reused by a fit whose subtrees depend on their rows alone");
  }
  if (bag && usesValidation) throw new UnusableInputError("a bootstrap bag cannot be combined with validation pruning");
  if (opts.leafModel && (regression || bag || reuse)) throw new Error("perceptron leaves are for a single classification tree");
  const growRows = bag ? bag.rows : split.grow;
  const growW = new Float64Array(growRows.length);
  for (let i = 0; i < growRows.length; i++) growW[i] = bag ? bag.weights[i] * (cw ? cw[(target.y as Int32Array)[growRows[i]]] : 1) : w[growRows[i]];
  const d = cols.schema.length;
  const maxFeatures = resolveMaxFeatures(opts.maxFeatures, d);
  // A few features searched per node: partition each list only where a node reads it (lazy-lists.ts).
  const lazy = maxFeatures < d && !opts.oblique && !opts.leafModel && !overrides.eagerLists;
  const arena = makeArena(growRows, growW, cols, tt, bag?.sortedFrom, undefined, lazy);
  const root: NodeRange = { arena, start: 0, end: growRows.length };
  const lists = lazy ? new LazyLists(cols, arena, bag?.sortedFrom) : null;

  const search = new SplitSearch(cols, tt, { criterion: opts.criterion, categoricalSplit: opts.categoricalSplit, minSamplesLeaf: opts.minSamplesLeaf, maxCategories: opts.maxCategoriesPerSplit });
  const kind = impurityKindOf(opts.criterion);
  const width = regression ? 1 : K;
  const builder = new TreeBuilder(width);
  const valueOf = (stats: Float64Array): ArrayLike<number> => (regression ? [stats[0] > 0 ? stats[1] / stats[0] : 0] : stats);

  const rootStats = new Float64Array(tt.S);
  const rootW = accumulate(root, rootStats);
  if (!(rootW > 0)) throw new UnusableInputError("no training row has a positive weight");
  builder.add(-1, 1, rootW, impurityOf(kind, rootStats, 0, K, rootW), valueOf(rootStats));
  const valRoot: ValRows | null = opts.pruning === "pre" ? { rows: split.validation, w: gather(w, split.validation) } : null;

  const stack: Work[] = [{ range: root, node: 0, depth: 0, count: growRows.length, stats: rootStats, weight: rootW, val: valRoot, old: reuse ? 0 : -1, base: lists ? lists.rootBase() : null, spent: null }];
  arena.pending = 1;
  let expanded = 0;
  /** The features axisCandidates found spent at the node being expanded, with its ancestors' (Work.spent). */
  let spentHere: Uint8Array | null = null;
  let settled = 0;
  /** Perceptron leaves: the models of the nodes the grower stopped at because their perceptron fits (by builder node). */
  const leafFits = new Map<number, Float64Array>();
  while (stack.length > 0) {
    const item = stack.pop() as Work;
    if (++expanded % 64 === 0) {
      throwIfAborted(ctx.signal);
      ctx.progress(Math.min(0.95, settled / rootW));
    }
    const children = expand(item);
    if (!children) settled += item.weight;
    else {
      for (let c = children.length - 1; c >= 0; c--) {
        children[c].range.arena.pending++;
        stack.push(children[c]);
      }
    }
    // After the children are counted: they may share the item's arena.
    releaseRange(item.range.arena);
  }

  if (opts.pruning === "post") reducedErrorPrune(builder, cols, tt, split.validation, gather(w, split.validation));
  if (opts.pruning === "pessimistic") pessimisticPrune(builder, opts.confidenceFactor);
  if (opts.ccpAlpha > 0) ccpPrune(builder, opts.ccpAlpha);
  if (opts.leafModel) {
    // After pruning, which makes leaves of internal nodes: every final leaf gets its model.
    const y = target.y as Int32Array;
    fitLeafModels(builder, cols, { rows: growRows, y: Int32Array.from(growRows, (r) => y[r]), w: growW }, K, opts.leafModel, leafFits, ctx.rng, ctx.signal);
  }
  ctx.progress(1);
  return builder.freeze({
    task: target.task,
    criterion: opts.criterion,
    entropy_base: opts.entropyBase,
    features: cols.schema.map((s) => ({ ...s })),
    classes: target.task === "classification" ? [...target.classes] : [],
    featureScale: featureScales(cols, growRows),
  });

  function expand(item: Work): Work[] | null {
    const { node, depth, count, stats, weight } = item;
    if (reuse && item.old >= 0 && reuse.untouched(item.old)) {
      reuse.copy(item.old, builder, node, (w, gain) => !((w / rootW) * gain < opts.minImpurityDecrease));
      return null;
    }
    const impurity = builder.impurity[node];
    // The same tests as needsRows below, first: a range that was not partitioned must not be read.
    if (impurity <= 1e-12 || isPure(stats)) return null;
    if (opts.maxDepth !== null && depth >= opts.maxDepth) return null;
    if (!enoughRows(count)) return null;
    if (regression && constantTarget(item.range)) return null;
    if (opts.leafModel && perceptronFits(item)) return null;

    spentHere = item.spent;
    const candidates = opts.oblique ? obliqueCandidates(item, impurity) : axisCandidates(item, impurity);
    const spent = spentHere;
    const best = chooseSplit(candidates, opts.criterion);
    if (!best) return null;
    if ((weight / rootW) * best.gain < opts.minImpurityDecrease) return null;

    // A child that will be a leaf at once (pure, too small, at max depth) needs no sorted rows.
    const needsRows = (count: number, s: Float64Array, w: number): boolean =>
      w > 0 &&
      enoughRows(count) &&
      (opts.maxDepth === null || depth + 1 < opts.maxDepth) &&
      !isPure(s);
    const outcome = splitRange(item.range, best.rule, cols, tt, needsRows, lists && { freshenAll: () => lists.freshenAll(item, stack) });
    const childStats = outcome.children.map((_, b) => ({ s: outcome.stats[b], w: outcome.weights[b] }));
    const parentValue = builder.valueOf(node);
    // builder.add copies a value: a child's own statistics can be handed over as they are.
    const childValues = childStats.map((c) => (c.w > 0 ? valueOf(c.s) : parentValue));
    let childVal: (ValRows | null)[] = outcome.children.map(() => null);
    if (item.val) {
      childVal = routeValidation(item.val, best, outcome.fractions);
      const before = leafError(parentValue, item.val.rows, item.val.w, tt);
      let after = 0;
      childVal.forEach((v, b) => (after += leafError(childValues[b], (v as ValRows).rows, (v as ValRows).w, tt)));
      // The book's rule: a split is kept only if it raises validation accuracy.
      if (!(after < before - 1e-12)) return null;
    }

    const first = builder.size;
    outcome.children.forEach((r, b) => {
      const cs = childStats[b];
      builder.add(node, outcome.fractions[b], cs.w, cs.w > 0 ? impurityOf(kind, cs.s, 0, K, cs.w) : 0, childValues[b]);
    });
    builder.setSplit(node, best, candidates, first);
    const out: Work[] = [];
    outcome.children.forEach((r, b) => {
      if (!r || r.end === r.start || !(childStats[b].w > 0)) {
        settled += childStats[b].w; // a leaf at once (null) or case 3, an empty branch with the parent's majority
        return;
      }
      const old = reuse && item.old >= 0 ? reuse.childOf(item.old, best.rule, b) : -1;
      const base = lists ? lists.childBase(item, r) : null;
      out.push({ range: r, node: first + b, depth: depth + 1, count: outcome.counts[b], stats: childStats[b].s, weight: childStats[b].w, val: childVal[b], old, base, spent });
    });
    return out;
  }

  function axisCandidates(item: Work, impurity: number): Candidate[] {
    // A categorical feature stays eligible below a multiway split on it: a one-level branch
    // has one level left (no split), a pooled branch (max_categories_per_split) can be split again.
    const eligible: number[] = [];
    for (let f = 0; f < d; f++) eligible.push(f);
    const order = maxFeatures < eligible.length ? shuffled(eligible, ctx.rng) : eligible;
    const out: Candidate[] = [];
    // The quota's lists at once (those from one base share one pass over the slots), any further one when drawn.
    lists?.freshen(item, order, Math.min(maxFeatures, order.length), stack);
    for (let i = 0; i < order.length; i++) {
      // max_features as scikit-learn reads it: keep drawing past the quota until one feature can split.
      if (i >= maxFeatures && out.length > 0) break;
      if (i >= maxFeatures) lists?.freshen(item, order.slice(i, i + 1), 1, stack);
      const f = order[i];
      if (spentHere && spentHere[f]) continue; // evaluate would return null, as it did above
      const c = search.evaluate(item.range, f, item.stats, item.weight, impurity);
      if (c) out.push(c);
      else if (search.spent) {
        // A copy per node that finds one (the parent's set stays as its other children have it).
        const next = new Uint8Array(d);
        if (spentHere) next.set(spentHere);
        next[f] = 1;
        spentHere = next;
      }
    }
    return out;
  }

  /** Utgoff's rule: a node whose rows a perceptron puts each in its own class is a perceptron leaf, not split. */
  function perceptronFits(item: Work): boolean {
    const rows = nodeRowsOf(item.range);
    const data = standardisedRows(rows.rows, rows.y, rows.w, cols, K, item.weight);
    if (!data) return false;
    const fitted = fitLeafModel(data, cols, leafClasses(item.stats, 0, K), opts.leafModel as LeafModelOptions, ctx.rng, ctx.signal);
    if (fitted.fits) leafFits.set(item.node, fitted.model);
    return fitted.fits;
  }

  function obliqueCandidates(item: Work, impurity: number): Candidate[] {
    const axis = axisCandidates(item, impurity);
    const o = obliqueCandidate(item.range, cols, tt, opts, item.stats, item.weight, impurity, axis, ctx.rng, ctx.signal);
    return o ? [...axis, o] : axis;
  }

  // Shares are products of fractions: a count that should be whole may be a rounding short of it.
  function enoughRows(count: number): boolean {
    const c = count + 1e-9;
    return c >= opts.minSamplesSplit && c >= 2 * opts.minSamplesLeaf;
  }

  function isPure(stats: Float64Array): boolean {
    if (regression) return false;
    let nonzero = 0;
    for (let k = 0; k < K; k++) if (stats[k] > 0) nonzero++;
    return nonzero <= 1;
  }

  // Variance from running sums cancels badly for large targets: look at the values themselves.
  function constantTarget(range: NodeRange): boolean {
    const { members } = range.arena;
    const y = range.arena.yr as Float64Array;
    const y0 = y[members[range.start]];
    for (let i = range.start + 1; i < range.end; i++) if (y[members[i]] !== y0) return false;
    return true;
  }

  function routeValidation(val: ValRows, best: Candidate, fractions: Float64Array): ValRows[] {
    const nb = fractions.length;
    const rows: number[][] = Array.from({ length: nb }, () => []);
    const ws: number[][] = Array.from({ length: nb }, () => []);
    for (let i = 0; i < val.rows.length; i++) {
      const b = branchOf(best.rule, cols, val.rows[i]);
      if (b >= 0) {
        rows[b].push(val.rows[i]);
        ws[b].push(val.w[i]);
      } else {
        for (let c = 0; c < nb; c++) {
          if (fractions[c] > 0) {
            rows[c].push(val.rows[i]);
            ws[c].push(val.w[i] * fractions[c]);
          }
        }
      }
    }
    return rows.map((r, b) => ({ rows: Int32Array.from(r), w: Float64Array.from(ws[b]) }));
  }
}

function featureScales(cols: TreeColumns, rows: Int32Array): Float64Array<ArrayBuffer> {
  return Float64Array.from(cols.num, (values) => {
    if (!values) return 1;
    let n = 0;
    let mean = 0;
    let m2 = 0;
    for (const r of rows) {
      const v = values[r];
      if (Number.isNaN(v)) continue;
      n++;
      const delta = v - mean;
      mean += delta / n;
      m2 += delta * (v - mean);
    }
    return n > 1 ? Math.sqrt(m2 / n) : 0;
  });
}

function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

function gather(w: Float64Array, rows: Int32Array): Float64Array {
  const out = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = w[rows[i]];
  return out;
}

function shuffled(list: number[], rng: Rng): number[] {
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

export type { TreeColumns };
