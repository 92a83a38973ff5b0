/**
 * Sorted lists brought up to date only where they are read, for trees that search a few of
 * the features at each node (max_features below the feature count: a random forest searches
 * 4 of 20). Partitioning every feature's list at every split, as arena.ts does for a tree that
 * searches them all, was most of a forest's fit; here a split moves `members` alone, and a
 * feature's list is brought up to date at a node that evaluates it, from the nearest ancestor
 * whose slice of the list is still that ancestor's slots in order (its "base").
 *
 * Bringing a list up to date from base B is one stable distribution of B's slice over the
 * nodes inside B still waiting on the grower's stack (and the node itself): each slot goes to
 * the range its position in `members` puts it in, in list order. Every waiting node inside B
 * then has the list current, so a list is moved once per stretch of levels in which no node
 * wanted it, not once per level. A node's slice comes out exactly as the partitions would have
 * left it (both are stable filters of the same sorted order), so the tree is the same.
 *
 *   base B: [ . . . . . . . . . . . . . . . ]   list f sorted over B's slots
 *   waiting:  [node]  (gap: finished)  [sibling]
 *   after:  [ node's, sorted | gap's | sibling's, sorted ]
 *
 * Why bases nest: a list is moved only from a base, and afterwards every waiting node inside
 * that base has the list current; a node's children inherit its bases. So when a node inside
 * B wants the list, no other move has touched B's slice since B's was established.
 */
import type { Arena, NodeRange, SortedFrom } from "./arena.js";
import { buildSorted, isIdentity } from "./arena.js";
import { partitionSortedTwoWay, scratchClasses, scratchTargets, scratchValues } from "./partition.js";
import type { TreeColumns } from "./tree-columns.js";
import { scratchArray } from "./scratch.js";

/** A node as the lists see it: its range, and per numeric feature f its base [base[2f], base[2f + 1]) in its arena (-1: list not built yet). */
export interface ListNode {
  readonly range: NodeRange;
  readonly base: Int32Array | null;
}

export class LazyLists {
  private readonly wholeColumns: boolean;

  constructor(
    private readonly cols: TreeColumns,
    private readonly root: Arena,
    private readonly sortedFrom: SortedFrom | undefined,
  ) {
    this.wholeColumns = !sortedFrom && isIdentity(root.rows);
  }

  /** The root's bases: no list built yet. */
  rootBase(): Int32Array {
    return new Int32Array(2 * this.cols.num.length).fill(-1);
  }

  /** A child's bases: its parent's, or (a missing-value branch, built with every list current: arena.ts childArena) its own range. */
  childBase(parent: ListNode, child: NodeRange): Int32Array {
    if (child.arena === parent.range.arena) return (parent.base as Int32Array).slice();
    const base = new Int32Array(2 * this.cols.num.length);
    for (let f = 0; f < this.cols.num.length; f++) {
      base[2 * f] = child.start;
      base[2 * f + 1] = child.end;
    }
    return base;
  }

  /** Every list of `node` current (before a split copies them all: partition.ts copyWithMissing). */
  freshenAll(node: ListNode, waiting: readonly ListNode[]): void {
    const all: number[] = [];
    for (let f = 0; f < this.cols.num.length; f++) all.push(f);
    this.freshen(node, all, all.length, waiting);
  }

  /** The lists of the first `count` features of `features` current for `node`; `waiting`: the grower's stack. */
  freshen(node: ListNode, features: readonly number[], count: number, waiting: readonly ListNode[]): void {
    const base = node.base as Int32Array;
    const { arena, start, end } = node.range;
    const m = arena.rows.length;
    // Features grouped by base: one labelling of the slots serves every list moved from the same base.
    let groups: Map<number, number[]> | null = null;
    for (let q = 0; q < count; q++) {
      const f = features[q];
      if (!this.cols.num[f] || (base[2 * f] === start && base[2 * f + 1] === end)) continue;
      // Built and null: a missing-value branch's arena keeps no list where no threshold is left (arena.ts canCut).
      if (base[2 * f] >= 0 && !arena.sorted[f]) continue;
      if (base[2 * f] < 0) {
        // Not built: the whole arena's slots are its base (every waiting node of the arena has -1 too).
        buildSorted(arena, f, this.cols, this.sortedFrom, arena === this.root && this.wholeColumns);
        base[2 * f] = 0;
        base[2 * f + 1] = m;
        for (const other of waiting) {
          if (other.range.arena !== arena) continue;
          const b = other.base as Int32Array;
          b[2 * f] = 0;
          b[2 * f + 1] = m;
        }
        if (start === 0 && end === m) continue;
      }
      const key = base[2 * f] * (m + 1) + base[2 * f + 1];
      groups ??= new Map();
      const group = groups.get(key);
      if (group) group.push(f);
      else groups.set(key, [f]);
    }
    if (!groups) return;
    for (const fs of groups.values()) {
      const bs = base[2 * fs[0]];
      const be = base[2 * fs[0] + 1];
      const inside: ListNode[] = [node];
      for (const other of waiting) {
        const r = other.range;
        if (r.arena === arena && r.start >= bs && r.end <= be) inside.push(other);
      }
      inside.sort((a, b) => a.range.start - b.range.start);
      distribute(arena, bs, be, inside, fs);
      for (const n of inside) {
        const b = n.base as Int32Array;
        for (const f of fs) {
          b[2 * f] = n.range.start;
          b[2 * f + 1] = n.range.end;
        }
      }
    }
  }
}

