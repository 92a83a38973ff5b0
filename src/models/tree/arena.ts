/**
 * Training rows as the splitter sees them: "slots" (a row of X with a weight),
 * `members` (every slot of a node) and, per numeric feature, the slots presorted
 * by value with missing values last. A node owns the same range [start, end) of
 * every one of these lists, so a split only partitions ranges in place (stably,
 * keeping each list sorted): one sort per fit, no sort per node.
 *
 * The exception is C4.5's missing-value weighting: a slot missing the tested
 * value enters every branch with a reduced weight, so it must exist several
 * times. Such splits copy the node's slots into a fresh arena per branch.
 */
import type { TreeColumns } from "./tree-columns.js";
import { argsortByValue } from "./sort.js";
import { CATEGORICAL, OBLIQUE, THRESHOLD } from "./tree-state.js";

export interface Arena {
  readonly rows: Int32Array;
  readonly w: Float64Array;
  /**
   * The part of its training row a slot stands for: 1, or the product of the branch
   * fractions a missing value sent it down. Σ share over a node is its row count for
   * min_samples_split / min_samples_leaf, so that copies of rows missing a tested value
   * (which every branch receives) do not count as whole rows: without it a row missing a
   * value the tree keeps testing is copied at every such split, and the tree with it.
   */
  readonly share: Float64Array;
  /** Every share is 1 (no missing-value copies): a node's row count is its slot count. */
  readonly wholeRows: boolean;
  /** The target per slot (class index or value): read in every scan, so kept next to the slot, not behind `rows`. */
  readonly yc: Int32Array | null;
  readonly yr: Float64Array | null;
  readonly members: Int32Array;
  /**
   * Per feature: slots sorted by value, NaN last (numeric features only; null too in a
   * missing-value child where the feature has fewer than two different known values, see childArena).
   */
  readonly sorted: (Int32Array | null)[];
  /** The values of `sorted`, position by position: scans read memory in order instead of jumping through rows. */
  readonly sortedValues: (Float64Array | null)[];
  /** The class (classification) or target value (regression) of `sorted`, position by position, for the same reason. */
  readonly sortedClass: (Int32Array | null)[];
  readonly sortedTarget: (Float64Array | null)[];
  /** Every weight is 1: the scans skip reading weights. */
  readonly unitWeights: boolean;
  /** Scratch indexed by slot: the branch a slot goes to during a split. */
  readonly mark: Int32Array;
  /** The same for two-way splits, in a byte per slot: the partitions read it at random, and a smaller array stays in cache. */
  readonly side: Uint8Array;
  /** Scratch for partitioning, indexed like the lists. */
  readonly tmp: Int32Array;
  /** The fit's pool of child buffers, and this arena's own (null: not from the pool, e.g. the root's). */
  readonly buffers: ArenaBuffers;
  readonly buffer: ArrayBuffer | null;
  /** Node ranges of this arena still waiting to be expanded (grow.ts); at 0 its buffer goes back to the pool. */
  pending: number;
}

export interface NodeRange {
  readonly arena: Arena;
  readonly start: number;
  readonly end: number;
}

/** Class counts (K) or (Σw, Σw·y, Σw·y²) per row: what every node accumulates. */
export interface TreeTarget {
  readonly K: number;
  readonly S: number;
  readonly yc: Int32Array | null;
  readonly yr: Float64Array | null;
}

export interface SplitRule {
  readonly kind: typeof THRESHOLD | typeof CATEGORICAL | typeof OBLIQUE;
  /** -1 for oblique rules. */
  readonly feature: number;
  readonly threshold: number;
  readonly nBranches: number;
  /** Categorical: branch per level, -1 = treated as missing. */
  readonly levelMap: Int32Array | null;
  /** Oblique: one weight per feature; the test is Σ w·x ≤ threshold. */
  readonly weights: Float64Array | null;
}

/**
 * Argsorts of whole columns, kept while the column lives: boosting rounds and bagged
 * members refit on the same rows of the same Frame and need not sort again. A copy is
 * handed out (splits reorder the lists in place); columns are never mutated after a
 * Frame is built, so a cached order cannot go stale.
 */
