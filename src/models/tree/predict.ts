/**
 * Prediction: each row walks from the root over flat arrays, no allocation per
 * row. A row missing the tested value (or with a level the node routes as
 * missing) continues down every branch, weighted by the branch's share of the
 * training weight, and the reached leaves' distributions (or means) are combined
 * with those weights (seed 000 §4.2).
 */
import type { Frame } from "../../data/frame.js";
import type { Prediction } from "../contract.js";
import type { TreeColumns } from "./tree-columns.js";
import { columnsFor } from "./tree-columns.js";
import { addLeafModelOutput } from "./leaf-model.js";
import type { TreeState } from "./tree-state.js";
import { CATEGORICAL as CATEGORICAL_KIND, LEAF as LEAF_KIND, THRESHOLD as THRESHOLD_KIND, valueWidth } from "./tree-state.js";

// Module-local copies: some loaders turn imported bindings into getter calls, which the hot loop would pay per node.
const LEAF: number = LEAF_KIND;
const THRESHOLD: number = THRESHOLD_KIND;
const CATEGORICAL: number = CATEGORICAL_KIND;

/** Branch taken at an internal node, or -1 when the row's value is missing there. */
function branch(s: TreeState, cols: TreeColumns, node: number, row: number): number {
  const k = s.kind[node];
  if (k === THRESHOLD) {
    const v = (cols.num[s.feature[node]] as Float64Array)[row];
    return v !== v ? -1 : v <= s.threshold[node] ? 0 : 1;
  }
  if (k === CATEGORICAL) {
    const f = s.feature[node];
    const c = (cols.cat[f] as Int32Array)[row];
    return c < 0 || c >= cols.nLevels[f] ? -1 : s.levelMap[s.mapOffset[node] + c];
  }
  const off = s.mapOffset[node];
  const d = cols.num.length;
  let z = 0;
  for (let j = 0; j < d; j++) {
    const wj = s.obliqueWeights[off + j];
    if (wj !== 0) z += wj * (cols.num[j] as Float64Array)[row];
  }
  return z !== z ? -1 : z <= s.threshold[node] ? 0 : 1;
}

/**
 * What prediction derives from a state, built once per loaded state (not per call:
 * a single-row predict must not touch every node, nor allocate views):
 * - leaf outputs ready to copy: class distributions normalised to probabilities
 *   (an empty-branch leaf carries its parent's counts), or means;
 * - the threshold tests packed 16 bytes per node (threshold, feature, first child)
 *   in one buffer, so a step of the walk touches one cache line instead of four
 *   arrays; feature is -1 at a leaf and -2 at a categorical or oblique node (the
 *   general walk takes over there).
 */
interface Compiled {
  readonly leafOut: Float64Array;
  readonly PF: Float64Array;
  readonly PI: Int32Array;
  /** Perceptron leaves (leaf-model.ts): a model's offset per node, -1 for none; null when the tree has none. */
  readonly modelAt: Int32Array | null;
}

const compiled = new WeakMap<TreeState, Compiled>();

function compile(s: TreeState): Compiled {
  let c = compiled.get(s);
  if (c) return c;
  const W = valueWidth(s);
  const n = s.kind.length;
  const leafOut = Float64Array.from(s.value);
  if (s.task === "classification") {
    for (let node = 0; node < n; node++) {
      let total = 0;
      for (let k = 0; k < W; k++) total += leafOut[node * W + k];
      for (let k = 0; k < W; k++) leafOut[node * W + k] = total > 0 ? leafOut[node * W + k] / total : 0;
    }
  }
  const buf = new ArrayBuffer(16 * n);
  const PF = new Float64Array(buf);
  const PI = new Int32Array(buf);
  for (let node = 0; node < n; node++) {
    PF[2 * node] = s.threshold[node];
    PI[4 * node + 2] = s.kind[node] === THRESHOLD ? s.feature[node] : s.kind[node] === LEAF ? -1 : -2;
    PI[4 * node + 3] = s.childStart[node];
  }
  c = { leafOut, PF, PI, modelAt: s.leafModelOffset ?? null };
  compiled.set(s, c);
  return c;
}

/**
 * Rows are walked in blocks of 128: the block's values are first copied, column by
 * column, into one buffer (feature f of row r at f·128 + r), so a step reads
 * block[f·128 + r] — one load from an array that stays in L1 — instead of going
 * through the column object (three dependent loads, the walk's bottleneck).
 * The buffer and the stop nodes are reused across calls (prediction is synchronous, never re-entered).
 */
const BLOCK_BITS = 7;
const BLOCK = 1 << BLOCK_BITS;
let blockScratch = new Float64Array(BLOCK * 32);
const stopScratch = new Int32Array(BLOCK);

