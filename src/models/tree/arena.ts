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
  /** The target per slot (class index or value): read in every scan, so kept next to the slot, not behind `rows`. */
  readonly yc: Int32Array | null;
  readonly yr: Float64Array | null;
  readonly members: Int32Array;
  /** Per feature: slots sorted by value, NaN last (numeric features only). */
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

export function makeArena(
  rows: Int32Array,
  w: Float64Array,
  cols: TreeColumns,
  target: TreeTarget,
  sortedFrom?: (f: number) => Int32Array,
): Arena {
  const m = rows.length;
  const members = new Int32Array(m);
  for (let i = 0; i < m; i++) members[i] = i;
  const sorted: (Int32Array | null)[] = cols.num.map(() => null);
  const sortedValues: (Float64Array | null)[] = cols.num.map(() => null);
  cols.num.forEach((values, f) => {
    if (!values) return;
    let list: Int32Array;
    if (sortedFrom) list = sortedFrom(f);
    else {
      const v = new Float64Array(m);
      for (let i = 0; i < m; i++) v[i] = values[rows[i]];
      list = argsortByValue(members, v);
    }
    const sv = new Float64Array(list.length);
    for (let i = 0; i < list.length; i++) sv[i] = values[rows[list[i]]];
    sorted[f] = list;
    sortedValues[f] = sv;
  });
  const yc = target.yc ? Int32Array.from(rows, (r) => (target.yc as Int32Array)[r]) : null;
  const yr = target.yr ? Float64Array.from(rows, (r) => (target.yr as Float64Array)[r]) : null;
  const sortedClass = sorted.map((list) => (list && yc ? Int32Array.from(list, (s) => yc[s]) : null));
  const sortedTarget = sorted.map((list) => (list && yr ? Float64Array.from(list, (s) => yr[s]) : null));
  let unitWeights = true;
  for (let i = 0; i < m && unitWeights; i++) unitWeights = w[i] === 1;
  return {
    rows,
    w,
    yc,
    yr,
    members,
    sorted,
    sortedValues,
    sortedClass,
    sortedTarget,
    unitWeights,
    mark: new Int32Array(m),
    side: new Uint8Array(m),
    tmp: new Int32Array(m),
  };
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

export interface SplitOutcome {
  readonly children: NodeRange[];
  /** Share of the node's non-missing weight per branch (r̃_v). */
  readonly fractions: Float64Array;
}

/** Sends the node's slots down the rule's branches. */
export function splitRange(range: NodeRange, rule: SplitRule, cols: TreeColumns, target: TreeTarget): SplitOutcome {
  const { arena, start, end } = range;
  const nb = rule.nBranches;
  const { rows, w, members, mark, side } = arena;
  const branchW = new Float64Array(nb);
  const branchN = new Int32Array(nb);
  let missing = 0;
  if (rule.kind === THRESHOLD) {
    // The sorted list of the tested feature already orders the node: no value lookups by row.
    const list = arena.sorted[rule.feature] as Int32Array;
    const values = arena.sortedValues[rule.feature] as Float64Array;
    const t = rule.threshold;
    for (let i = start; i < end; i++) {
      const s = list[i];
      const v = values[i];
      const b = v !== v ? -1 : v <= t ? 0 : 1;
      mark[s] = b;
      side[s] = b;
      if (b < 0) missing++;
      else {
        branchW[b] += w[s];
        branchN[b]++;
      }
    }
  } else {
    for (let i = start; i < end; i++) {
      const s = members[i];
      const b = branchOf(rule, cols, rows[s]);
      mark[s] = b;
      side[s] = b;
      if (b < 0) missing++;
      else {
        branchW[b] += w[s];
        branchN[b]++;
      }
    }
  }
  let known = 0;
  for (let b = 0; b < nb; b++) known += branchW[b];
  const fractions = new Float64Array(nb);
  for (let b = 0; b < nb; b++) fractions[b] = known > 0 ? branchW[b] / known : 0;
  if (missing === 0) return { children: partitionInPlace(range, branchN), fractions };
  return { children: copyWithMissing(range, fractions, cols, target), fractions };
}

function partitionInPlace(range: NodeRange, branchN: Int32Array): NodeRange[] {
  const { arena, start, end } = range;
  const nb = branchN.length;
  const children: NodeRange[] = [];
  let at = start;
  for (let b = 0; b < nb; b++) {
    children.push({ arena, start: at, end: at + branchN[b] });
    at += branchN[b];
  }
  partitionList(arena.members, start, end, arena, branchN);
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
  branchN: Int32Array,
): void {
  const { mark, side, tmp } = arena;
  const tmpV = scratchValues(end - start);
  const tmpT = scratchTargets(end - start);
  const tmpC = scratchClasses(end - start);
  if (branchN.length === 2) {
    let l = start;
    let r = 0;
    for (let i = start; i < end; i++) {
      const s = list[i];
      if (side[s] === 0) {
        values[l] = values[i];
        if (cls) cls[l] = cls[i];
        if (tgt) tgt[l] = tgt[i];
        list[l++] = s;
      } else {
        tmpV[r] = values[i];
        if (cls) tmpC[r] = cls[i];
        if (tgt) tmpT[r] = tgt[i];
        tmp[r++] = s;
      }
    }
    list.set(tmp.subarray(0, r), l);
    values.set(tmpV.subarray(0, r), l);
    if (cls) cls.set(tmpC.subarray(0, r), l);
    if (tgt) tgt.set(tmpT.subarray(0, r), l);
    return;
  }
  const pos = new Int32Array(branchN.length);
  let at = 0;
  for (let b = 0; b < branchN.length; b++) {
    pos[b] = at;
    at += branchN[b];
  }
  for (let i = start; i < end; i++) {
    const s = list[i];
    const p = pos[mark[s]]++;
    tmp[p] = s;
    tmpV[p] = values[i];
    if (cls) tmpC[p] = cls[i];
    if (tgt) tmpT[p] = tgt[i];
  }
  const n = end - start;
  list.set(tmp.subarray(0, n), start);
  values.set(tmpV.subarray(0, n), start);
  if (cls) cls.set(tmpC.subarray(0, n), start);
  if (tgt) tgt.set(tmpT.subarray(0, n), start);
}

let targetScratch = new Float64Array(1024);
function scratchTargets(n: number): Float64Array {
  if (targetScratch.length < n) targetScratch = new Float64Array(Math.max(n, 2 * targetScratch.length));
  return targetScratch;
}

let classScratch = new Int32Array(1024);
function scratchClasses(n: number): Int32Array {
  if (classScratch.length < n) classScratch = new Int32Array(Math.max(n, 2 * classScratch.length));
  return classScratch;
}

let valueScratch = new Float64Array(1024);
function scratchValues(n: number): Float64Array {
  if (valueScratch.length < n) valueScratch = new Float64Array(Math.max(n, 2 * valueScratch.length));
  return valueScratch;
}

function partitionList(list: Int32Array, start: number, end: number, arena: Arena, branchN: Int32Array): void {
  const { mark, side, tmp } = arena;
  if (branchN.length === 2) {
    // Lefts are compacted forward in place (the write index never passes the read index), rights wait in tmp.
    let l = start;
    let r = 0;
    for (let i = start; i < end; i++) {
      const s = list[i];
      if (side[s] === 0) list[l++] = s;
      else tmp[r++] = s;
    }
    list.set(tmp.subarray(0, r), l);
    return;
  }
  const pos = new Int32Array(branchN.length);
  let at = 0;
  for (let b = 0; b < branchN.length; b++) {
    pos[b] = at;
    at += branchN[b];
  }
  for (let i = start; i < end; i++) {
    const s = list[i];
    tmp[pos[mark[s]]++] = s;
  }
  list.set(tmp.subarray(0, end - start), start);
}

function copyWithMissing(range: NodeRange, fractions: Float64Array, cols: TreeColumns, target: TreeTarget): NodeRange[] {
  const { arena, start, end } = range;
  const { rows, w, members, mark } = arena;
  const map = new Int32Array(arena.rows.length);
  const children: NodeRange[] = [];
  for (let b = 0; b < fractions.length; b++) {
    const r = fractions[b];
    let m = 0;
    for (let i = start; i < end; i++) {
      const s = members[i];
      map[s] = mark[s] === b || (mark[s] < 0 && r > 0) ? m++ : -1;
    }
    const crow = new Int32Array(m);
    const cw = new Float64Array(m);
    for (let i = start; i < end; i++) {
      const s = members[i];
      const t = map[s];
      if (t < 0) continue;
      crow[t] = rows[s];
      cw[t] = mark[s] < 0 ? w[s] * r : w[s];
    }
    const child = makeArena(crow, cw, cols, target, (f) => {
      const list = arena.sorted[f] as Int32Array;
      const out = new Int32Array(m);
      let k = 0;
      for (let i = start; i < end; i++) {
        const t = map[list[i]];
        if (t >= 0) out[k++] = t;
      }
      return out;
    });
    children.push({ arena: child, start: 0, end: m });
  }
  return children;
}