/** A numeric feature's slots in value order (missing last, ties by slot) and their values, position by position; their targets too, or they are looked up by slot. */
export interface SortedSlots {
  readonly list: Int32Array;
  readonly values: Float64Array;
  readonly classes?: Int32Array;
  readonly targets?: Float64Array;
}

/** Feature f's sorted slots from a sort made once for several fits (a forest's: ensemble/forest-grow.ts). */
export type SortedFrom = (f: number) => SortedSlots;

const wholeColumnOrder = new WeakMap<Float64Array, Int32Array>();

export function isIdentity(rows: Int32Array): boolean {
  for (let i = 0; i < rows.length; i++) if (rows[i] !== i) return false;
  return true;
}

export function makeArena(
  rows: Int32Array,
  w: Float64Array,
  cols: TreeColumns,
  target: TreeTarget,
  sortedFrom?: SortedFrom,
  share?: Float64Array,
  lazyLists = false,
): Arena {
  const m = rows.length;
  const members = new Int32Array(m);
  for (let i = 0; i < m; i++) members[i] = i;
  // Plain loops, not typed-array `from` with a callback: arenas are built per branch of every
  // split with missing values, and the callback form is several times slower.
  const yc = target.yc ? new Int32Array(m) : null;
  const yr = target.yr ? new Float64Array(m) : null;
  if (yc) for (let i = 0; i < m; i++) yc[i] = (target.yc as Int32Array)[rows[i]];
  if (yr) for (let i = 0; i < m; i++) yr[i] = (target.yr as Float64Array)[rows[i]];
  const d = cols.num.length;
  const unitWeights = allOnes(w, m);
  const wholeRows = !share || allOnes(share, m);
  const arena: Arena = {
    rows,
    w,
    share: share ?? ones(m),
    wholeRows,
    yc,
    yr,
    members,
    sorted: new Array<Int32Array | null>(d).fill(null),
    sortedValues: new Array<Float64Array | null>(d).fill(null),
    sortedClass: new Array<Int32Array | null>(d).fill(null),
    sortedTarget: new Array<Float64Array | null>(d).fill(null),
    unitWeights,
    mark: new Int32Array(m),
    side: new Uint8Array(m),
    tmp: new Int32Array(m),
    buffers: new ArenaBuffers(),
    buffer: null,
    pending: 0,
  };
  // Lazy lists (lazy-lists.ts) are built by buildSorted when a node first evaluates their feature.
  if (!lazyLists) {
    const wholeColumns = !sortedFrom && isIdentity(rows);
    for (let f = 0; f < d; f++) buildSorted(arena, f, cols, sortedFrom, wholeColumns);
  }
  return arena;
}

/**
 * Numeric feature f's list over every slot of the arena, with its values and targets in list
 * order (nothing for a categorical feature). `wholeColumns`: the arena's rows are every row of
 * the columns in order, so a cached argsort of the column serves.
 */
export function buildSorted(arena: Arena, f: number, cols: TreeColumns, sortedFrom: SortedFrom | undefined, wholeColumns: boolean): void {
  const values = cols.num[f];
  if (!values) return;
  const { rows, yc, yr } = arena;
  const m = rows.length;
  let list: Int32Array;
  let sv: Float64Array | null = null;
  let sc: Int32Array | undefined;
  let st: Float64Array | undefined;
  if (sortedFrom) ({ list, values: sv, classes: sc, targets: st } = sortedFrom(f));
  else if (wholeColumns && values.length === m) {
    let order = wholeColumnOrder.get(values);
    if (!order) {
      order = argsortByValue(slotIds(m), values);
      wholeColumnOrder.set(values, order);
    }
    list = order.slice();
  } else {
    const v = new Float64Array(m);
    for (let i = 0; i < m; i++) v[i] = values[rows[i]];
    list = argsortByValue(slotIds(m), v);
  }
  const k = list.length;
  if (!sv) {
    sv = new Float64Array(k);
    for (let i = 0; i < k; i++) sv[i] = values[rows[list[i]]];
  }
  arena.sorted[f] = list;
  arena.sortedValues[f] = sv;
  if (yc) {
    if (!sc) {
      sc = new Int32Array(k);
      for (let i = 0; i < k; i++) sc[i] = yc[list[i]];
    }
    arena.sortedClass[f] = sc;
  }
  if (yr) {
    if (!st) {
      st = new Float64Array(k);
      for (let i = 0; i < k; i++) st[i] = yr[list[i]];
    }
    arena.sortedTarget[f] = st;
  }
}

