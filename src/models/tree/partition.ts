/**
 * Sending a node's slots down a split. Without missing values every list is
 * partitioned in place, stably (so each stays sorted) — the children own
 * consecutive sub-ranges; with missing values (C4.5 weighting) the slots are
 * copied into one fresh arena per branch, missing ones with reduced weights.
 */
import type { Arena, NodeRange, SplitRule, TreeTarget } from "./arena.js";
import { branchOf, childArena, firstMissing } from "./arena.js";
import type { TreeColumns } from "./tree-columns.js";
import { THRESHOLD } from "./tree-state.js";
import { scratchArray } from "./scratch.js";

export interface SplitOutcome {
  /** Per branch: its rows, or null for a branch with missing-value copies that becomes a leaf at once (its rows are never built). */
  readonly children: (NodeRange | null)[];
  /** Share of the node's non-missing weight per branch (r̃_v). */
  readonly fractions: Float64Array;
  /** Per branch: its statistics (class weights, or Σw, Σw·y, Σw·y²) and weight, missing slots' shares included. */
  readonly stats: Float64Array[];
  readonly weights: Float64Array;
  /** Per branch: its row count, a missing-value copy counting by its share (Arena.share). */
  readonly counts: Float64Array;
}

/**
 * Which children will be split again, judged from their row counts and statistics:
 * when none will, the lists need no partitioning (the deepest splits of a tree,
 * a good share of the work, end in leaves).
 */
export type NeedsRows = (count: number, stats: Float64Array, weight: number) => boolean;

/**
 * A tree whose sorted lists are brought up to date only when read (lazy-lists.ts): a split
 * then moves `members` alone, and the lists must be current before a split with missing
 * values copies them into its branches' arenas.
 */
export interface StaleLists {
  freshenAll(): void;
}

/** Sends the node's slots down the rule's branches. */
export function splitRange(range: NodeRange, rule: SplitRule, cols: TreeColumns, target: TreeTarget, needsRows: NeedsRows, lazy: StaleLists | null = null): SplitOutcome {
  const { arena, start, end } = range;
  const nb = rule.nBranches;
  const { rows, w, members, mark, side, share } = arena;
  const S = target.S;
  const small = arena.buffers.small;
  const branchW = small.take(nb);
  /** Slots per branch (whole numbers). */
  const branchN = small.take(nb);
  const branchC = small.take(nb);
  const bstats = small.take(nb * S);
  let missing = 0;
  if (rule.kind === THRESHOLD) missing = thresholdBranches(range, rule, S, branchW, branchN, branchC, bstats);
  else {
    for (let i = start; i < end; i++) {
      const s = members[i];
      const b = branchOf(rule, cols, rows[s]);
      mark[s] = b;
      side[s] = b;
      if (b < 0) missing++;
      else {
        branchW[b] += w[s];
        branchN[b]++;
        branchC[b] += share[s];
        addStats(bstats, b * S, arena, s, w[s]);
      }
    }
  }
  let known = 0;
  for (let b = 0; b < nb; b++) known += branchW[b];
  const fractions = small.take(nb);
  for (let b = 0; b < nb; b++) fractions[b] = known > 0 ? branchW[b] / known : 0;
  if (missing === 0) {
    const stats: Float64Array[] = [];
    for (let b = 0; b < nb; b++) stats.push(bstats.subarray(b * S, (b + 1) * S));
    const counts = arena.wholeRows ? branchN : branchC;
    let partition = false;
    for (let b = 0; b < nb && !partition; b++) partition = needsRows(counts[b], stats[b], branchW[b]);
    const children = partition ? partitionInPlace(range, branchN, !lazy) : rangesOnly(range, branchN);
    return { children, fractions, stats, weights: branchW, counts };
  }
  lazy?.freshenAll();
  return copyWithMissing(range, fractions, target, needsRows);
}

/**
 * A threshold split's marks and per-branch sums, read from the tested feature's sorted list,
 * which already orders the node (missing values last): the left branch is a prefix of it, the
 * right the stretch after, so no value is compared per slot and nothing is looked up by row
 * but the weight. Sums run slot by slot in list order, as a pass over the whole list would.
 * Returns the count of missing values (marked -1; `mark` is written only then, for copyWithMissing).
 */