/** Row-major n × W outputs: probabilities (classification) or values (regression). */
export function predictValues(s: TreeState, cols: TreeColumns): Float64Array {
  const n = cols.n;
  const W = valueWidth(s);
  const d = cols.num.length;
  const out = new Float64Array(n * W);
  const compiledState = compile(s);
  const { leafOut, PF, PI, modelAt } = compiledState;
  if (blockScratch.length < BLOCK * d) blockScratch = new Float64Array(BLOCK * d);
  const rows = blockScratch;
  const stops = stopScratch;
  const kind = s.kind;
  const numeric: number[] = [];
  for (let j = 0; j < d; j++) if (cols.num[j]) numeric.push(j);
  for (let start = 0; start < n; start += BLOCK) {
    const end = Math.min(n, start + BLOCK);
    for (const j of numeric) {
      const col = cols.num[j] as Float64Array;
      for (let i = start, o = j << BLOCK_BITS; i < end; i++, o++) rows[o] = col[i];
    }
    // Four rows walk side by side: their loads overlap instead of waiting on each other.
    let i = start;
    for (; i + 4 <= end; i += 4) {
      const r = i - start;
      let n0 = 0;
      let n1 = 0;
      let n2 = 0;
      let n3 = 0;
      while (n0 >= 0 || n1 >= 0 || n2 >= 0 || n3 >= 0) {
        if (n0 >= 0) n0 = thresholdStep(PI, PF, rows, n0, r);
        if (n1 >= 0) n1 = thresholdStep(PI, PF, rows, n1, r + 1);
        if (n2 >= 0) n2 = thresholdStep(PI, PF, rows, n2, r + 2);
        if (n3 >= 0) n3 = thresholdStep(PI, PF, rows, n3, r + 3);
      }
      stops[r] = ~n0;
      stops[r + 1] = ~n1;
      stops[r + 2] = ~n2;
      stops[r + 3] = ~n3;
    }
    for (; i < end; i++) {
      let node = 0;
      while (node >= 0) node = thresholdStep(PI, PF, rows, node, i - start);
      stops[i - start] = ~node;
    }
    for (i = start; i < end; i++) {
      const node = stops[i - start];
      if (kind[node] === LEAF && !(modelAt && modelAt[node] >= 0)) {
        const base = node * W;
        for (let c = 0; c < W; c++) out[i * W + c] = leafOut[base + c];
      } else slowWalk(s, cols, node, i, compiledState, out, W);
    }
  }
  return out;
}

/**
 * One step of the fast path (threshold tests with known values, the whole walk for
 * numeric data): the next node, or ~node (negative) where the walk stops — a leaf,
 * another kind of test, or a missing value. The side is computed, not branched on:
 * it is a coin flip the processor would mispredict half the time.
 */
function thresholdStep(PI: Int32Array, PF: Float64Array, block: Float64Array, node: number, r: number): number {
  const f = PI[4 * node + 2];
  if (f < 0) return ~node;
  const v = block[(f << BLOCK_BITS) + r];
  if (v !== v) return ~node;
  return PI[4 * node + 3] + Number(v > PF[2 * node]);
}

/** Stacks for the missing-value walk, grown as needed and reused across calls. */
let nodeStack = new Int32Array(64);
let weightStack = new Float64Array(64);

/**
 * The general walk from `start` for row i: categorical and oblique tests, a missing
 * value, which spreads the row over the subtree with the branch fractions, and the
 * leaves that hold a perceptron (their class distribution where the row misses a value the perceptron reads).
 */
function slowWalk(s: TreeState, cols: TreeColumns, start: number, i: number, compiledState: Compiled, out: Float64Array, W: number): void {
  const { kind, childStart, childCount, branchFraction } = s;
  const { leafOut, modelAt } = compiledState;
  if (nodeStack.length < kind.length) {
    nodeStack = new Int32Array(kind.length);
    weightStack = new Float64Array(kind.length);
  }
  const o = i * W;
  let top = 0;
  nodeStack[top] = start;
  weightStack[top++] = 1;
  while (top > 0) {
    const at = nodeStack[--top];
    const wt = weightStack[top];
    if (kind[at] === LEAF) {
      if (modelAt && modelAt[at] >= 0 && addLeafModelOutput(s.value, at, W, s.leafModels as Float64Array, modelAt[at], cols.num.length, cols.num, i, out, o, wt)) continue;
      const base = at * W;
      for (let c = 0; c < W; c++) out[o + c] += wt * leafOut[base + c];
      continue;
    }
    const first = childStart[at];
    const br = branch(s, cols, at, i);
    if (br >= 0) {
      nodeStack[top] = first + br;
      weightStack[top++] = wt;
      continue;
    }
    for (let c = 0; c < childCount[at]; c++) {
      const f = branchFraction[first + c];
      if (f > 0) {
        nodeStack[top] = first + c;
        weightStack[top++] = wt * f;
      }
    }
  }
}

export function predictTree(s: TreeState, X: Frame): Prediction {
  const cols = columnsFor(s.features, X);
  const values = predictValues(s, cols);
  if (s.task === "regression") return { task: "regression", values };
  const K = s.classes.length;
  const n = cols.n;
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    const o = i * K;
    for (let k = 1; k < K; k++) if (values[o + k] > values[o + best]) best = k;
    labels[i] = best;
  }
  return { task: "classification", labels, proba: values };
}
