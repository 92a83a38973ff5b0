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
import { wasmStops } from "./wasm-walk.js";
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
  /** Per node: the class a row ending there gets (0 for regression), or -1 where the walk must go on (not a leaf, or a perceptron leaf). */
  readonly leafLabel: Int32Array;
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
  const modelAt = s.leafModelOffset ?? null;
  const leafLabel = new Int32Array(n).fill(-1);
  for (let node = 0; node < n; node++) {
    const k = s.kind[node];
    PF[2 * node] = s.threshold[node];
    PI[4 * node + 2] = k === THRESHOLD ? s.feature[node] : k === LEAF ? -1 : -2;
    PI[4 * node + 3] = s.childStart[node];
    if (k === LEAF && !(modelAt && modelAt[node] >= 0)) leafLabel[node] = s.task === "classification" ? argmax(leafOut, node * W, W) : 0;
  }
  c = { leafOut, leafLabel, PF, PI, modelAt };
  compiled.set(s, c);
  return c;
}

/**
 * The walk reads each tested value straight from its column (C[f][i]): four rows in
 * flight hide those dependent loads, which made gathering a row-major block first
 * (every value copied once, ≈ 0.9 ms of 3.1 ms for 25,000 × 20) cost more than it saved.
 * The stop nodes are reused across calls (prediction is synchronous, never re-entered).
 */
let stopScratch = new Int32Array(128);

/**
 * From this many rows the walk runs in WebAssembly (wasm-walk.ts, same stops): below it,
 * copying the tree's nodes and the rows into its memory costs more than the faster steps save.
 */
const WASM_MIN_ROWS = 64;

/** Row-major n × W outputs: probabilities (classification) or values (regression). */
export function predictValues(s: TreeState, cols: TreeColumns): Float64Array {
  return predictInto(s, cols, null);
}

/**
 * The walk behind predictValues; with `labels`, each row's class (the first largest
 * probability) is written in the same pass: a row that ends at a plain leaf copies the
 * leaf's precomputed label, so only rows spread over several leaves take the argmax.
 */
function predictInto(s: TreeState, cols: TreeColumns, labels: Int32Array | null): Float64Array {
  const n = cols.n;
  const W = valueWidth(s);
  const out = new Float64Array(n * W);
  const compiledState = compile(s);
  const { leafOut, leafLabel, PF, PI } = compiledState;
  const C = cols.num as Float64Array[];
  if (stopScratch.length < n) stopScratch = new Int32Array(n);
  const stops = stopScratch;
  // Few rows, or no WebAssembly: the walk in JavaScript.
  if (!(n >= WASM_MIN_ROWS && wasmStops(PF, PI, C, n, stops))) {
    // Four lanes walk side by side (their loads overlap instead of waiting on each other);
    // a lane that reaches its stop takes the next row at once, so no lane idles while the
    // deepest of four rows finishes.
    let r0 = n > 0 ? 0 : -1;
    let r1 = n > 1 ? 1 : -1;
    let r2 = n > 2 ? 2 : -1;
    let r3 = n > 3 ? 3 : -1;
    let n0 = 0;
    let n1 = 0;
    let n2 = 0;
    let n3 = 0;
    let next = Math.min(4, n);
    while (next < n) {
      n0 = thresholdStep(PI, PF, C, n0, r0);
      n1 = thresholdStep(PI, PF, C, n1, r1);
      n2 = thresholdStep(PI, PF, C, n2, r2);
      n3 = thresholdStep(PI, PF, C, n3, r3);
      if ((n0 | n1 | n2 | n3) < 0) {
        if (n0 < 0) {
          stops[r0] = ~n0;
          n0 = 0;
          r0 = next < n ? next++ : -1;
        }
        if (n1 < 0) {
          stops[r1] = ~n1;
          n1 = 0;
          r1 = next < n ? next++ : -1;
        }
        if (n2 < 0) {
          stops[r2] = ~n2;
          n2 = 0;
          r2 = next < n ? next++ : -1;
        }
        if (n3 < 0) {
          stops[r3] = ~n3;
          n3 = 0;
          r3 = next < n ? next++ : -1;
        }
      }
    }
    if (r0 >= 0) finishLane(PI, PF, C, stops, n0, r0);
    if (r1 >= 0) finishLane(PI, PF, C, stops, n1, r1);
    if (r2 >= 0) finishLane(PI, PF, C, stops, n2, r2);
    if (r3 >= 0) finishLane(PI, PF, C, stops, n3, r3);
  }
  for (let i = 0; i < n; i++) {
    const node = stops[i];
    const label = leafLabel[node];
    if (label >= 0) {
      const base = node * W;
      const o = i * W;
      for (let c = 0; c < W; c++) out[o + c] = leafOut[base + c];
      if (labels) labels[i] = label;
    } else {
      slowWalk(s, cols, node, i, compiledState, out, W);
      if (labels) labels[i] = argmax(out, i * W, W);
    }
  }
  return out;
}