function thresholdBranches(range: NodeRange, rule: SplitRule, S: number, branchW: Float64Array, branchN: Float64Array, branchC: Float64Array, bstats: Float64Array): number {
  const { arena, start, end } = range;
  const { w, mark, side, share, wholeRows } = arena;
  const list = arena.sorted[rule.feature] as Int32Array;
  const values = arena.sortedValues[rule.feature] as Float64Array;
  const cls = arena.sortedClass[rule.feature];
  const tgt = arena.sortedTarget[rule.feature];
  const t = rule.threshold;
  const known = firstMissing(values, start, end);
  // First position past the threshold: values[start, known) ascend.
  let lo = start;
  let hi = known;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  const cut = lo;
  const missing = end - known;
  for (let b = 0, from = start, to = cut; b < 2; b++, from = cut, to = known) {
    let W = 0;
    let C = 0;
    const off = b * S;
    for (let i = from; i < to; i++) {
      const s = list[i];
      side[s] = b;
      const ws = w[s];
      W += ws;
      if (!wholeRows) C += share[s];
      if (cls) bstats[off + cls[i]] += ws;
      else {
        const y = (tgt as Float64Array)[i];
        bstats[off] += ws;
        bstats[off + 1] += ws * y;
        bstats[off + 2] += ws * y * y;
      }
    }
    branchW[b] = W;
    branchN[b] = to - from;
    branchC[b] = C;
  }
  if (missing > 0) {
    for (let i = start; i < end; i++) mark[list[i]] = i < cut ? 0 : i < known ? 1 : -1;
  }
  return missing;
}

function addStats(out: Float64Array, off: number, arena: Arena, s: number, wi: number): void {
  if (arena.yc) out[off + arena.yc[s]] += wi;
  else {
    const y = (arena.yr as Float64Array)[s];
    out[off] += wi;
    out[off + 1] += wi * y;
    out[off + 2] += wi * y * y;
  }
}

/** Children's ranges without moving anything: only for children that become leaves at once. */
function rangesOnly(range: NodeRange, branchN: Float64Array): NodeRange[] {
  const children: NodeRange[] = [];
  let at = range.start;
  for (let b = 0; b < branchN.length; b++) {
    children.push({ arena: range.arena, start: at, end: at + branchN[b] });
    at += branchN[b];
  }
  return children;
}

function partitionInPlace(range: NodeRange, branchN: Float64Array, lists: boolean): NodeRange[] {
  const { arena, start, end } = range;
  const children = rangesOnly(range, branchN);
  partitionList(arena.members, start, end, arena, branchN);
  if (!lists) return children;
  arena.sorted.forEach((list, f) => {
    if (list) partitionSorted(list, arena.sortedValues[f] as Float64Array, arena.sortedClass[f], arena.sortedTarget[f], start, end, arena, branchN);
  });
  return children;
}

/** partitionList for a sorted list and its parallel values and targets. */
function partitionSorted(
  list: Int32Array,
  values: Float64Array,
  cls: Int32Array | null,
  tgt: Float64Array | null,
  start: number,
  end: number,
  arena: Arena,
  branchN: Float64Array,
): void {
  const { mark, side, tmp } = arena;
  if (branchN.length === 2) return partitionSortedTwoWay(list, values, cls, tgt, start, end, side, tmp);
  const tmpV = scratchValues(end - start);
  const tmpT = scratchTargets(end - start);
  const tmpC = scratchClasses(end - start);
  const pos = branchStarts(branchN);
  for (let i = start; i < end; i++) {
    const s = list[i];
    const p = pos[mark[s]]++;
    tmp[p] = s;
    tmpV[p] = values[i];
    if (cls) tmpC[p] = cls[i];
    if (tgt) tmpT[p] = tgt[i];
  }
  const n = end - start;
  for (let i = 0; i < n; i++) list[start + i] = tmp[i];
  for (let i = 0; i < n; i++) values[start + i] = tmpV[i];
  if (cls) for (let i = 0; i < n; i++) cls[start + i] = tmpC[i];
  if (tgt) for (let i = 0; i < n; i++) tgt[start + i] = tmpT[i];
}

/** Where each branch's slots begin in a multiway partition's scratch (reused: one per list of every such split). */
const scratchStarts = scratchArray(Int32Array, 64);
function branchStarts(branchN: Float64Array): Int32Array {
  const nb = branchN.length;
  const pos = scratchStarts(nb);
  let at = 0;
  for (let b = 0; b < nb; b++) {
    pos[b] = at;
    at += branchN[b];
  }
  return pos;
}

/**
 * The stable two-way partition of [start, end) of a sorted list and its parallel values and
 * targets: slots with side 0 first, then side 1 (side indexed by slot); tmp: scratch of end − start.
 */
