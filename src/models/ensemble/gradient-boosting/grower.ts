/**
 * Grows one regression tree on gradients and hessians, leaf-wise (best-first, as
 * LightGBM and scikit-learn's `grower.py`): the leaf whose best split gains most is
 * split next, until `maxLeafNodes` leaves, no leaf with a positive gain, or `maxDepth`.
 *
 * Each node owns the range rows[start..end) of one row array, partitioned in place
 * when it splits (LightGBM's data_partition), so a leaf's rows are a contiguous run
 * the booster reads to update its raw predictions. A split builds the histogram of
 * the smaller child and turns the parent's buffer into the larger child's by subtraction.
 */
import { throwIfAborted, type AbortFlag } from "../../contract.js";
import type { BinMapper } from "./binning.js";
import { buildHistogram, buildRootHistogram, type HistogramPool, subtractInto } from "./histogram.js";
import { emptySplit, findBestSplit, type SplitInfo, type SplitOptions } from "./split.js";

export interface GrowOptions extends SplitOptions {
  readonly maxLeafNodes: number;
  /** Deepest level a leaf may sit at (root = 0); null: no limit. */
  readonly maxDepth: number | null;
  readonly learningRate: number;
}

/** What the grower reads; buffers are owned by the booster and reused across trees. */
export interface GrowData {
  readonly bins: readonly Uint8Array[];
  readonly mapper: BinMapper;
  /** Features this tree may split on (colsample), ascending. */
  readonly features: Int32Array;
  /** Per training row. */
  readonly g: Float64Array;
  readonly h: Float64Array;
  /** rows[0..m) are this tree's rows; partitioned in place. */
  readonly rows: Int32Array;
  readonly m: number;
  readonly scratch: Int32Array;
  /** countHistogram of all rows. */
  readonly rootCounts: Float64Array;
  readonly og: Float64Array;
  readonly oh: Float64Array;
}

/** A grown tree over bins; leaves keep their row ranges. Nodes are numbered in creation order (children after parents). */
export interface GrownTree {
  readonly feature: number[];
  readonly left: number[];
  readonly right: number[];
  /** Leaf: its output (already × learning rate); internal: what it would output as a leaf. */
  readonly value: number[];
  readonly gain: number[];
  readonly count: number[];
  readonly hessian: number[];
  readonly goLeft: (Uint8Array | null)[];
  readonly binThreshold: number[];
  readonly missingLeft: boolean[];
  readonly categorical: boolean[];
  readonly start: number[];
  readonly end: number[];
}

interface Pending {
  readonly node: number;
  readonly depth: number;
  hist: Float64Array | null;
  readonly split: SplitInfo;
}