/** Segments one pass tells apart: a byte per slot says which. */
const MAX_SEGMENTS = 256;

/**
 * Stable distribution of the lists `features` over [bs, be) by segment: each node's range in
 * `inside` (ascending, disjoint) is a segment, and so is each stretch between them (finished
 * nodes, whose slices nobody reads again). A slot's segment is where its position in
 * `members` lies. Past MAX_SEGMENTS (thousands of waiting nodes), the first nodes' segments
 * and the rest as one are told apart in a pass, and the rest is distributed again.
 */
function distribute(arena: Arena, bs: number, be: number, inside: readonly ListNode[], features: readonly number[]): void {
  const { members } = arena;
  const labels = scratchLabels(arena.rows.length);
  let from = bs;
  let q = 0;
  while (from < be) {
    const offsets: number[] = [];
    let i = from;
    // Each node takes at most two segments (the stretch before it, itself); one is kept for the rest.
    for (; q < inside.length && offsets.length + 3 <= MAX_SEGMENTS; q++) {
      const r = inside[q].range;
      if (r.start > i) i = labelSegment(members, labels, i, r.start, from, offsets);
      i = labelSegment(members, labels, i, r.end, from, offsets);
    }
    if (i < be) labelSegment(members, labels, i, be, from, offsets);
    const last = offsets[offsets.length - 1] + from;
    if (offsets.length > 1) scatter(arena, from, be, offsets, labels, features);
    from = q < inside.length ? last : be;
  }
}

/** Labels the slots at positions [at, to) of members as the next segment (offsets gets its start, relative to `from`); returns `to`. */
function labelSegment(members: Int32Array, labels: Uint8Array, at: number, to: number, from: number, offsets: number[]): number {
  const k = offsets.length;
  offsets.push(at - from);
  for (let i = at; i < to; i++) labels[members[i]] = k;
  return to;
}

function scatter(arena: Arena, from: number, to: number, offsets: readonly number[], label: Uint8Array, features: readonly number[]): void {
  const n = to - from;
  const tmp = scratchSlots(n);
  if (offsets.length === 2) {
    for (const f of features) partitionSortedTwoWay(arena.sorted[f] as Int32Array, arena.sortedValues[f] as Float64Array, arena.sortedClass[f], arena.sortedTarget[f], from, to, label, tmp);
    return;
  }
  const cursor = new Int32Array(offsets.length);
  const tmpV = scratchValues(n);
  for (const f of features) {
    const list = arena.sorted[f] as Int32Array;
    const values = arena.sortedValues[f] as Float64Array;
    const cls = arena.sortedClass[f];
    const tgt = arena.sortedTarget[f];
    for (let k = 0; k < offsets.length; k++) cursor[k] = offsets[k];
    if (cls) {
      const tmpC = scratchClasses(n);
      for (let j = from; j < to; j++) {
        const s = list[j];
        const p = cursor[label[s]]++;
        tmp[p] = s;
        tmpV[p] = values[j];
        tmpC[p] = cls[j];
      }
      cls.set(tmpC.subarray(0, n), from);
    } else {
      const tmpT = tgt ? scratchTargets(n) : null;
      for (let j = from; j < to; j++) {
        const s = list[j];
        const p = cursor[label[s]]++;
        tmp[p] = s;
        tmpV[p] = values[j];
        if (tmpT) tmpT[p] = (tgt as Float64Array)[j];
      }
      if (tgt) tgt.set((tmpT as Float64Array).subarray(0, n), from);
    }
    list.set(tmp.subarray(0, n), from);
    values.set(tmpV.subarray(0, n), from);
  }
}

/** Segment per slot while lists are distributed. */
const scratchLabels = scratchArray(Uint8Array);

const scratchSlots = scratchArray(Int32Array);