/** 0 … m-1: the slots in slot order (not arena.members, which a lazy arena's splits may already have reordered). */
function slotIds(m: number): Int32Array {
  const ids = new Int32Array(m);
  for (let i = 0; i < m; i++) ids[i] = i;
  return ids;
}

/**
 * The arena of one branch `b` of a split with missing values (partition.ts copyWithMissing):
 * the parent's slots of the node [start, end) marked for the branch, and the slots missing
 * the tested value with weight and share × `fraction`; `m` of them. `map` (scratch, indexed by
 * parent slot) is left sending a parent slot to its child slot (-1: not in the branch).
 * Everything is read from the parent in list order — each child list is the parent's range
 * of the same list, filtered — so nothing is sorted and no value is looked up by row. The
 * child takes the parent's scratch (mark, side, tmp: a split uses it only while it runs, and
 * a child has no more slots than its parent) and the fit's buffer pool.
 */
export function childArena(parent: Arena, start: number, end: number, b: number, fraction: number, m: number, map: Int32Array): Arena {
  const { mark } = parent;
  for (let i = start, t = 0; i < end; i++) {
    const s = parent.members[i];
    const inBranch = mark[s] === b || (mark[s] < 0 && fraction > 0);
    map[s] = inBranch ? t++ : -1;
  }
  const d = parent.sorted.length;
  // Every list of the child in one buffer: thousands of children per fit, and one allocation
  // each (instead of one per list) is what the collector and the allocator notice.
  const live = new Uint8Array(d);
  let lists = 0;
  for (let f = 0; f < d; f++) {
    const list = parent.sorted[f];
    if (list && canCut(list, parent.sortedValues[f] as Float64Array, start, end, map)) {
      live[f] = 1;
      lists++;
    }
  }
  const f64 = 2 + (parent.yr ? 1 : 0) + lists * (parent.yr ? 2 : 1);
  const i32 = 2 + (parent.yc ? 1 : 0) + lists * (parent.yc ? 2 : 1);
  const buffer = parent.buffers.take(m * (8 * f64 + 4 * i32));
  // Views made one by one at computed offsets (Array.from with a callback cost ≈ 3 × as much, per child):
  // the Float64 arrays first (w, share, yr, then each list's values, then its targets), the Int32 after.
  const F = f64 - lists * (parent.yr ? 2 : 1);
  const I = i32 - lists * (parent.yc ? 2 : 1);
  const i32At = 8 * m * f64;
  const w = new Float64Array(buffer, 0, m);
  const share = new Float64Array(buffer, 8 * m, m);
  const yr = parent.yr ? new Float64Array(buffer, 16 * m, m) : null;
  const members = new Int32Array(buffer, i32At, m);
  const rows = new Int32Array(buffer, i32At + 4 * m, m);
  const yc = parent.yc ? new Int32Array(buffer, i32At + 8 * m, m) : null;
  // Branch-free as copyFiltered: every slot is written at t, which advances only for a kept one.
  for (let i = start, t = 0; i < end && t < m; i++) {
    const s = parent.members[i];
    const missing = mark[s] < 0;
    members[t] = t;
    rows[t] = parent.rows[s];
    w[t] = missing ? parent.w[s] * fraction : parent.w[s];
    share[t] = missing ? parent.share[s] * fraction : parent.share[s];
    if (yc) yc[t] = (parent.yc as Int32Array)[s];
    if (yr) yr[t] = (parent.yr as Float64Array)[s];
    t += (map[s] >>> 31) ^ 1;
  }
  const sorted: (Int32Array | null)[] = new Array<Int32Array | null>(d).fill(null);
  const sortedValues: (Float64Array | null)[] = new Array<Float64Array | null>(d).fill(null);
  const sortedClass: (Int32Array | null)[] = new Array<Int32Array | null>(d).fill(null);
  const sortedTarget: (Float64Array | null)[] = new Array<Float64Array | null>(d).fill(null);
  for (let f = 0, q = 0; f < d; f++) {
    const list = parent.sorted[f];
    if (!list || !live[f]) continue;
    const pv = parent.sortedValues[f] as Float64Array;
    const pc = parent.sortedClass[f];
    const pt = parent.sortedTarget[f];
    const sv = new Float64Array(buffer, 8 * m * (F + q), m);
    const st = yr ? new Float64Array(buffer, 8 * m * (F + lists + q), m) : null;
    const out = new Int32Array(buffer, i32At + 4 * m * (I + q), m);
    const sc = yc ? new Int32Array(buffer, i32At + 4 * m * (I + lists + q), m) : null;
    q++;
    copyFiltered(list, pv, pc, pt, start, end, map, m, out, sv, sc, st);
    sorted[f] = out;
    sortedValues[f] = sv;
    sortedClass[f] = sc;
    sortedTarget[f] = st;
  }
  const unitWeights = allOnes(w, m);
  const wholeRows = allOnes(share, m);
  return {
    rows,
    w,
    share,
    wholeRows,
    yc,
    yr,
    members,
    sorted,
    sortedValues,
    sortedClass,
    sortedTarget,
    unitWeights,
    mark: parent.mark,
    side: parent.side,
    tmp: parent.tmp,
    buffers: parent.buffers,
    buffer,
    pending: 0,
  };
}