export function growTree(data: GrowData, o: GrowOptions, pool: HistogramPool, signal?: AbortFlag): GrownTree {
  const t: GrownTree = { feature: [], left: [], right: [], value: [], gain: [], count: [], hessian: [], goLeft: [], binThreshold: [], missingLeft: [], categorical: [], start: [], end: [] };
  const { mapper, features, rows } = data;
  const nodeG: number[] = [];
  const addNode = (start: number, end: number, G: number, H: number, C: number): number => {
    nodeG.push(G);
    t.feature.push(-1);
    t.left.push(-1);
    t.right.push(-1);
    t.value.push(-o.learningRate * (H + o.l2 > 0 ? G / (H + o.l2) : 0));
    t.gain.push(0);
    t.count.push(C);
    t.hessian.push(H);
    t.goLeft.push(null);
    t.binThreshold.push(0);
    t.missingLeft.push(false);
    t.categorical.push(false);
    t.start.push(start);
    t.end.push(end);
    return t.feature.length - 1;
  };
  const histogramOf = (node: number): Float64Array => {
    const hist = pool.acquire();
    const s = t.start[node];
    const e = t.end[node];
    if (s === 0 && e === data.g.length) {
      // Every row, in order (the root without row sampling): no gather, no indirection.
      buildRootHistogram(hist, data.bins, mapper.maxBins, mapper.nBins, features, data.g, data.h, data.rootCounts);
      return hist;
    }
    for (let i = s; i < e; i++) {
      data.og[i - s] = data.g[rows[i]];
      data.oh[i - s] = data.h[rows[i]];
    }
    buildHistogram(hist, data.bins, mapper.maxBins, mapper.nBins, features, rows, s, e, data.og, data.oh);
    return hist;
  };
  const splittable = (node: number, depth: number) =>
    (o.maxDepth === null || depth < o.maxDepth) && t.count[node] >= 2 * o.minSamplesLeaf && t.hessian[node] >= 2 * o.minChildWeight;
  const pending: Pending[] = [];
  /** Finds the node's split; keeps it (with its histogram) when it gains, else frees the histogram. */
  const consider = (node: number, depth: number, hist: Float64Array): void => {
    const split = emptySplit(mapper.maxBins);
    findBestSplit(hist, mapper, features, nodeG[node], t.hessian[node], t.count[node], o, split);
    if (split.feature < 0) pool.release(hist);
    else pending.push({ node, depth, hist, split });
  };

  let G0 = 0;
  let H0 = 0;
  for (let i = 0; i < data.m; i++) {
    G0 += data.g[rows[i]];
    H0 += data.h[rows[i]];
  }
  addNode(0, data.m, G0, H0, data.m);
  if (splittable(0, 0)) consider(0, 0, histogramOf(0));

  let leaves = 1;
  while (leaves < o.maxLeafNodes && pending.length > 0) {
    throwIfAborted(signal);
    let pick = 0;
    for (let i = 1; i < pending.length; i++) if (pending[i].split.gain > pending[pick].split.gain) pick = i;
    const p = pending[pick];
    pending.splice(pick, 1);
    const { node, split } = p;
    const mid = partition(data, split.feature, split.goLeft, t.start[node], t.end[node]);
    const L = addNode(t.start[node], mid, split.gl, split.hl, split.cl);
    const R = addNode(mid, t.end[node], split.gr, split.hr, split.cr);
    t.feature[node] = split.feature;
    t.left[node] = L;
    t.right[node] = R;
    t.gain[node] = split.gain;
    t.goLeft[node] = split.goLeft;
    t.binThreshold[node] = split.binThreshold;
    t.missingLeft[node] = split.missingLeft;
    t.categorical[node] = split.categorical;
    leaves++;
    const parentHist = p.hist as Float64Array;
    const depth = p.depth + 1;
    const canL = leaves < o.maxLeafNodes && splittable(L, depth);
    const canR = leaves < o.maxLeafNodes && splittable(R, depth);
    if (!canL && !canR) {
      pool.release(parentHist);
      continue;
    }
    const small = t.count[L] <= t.count[R] ? L : R;
    const large = small === L ? R : L;
    const smallHist = histogramOf(small);
    subtractInto(parentHist, smallHist, mapper.maxBins, mapper.nBins, features);
    const canSmall = small === L ? canL : canR;
    const canLarge = small === L ? canR : canL;
    if (canSmall) consider(small, depth, smallHist);
    else pool.release(smallHist);
    if (canLarge) consider(large, depth, parentHist);
    else pool.release(parentHist);
  }
  for (const p of pending) if (p.hist) pool.release(p.hist);
  return t;
}

/** Stable partition of rows[start..end) by the split's bin table; returns the first right position. */
function partition(data: GrowData, feature: number, goLeft: Uint8Array, start: number, end: number): number {
  const col = data.bins[feature];
  const rows = data.rows;
  const scratch = data.scratch;
  let l = start;
  let r = 0;
  // Branch-free: which side a row goes is a coin flip to the branch predictor.
  for (let i = start; i < end; i++) {
    const row = rows[i];
    const left = goLeft[col[row]];
    rows[l] = row;
    scratch[r] = row;
    l += left;
    r += 1 - left;
  }
  rows.set(scratch.subarray(0, r), l);
  return l;
}

/** The leaf a binned row reaches (for rows outside the tree's sample, and for validation rows). */
export function leafOfBinned(t: GrownTree, bins: readonly Uint8Array[], row: number): number {
  let node = 0;
  while (t.feature[node] >= 0) node = (t.goLeft[node] as Uint8Array)[bins[t.feature[node]][row]] === 1 ? t.left[node] : t.right[node];
  return node;
}
