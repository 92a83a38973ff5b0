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

/** Adds weight × (normalised) leaf value into out[o..o+W). */
function addLeaf(s: TreeState, leaf: number, weight: number, out: Float64Array, o: number, W: number, classification: boolean): void {
  const base = leaf * W;
  if (!classification) {
    out[o] += weight * s.value[base];
    return;
  }
  let total = 0;
  for (let k = 0; k < W; k++) total += s.value[base + k];
  const scale = total > 0 ? weight / total : 0;
  for (let k = 0; k < W; k++) out[o + k] += s.value[base + k] * scale;
}

/** Per-call walker: the stacks for the missing-value path are allocated once per call, on first need. */
export function predictValues(s: TreeState, cols: TreeColumns): Float64Array {
  const n = cols.n;
  const W = valueWidth(s);
  const classification = s.task === "classification";
  const out = new Float64Array(n * W);
  const { kind, childStart, branchFraction } = s;
  let nodeStack: Int32Array | null = null;
  let weightStack: Float64Array | null = null;
  for (let i = 0; i < n; i++) {
    let node = 0;
    let b = 0;
    while (kind[node] !== LEAF) {
      b = branch(s, cols, node, i);
      if (b < 0) break;
      node = childStart[node] + b;
    }
    if (kind[node] === LEAF) {
      addLeaf(s, node, 1, out, i * W, W, classification);
      continue;
    }
    // Missing value at `node`: spread the row over its subtree.
    if (!nodeStack || !weightStack) {
      nodeStack = new Int32Array(kind.length);
      weightStack = new Float64Array(kind.length);
    }
    let top = 0;
    nodeStack[top] = node;
    weightStack[top++] = 1;
    while (top > 0) {
      const at = nodeStack[--top];
      const wt = weightStack[top];
      if (kind[at] === LEAF) {
        addLeaf(s, at, wt, out, i * W, W, classification);
        continue;
      }
      const first = childStart[at];
      const br = branch(s, cols, at, i);
      if (br >= 0) {
        nodeStack[top] = first + br;
        weightStack[top++] = wt;
        continue;
      }
      for (let c = 0; c < s.childCount[at]; c++) {
        const f = branchFraction[first + c];
        if (f > 0) {
          nodeStack[top] = first + c;
          weightStack[top++] = wt * f;
        }
      }
    }
  }
  return out;
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