export function partitionSortedTwoWay(list: Int32Array, values: Float64Array, cls: Int32Array | null, tgt: Float64Array | null, start: number, end: number, side: Uint8Array, tmp: Int32Array): void {
  const tmpV = scratchValues(end - start);
  const tmpT = scratchTargets(end - start);
  const tmpC = scratchClasses(end - start);
  // Branch-free: each entry is written to both destinations and only one index advances.
  // A left/right guess would miss half the time; a store that is later overwritten costs less.
  let l = start;
  let r = 0;
  if (cls) {
    for (let i = start; i < end; i++) {
      const s = list[i];
      const b = side[s];
      const v = values[i];
      const c = cls[i];
      list[l] = s;
      values[l] = v;
      cls[l] = c;
      tmp[r] = s;
      tmpV[r] = v;
      tmpC[r] = c;
      l += 1 - b;
      r += b;
    }
  } else {
    for (let i = start; i < end; i++) {
      const s = list[i];
      const b = side[s];
      const v = values[i];
      list[l] = s;
      values[l] = v;
      tmp[r] = s;
      tmpV[r] = v;
      if (tgt) {
        const t = tgt[i];
        tgt[l] = t;
        tmpT[r] = t;
      }
      l += 1 - b;
      r += b;
    }
  }
  for (let i = 0; i < r; i++) list[l + i] = tmp[i];
  for (let i = 0; i < r; i++) values[l + i] = tmpV[i];
  if (cls) for (let i = 0; i < r; i++) cls[l + i] = tmpC[i];
  if (tgt) for (let i = 0; i < r; i++) tgt[l + i] = tmpT[i];
}

export const scratchTargets = scratchArray(Float64Array);

export const scratchClasses = scratchArray(Int32Array);

export const scratchValues = scratchArray(Float64Array);

function partitionList(list: Int32Array, start: number, end: number, arena: Arena, branchN: Float64Array): void {
  const { mark, side, tmp } = arena;
  if (branchN.length === 2) {
    // Lefts are compacted forward in place (the write index never passes the read index), rights wait in tmp.
    let l = start;
    let r = 0;
    for (let i = start; i < end; i++) {
      const s = list[i];
      const b = side[s];
      list[l] = s;
      tmp[r] = s;
      l += 1 - b;
      r += b;
    }
    for (let i = 0; i < r; i++) list[l + i] = tmp[i];
    return;
  }
  const pos = branchStarts(branchN);
  for (let i = start; i < end; i++) {
    const s = list[i];
    tmp[pos[mark[s]]++] = s;
  }
  for (let i = 0, n = end - start; i < n; i++) list[start + i] = tmp[i];
}

/**
 * C4.5's weighting: each branch gets its own rows plus every row missing the tested
 * value, with weight and share × the branch's fraction. Statistics are summed slot by
 * slot in node order (as a fresh arena would sum them); arenas are built only for the
 * branches that will be split again.
 */
function copyWithMissing(range: NodeRange, fractions: Float64Array, target: TreeTarget, needsRows: NeedsRows): SplitOutcome {
  const { arena, start, end } = range;
  const { w, members, mark, share } = arena;
  const nb = fractions.length;
  const S = target.S;
  const small = arena.buffers.small;
  const stats: Float64Array[] = [];
  for (let b = 0; b < nb; b++) stats.push(small.take(S));
  const weights = small.take(nb);
  const counts = small.take(nb);
  const sizes = small.take(nb);
  for (let i = start; i < end; i++) {
    const s = members[i];
    const b = mark[s];
    if (b >= 0) {
      addStats(stats[b], 0, arena, s, w[s]);
      weights[b] += w[s];
      counts[b] += share[s];
      sizes[b]++;
      continue;
    }
    for (let c = 0; c < nb; c++) {
      const r = fractions[c];
      if (!(r > 0)) continue;
      const wi = w[s] * r;
      addStats(stats[c], 0, arena, s, wi);
      weights[c] += wi;
      counts[c] += share[s] * r;
      sizes[c]++;
    }
  }
  const map = scratchMap(arena.rows.length);
  const children: (NodeRange | null)[] = [];
  for (let b = 0; b < nb; b++) {
    if (sizes[b] === 0 || !needsRows(counts[b], stats[b], weights[b])) {
      children.push(sizes[b] === 0 ? { arena, start, end: start } : null);
      continue;
    }
    const child = childArena(arena, start, end, b, fractions[b], sizes[b], map);
    children.push({ arena: child, start: 0, end: sizes[b] });
  }
  return { children, fractions, stats, weights, counts };
}

/** Slot → child slot while one branch is copied; only the node's own slots are written and read. */
const scratchMap = scratchArray(Int32Array);