/**
 * The buffers of one fit's missing-value children (childArena), reused once an arena's
 * nodes are all expanded (grow.ts counts them in Arena.pending): a fit builds thousands of
 * children, mostly short-lived, and allocating each anew kept the collector busy (the
 * backing stores live outside the JS heap, and their total is what triggers full collections).
 * Sizes are rounded up to a power of two, one free list per size.
 */
export class ArenaBuffers {
  private readonly free = new Map<number, ArrayBuffer[]>();
  /** The fit's small per-node arrays (SmallArrays). */
  readonly small = new SmallArrays();

  take(bytes: number): ArrayBuffer {
    const size = 2 ** Math.ceil(Math.log2(Math.max(bytes, 64)));
    return this.free.get(size)?.pop() ?? new ArrayBuffer(size);
  }

  give(buffer: ArrayBuffer): void {
    const list = this.free.get(buffer.byteLength);
    if (list) list.push(buffer);
    else this.free.set(buffer.byteLength, [buffer]);
  }
}

/**
 * Small zeroed Float64Arrays for one fit (a split's per-branch statistics, weights, counts),
 * handed out as views of shared slabs. V8 keeps a typed array of at most 64 bytes on the JS
 * heap; a larger one (12 class counts are 96) gets a store of its own outside it, about ten
 * times the cost of a view, and the collector pays again to free it. Slabs are never reused:
 * a view stays valid (and keeps its slab alive) as long as it is referenced.
 */
export class SmallArrays {
  private slab = new Float64Array(0);
  private at = 0;

  take(n: number): Float64Array {
    if (this.at + n > this.slab.length) {
      this.slab = new Float64Array(Math.max(SLAB, n));
      this.at = 0;
    }
    const view = this.slab.subarray(this.at, this.at + n);
    this.at += n;
    return view;
  }
}

/** Doubles per slab (32 KB): a few hundred splits' arrays. */
const SLAB = 4096;

/** One node range of `arena` is done with; the arena's buffer returns to the pool after its last. */
export function releaseRange(arena: Arena): void {
  if (--arena.pending === 0 && arena.buffer) arena.buffers.give(arena.buffer);
}

/**
 * Whether the branch's slots (map ≥ 0) have two different known values of a feature, read
 * from the ends of the parent's sorted range (ascending, missing last). Where they have not,
 * no node of the branch's subtree can cut on the feature (the scan finds no threshold between
 * equal values, nor in fewer than two), so the child keeps no list for it: `sorted[f]` null.
 */