/** The rest of one lane's walk, from `node` for row r. */
function finishLane(PI: Int32Array, PF: Float64Array, C: Float64Array[], stops: Int32Array, node: number, r: number): void {
  while (node >= 0) node = thresholdStep(PI, PF, C, node, r);
  stops[r] = ~node;
}

/** Index of the first largest of values[o .. o + K). */
function argmax(values: Float64Array, o: number, K: number): number {
  let best = 0;
  for (let k = 1; k < K; k++) if (values[o + k] > values[o + best]) best = k;
  return best;
}

/**
 * One step of the fast path (threshold tests with known values, the whole walk for
 * numeric data): the next node, or ~node (negative) where the walk stops — a leaf,
 * another kind of test, or a missing value. The side is computed, not branched on:
 * it is a coin flip the processor would mispredict half the time.
 */
function thresholdStep(PI: Int32Array, PF: Float64Array, C: Float64Array[], node: number, i: number): number {
  const f = PI[4 * node + 2];
  if (f < 0) return ~node;
  const v = C[f][i];
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
  // Everything a step reads, loaded once per row (not per step through branch(): the state is a large object literal).
  const { kind, childStart, childCount, branchFraction, feature, threshold, levelMap, mapOffset } = s;
  const { num, cat, nLevels } = cols;
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
    let at = nodeStack[--top];
    const wt = weightStack[top];
    // Down the known branches without the stack (a push popped at once), until a leaf or a missing value.
    for (;;) {
      const k = kind[at];
      if (k === LEAF) {
        if (modelAt && modelAt[at] >= 0 && addLeafModelOutput(s.value, at, W, s.leafModels as Float64Array, modelAt[at], cols.num.length, cols.num, i, out, o, wt)) break;
        const base = at * W;
        for (let c = 0; c < W; c++) out[o + c] += wt * leafOut[base + c];
        break;
      }
      const first = childStart[at];
      let br: number;
      if (k === THRESHOLD) {
        const v = (num[feature[at]] as Float64Array)[i];
        br = v !== v ? -1 : v <= threshold[at] ? 0 : 1;
      } else if (k === CATEGORICAL) {
        const f = feature[at];
        const c = (cat[f] as Int32Array)[i];
        br = c < 0 || c >= nLevels[f] ? -1 : levelMap[mapOffset[at] + c];
      } else br = branch(s, cols, at, i);
      if (br >= 0) {
        at = first + br;
        continue;
      }
      for (let c = 0; c < childCount[at]; c++) {
        const f = branchFraction[first + c];
        if (f > 0) {
          nodeStack[top] = first + c;
          weightStack[top++] = wt * f;
        }
      }
      break;
    }
  }
}

export function predictTree(s: TreeState, X: Frame): Prediction {
  const cols = columnsFor(s.features, X);
  if (s.task === "regression") return { task: "regression", values: predictValues(s, cols) };
  const labels = new Int32Array(cols.n);
  const proba = predictInto(s, cols, labels);
  return { task: "classification", labels, proba };
}