function canCut(list: Int32Array, values: Float64Array, start: number, end: number, map: Int32Array): boolean {
  let lo = start;
  while (lo < end && map[list[lo]] < 0) lo++;
  let hi = firstMissing(values, start, end) - 1;
  while (hi >= lo && map[list[hi]] < 0) hi--;
  return hi > lo && values[lo] !== values[hi];
}

/**
 * The position of the first missing value in values[start, end) (ascending, NaN last), or end:
 * a binary search, where a scan back would pass every missing slot (82 % of a column in movies.csv).
 */
export function firstMissing(values: Float64Array, start: number, end: number): number {
  let lo = start;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] === values[mid]) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The entries of a parent's list range [start, end) whose slot the branch keeps (map ≥ 0), as
 * child slots, with their values and classes or targets; `m` of them. Branch-free: every entry
 * is written and the position advances only for a kept one (which is a coin flip per entry, a
 * branch the processor would often mispredict); the loop ends at the m-th, so no write passes the end.
 */
function copyFiltered(
  list: Int32Array,
  pv: Float64Array,
  pc: Int32Array | null,
  pt: Float64Array | null,
  start: number,
  end: number,
  map: Int32Array,
  m: number,
  out: Int32Array,
  sv: Float64Array,
  sc: Int32Array | null,
  st: Float64Array | null,
): void {
  let k = 0;
  if (pc && sc) {
    for (let i = start; i < end && k < m; i++) {
      const j = map[list[i]];
      out[k] = j;
      sv[k] = pv[i];
      sc[k] = pc[i];
      k += (j >>> 31) ^ 1;
    }
  } else if (pt && st) {
    for (let i = start; i < end && k < m; i++) {
      const j = map[list[i]];
      out[k] = j;
      sv[k] = pv[i];
      st[k] = pt[i];
      k += (j >>> 31) ^ 1;
    }
  } else {
    for (let i = start; i < end && k < m; i++) {
      const j = map[list[i]];
      out[k] = j;
      sv[k] = pv[i];
      k += (j >>> 31) ^ 1;
    }
  }
}

/** Whether the first m entries are all exactly 1 (unit weights, whole rows: the fast paths of the split search). */
function allOnes(a: Float64Array, m: number): boolean {
  for (let i = 0; i < m; i++) if (a[i] !== 1) return false;
  return true;
}

function ones(m: number): Float64Array {
  const a = new Float64Array(m);
  for (let i = 0; i < m; i++) a[i] = 1;
  return a;
}

export function accumulate(range: NodeRange, out: Float64Array): number {
  out.fill(0);
  const { w, members, yc, yr } = range.arena;
  let total = 0;
  if (yc) {
    for (let i = range.start; i < range.end; i++) {
      const s = members[i];
      out[yc[s]] += w[s];
      total += w[s];
    }
  } else {
    const y = yr as Float64Array;
    for (let i = range.start; i < range.end; i++) {
      const s = members[i];
      const wi = w[s];
      const yi = y[s];
      out[0] += wi;
      out[1] += wi * yi;
      out[2] += wi * yi * yi;
      total += wi;
    }
  }
  return total;
}

/** Branch of one row under a rule; -1 when the tested value is missing. */
export function branchOf(rule: SplitRule, cols: TreeColumns, row: number): number {
  if (rule.kind === THRESHOLD) {
    const v = (cols.num[rule.feature] as Float64Array)[row];
    return v !== v ? -1 : v <= rule.threshold ? 0 : 1;
  }
  if (rule.kind === CATEGORICAL) {
    const c = (cols.cat[rule.feature] as Int32Array)[row];
    return c < 0 ? -1 : (rule.levelMap as Int32Array)[c];
  }
  const wts = rule.weights as Float64Array;
  let z = 0;
  for (let j = 0; j < wts.length; j++) {
    if (wts[j] !== 0) z += wts[j] * (cols.num[j] as Float64Array)[row];
  }
  return z !== z ? -1 : z <= rule.threshold ? 0 : 1;
}
