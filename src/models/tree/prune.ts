/**
 * Pruning after growth, on the builder (internal nodes become leaves; freeze drops
 * the orphaned subtrees):
 * - reduced-error (post) pruning on validation rows (seed 000 §3.2), bottom-up;
 *   a subtree is replaced by a leaf when the validation error does not rise
 *   (ties prune: the smaller tree wins, as the issue and Occam's razor ask);
 * - C4.5's error-based ("pessimistic") pruning with confidence factor CF, no validation set;
 * - minimal cost-complexity pruning (CART, `ccp_alpha`), whose weakest-link
 *   sequence is also the pruning path `explain` reports.
 * Children always have larger ids than their parent, so a reverse id walk is bottom-up.
 */
import type { TreeTarget } from "./arena.js";
import { branchOf } from "./arena.js";
import type { TreeBuilder } from "./builder.js";
import type { TreeColumns } from "./tree-columns.js";
import { LEAF } from "./tree-state.js";

/** Weighted validation error of a leaf with this value: misclassified weight, or squared error. */
export function leafError(value: ArrayLike<number>, rows: Int32Array, w: Float64Array, target: TreeTarget): number {
  let err = 0;
  if (target.yc) {
    const pred = argmax(value, target.K);
    for (let i = 0; i < rows.length; i++) if (target.yc[rows[i]] !== pred) err += w[i];
    return err;
  }
  const y = target.yr as Float64Array;
  for (let i = 0; i < rows.length; i++) {
    const e = y[rows[i]] - value[0];
    err += w[i] * e * e;
  }
  return err;
}

export function argmax(value: ArrayLike<number>, K: number, off = 0): number {
  let best = 0;
  for (let k = 1; k < K; k++) if (value[off + k] > value[off + best]) best = k;
  return best;
}

export function reducedErrorPrune(b: TreeBuilder, cols: TreeColumns, target: TreeTarget, rows: Int32Array, w: Float64Array): void {
  const n = b.size;
  const S = target.S;
  // Validation statistics reaching each node: class weights, or (Σw, Σw·y, Σw·y²).
  const stats = new Float64Array(n * S);
  const stack: [number, number][] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    stack.push([0, w[i]]);
    while (stack.length > 0) {
      const [node, wt] = stack.pop() as [number, number];
      if (target.yc) stats[node * S + target.yc[r]] += wt;
      else {
        const y = (target.yr as Float64Array)[r];
        stats[node * S] += wt;
        stats[node * S + 1] += wt * y;
        stats[node * S + 2] += wt * y * y;
      }
      const rule = b.rule[node];
      if (b.kind[node] === LEAF || !rule) continue;
      const br = branchOf(rule, cols, r);
      const first = b.childStart[node];
      if (br >= 0) stack.push([first + br, wt]);
      else for (let c = 0; c < b.childCount[node]; c++) if (b.branchFraction[first + c] > 0) stack.push([first + c, wt * b.branchFraction[first + c]]);
    }
  }
  const subtreeError = new Float64Array(n);
  for (let node = n - 1; node >= 0; node--) {
    const asLeaf = errorOf(b.valueOf(node), stats, node * S, target);
    if (b.kind[node] === LEAF) {
      subtreeError[node] = asLeaf;
      continue;
    }
    let sub = 0;
    for (let c = 0; c < b.childCount[node]; c++) sub += subtreeError[b.childStart[node] + c];
    if (asLeaf <= sub + 1e-12) {
      b.makeLeaf(node);
      subtreeError[node] = asLeaf;
    } else subtreeError[node] = sub;
  }
}

function errorOf(value: number[], stats: Float64Array, off: number, target: TreeTarget): number {
  if (target.yc) {
    let total = 0;
    for (let k = 0; k < target.K; k++) total += stats[off + k];
    return total - stats[off + argmax(value, target.K)];
  }
  const v = value[0];
  return Math.max(0, stats[off + 2] - 2 * v * stats[off + 1] + v * v * stats[off]);
}

/** C4.5 (Quinlan, release 8, stats.c): extra errors expected at confidence CF among N cases with e errors. */
export function addErrs(N: number, e: number, cf: number): number {
  if (!(N > 0)) return 0;
  if (e < 1e-6) return N * (1 - Math.exp(Math.log(cf) / N));
  if (e < 0.9999) {
    const v0 = N * (1 - Math.exp(Math.log(cf) / N));
    return v0 + e * (addErrs(N, 1, cf) - v0);
  }
  if (e + 0.5 >= N) return 0.67 * (N - e);
  const coeff = normalDeviate(cf) ** 2;
  const pr = (e + 0.5 + coeff / 2 + Math.sqrt(coeff * ((e + 0.5) * (1 - (e + 0.5) / N) + coeff / 4))) / (N + coeff);
  return N * pr - e;
}

// C4.5's own table of one-sided normal deviates, interpolated linearly.
const VAL = [0, 0.000000001, 0.00000001, 0.0000001, 0.000001, 0.00001, 0.00005, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.2, 0.4, 1.0];
const DEV = [100, 6.0, 5.61, 5.2, 4.75, 4.26, 3.89, 3.72, 3.29, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.0];

function normalDeviate(cf: number): number {
  let i = 0;
  while (cf > VAL[i]) i++;
  if (i === 0) return DEV[0];
  return DEV[i - 1] + ((DEV[i] - DEV[i - 1]) * (cf - VAL[i - 1])) / (VAL[i] - VAL[i - 1]);
}

/** Subtree replacement as C4.5 does it: prune when the leaf's estimated errors are within 0.1 of the subtree's. */
export function pessimisticPrune(b: TreeBuilder, cf: number): void {
  const n = b.size;
  const K = b.width;
  const estimate = new Float64Array(n);
  for (let node = n - 1; node >= 0; node--) {
    const N = b.samples[node];
    let maxW = 0;
    for (let k = 0; k < K; k++) maxW = Math.max(maxW, b.value[node * K + k]);
    const e = N > 0 ? Math.max(0, N - maxW) : 0;
    const asLeaf = e + addErrs(N, e, cf);
    if (b.kind[node] === LEAF) {
      estimate[node] = asLeaf;
      continue;
    }
    let sub = 0;
    for (let c = 0; c < b.childCount[node]; c++) sub += estimate[b.childStart[node] + c];
    if (asLeaf <= sub + 0.1) {
      b.makeLeaf(node);
      estimate[node] = asLeaf;
    } else estimate[node] = sub;
  }
}

export interface CcpTree {
  readonly kind: ArrayLike<number>;
  readonly childStart: ArrayLike<number>;
  readonly childCount: ArrayLike<number>;
  readonly samples: ArrayLike<number>;
  readonly impurity: ArrayLike<number>;
}

export interface PruningPath {
  readonly ccp_alphas: number[];
  readonly impurities: number[];
}

/** Effective alphas and total leaf impurity of each subtree of the weakest-link sequence, as scikit-learn reports them. */
export function ccpPath(t: CcpTree): PruningPath {
  return weakestLinks(t, Uint8Array.from(t.kind as ArrayLike<number>), Infinity);
}

/** The state with its pruning path, computed once at fit time so explain never has to. */
export function withPruningPath<S extends CcpTree & { kind: Uint8Array }>(s: S): S & { ccpAlphas: Float64Array; ccpImpurities: Float64Array } {
  const path = ccpPath(s);
  return { ...s, ccpAlphas: Float64Array.from(path.ccp_alphas), ccpImpurities: Float64Array.from(path.impurities) };
}

/** The stored path, or (an artifact saved before it was kept) a fresh one. */
export function pruningPathOf(s: CcpTree & { ccpAlphas?: Float64Array; ccpImpurities?: Float64Array }): PruningPath {
  if (s.ccpAlphas && s.ccpImpurities) return { ccp_alphas: Array.from(s.ccpAlphas), impurities: Array.from(s.ccpImpurities) };
  return ccpPath(s);
}

export function ccpPrune(b: TreeBuilder, alpha: number): void {
  const kind = Uint8Array.from(b.kind);
  weakestLinks(b, kind, alpha);
  for (let i = 0; i < kind.length; i++) if (kind[i] === LEAF && b.kind[i] !== LEAF) b.makeLeaf(i);
}

/**
 * The weakest-link loop. Subtree risk R(T_t) and leaf counts are kept up to date
 * incrementally: cutting a node changes only its ancestors. The internal nodes
 * wait in a min-heap on g(t); an ancestor whose g changed gets a fresh entry and
 * its old one goes stale (lazy deletion), so a step costs O(depth · log n) rather
 * than a scan of every node — the path of a 25k-node tree is milliseconds, not seconds.
 * Ties within 1e-12 are cut together in one step, in id order, as before.
 */
function weakestLinks(t: CcpTree, kind: Uint8Array, stopAlpha: number): PruningPath {
  const n = kind.length;
  const rootW = t.samples[0] > 0 ? t.samples[0] : 1;
  const R = new Float64Array(n);
  for (let i = 0; i < n; i++) R[i] = (t.impurity[i] * t.samples[i]) / rootW;
  const parent = new Int32Array(n).fill(-1);
  const active = new Uint8Array(n);
  active[0] = 1;
  for (let i = 0; i < n; i++) {
    if (kind[i] === LEAF) continue;
    for (let c = 0; c < t.childCount[i]; c++) {
      parent[t.childStart[i] + c] = i;
      if (active[i]) active[t.childStart[i] + c] = 1;
    }
  }
  const RT = new Float64Array(n);
  const leaves = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (!active[i]) continue;
    if (kind[i] === LEAF) {
      RT[i] = R[i];
      leaves[i] = 1;
      continue;
    }
    for (let c = 0; c < t.childCount[i]; c++) {
      RT[i] += RT[t.childStart[i] + c];
      leaves[i] += leaves[t.childStart[i] + c];
    }
  }
  const g = (i: number): number => (leaves[i] > 1 ? Math.max(0, (R[i] - RT[i]) / (leaves[i] - 1)) : Infinity);
  const version = new Int32Array(n);
  const heap = new NodeHeap();
  for (let i = 0; i < n; i++) if (active[i] && kind[i] !== LEAF) heap.push(g(i), i, 0);
  const live = (node: number, v: number): boolean => active[node] === 1 && kind[node] !== LEAF && version[node] === v;

  const path: PruningPath = { ccp_alphas: [0], impurities: [RT[0]] };
  let alpha = 0;
  const weakest: number[] = [];
  const touched: number[] = [];
  const queued = new Uint8Array(n);
  while (kind[0] !== LEAF) {
    while (heap.size > 0 && !live(heap.topNode(), heap.topVersion())) heap.pop();
    if (heap.size === 0) break;
    const gmin = heap.topKey();
    if (gmin > stopAlpha) break;
    const cut = gmin + 1e-12 * Math.max(1, gmin);
    weakest.length = 0;
    while (heap.size > 0 && heap.topKey() <= cut) {
      const node = heap.topNode();
      if (live(node, heap.topVersion())) weakest.push(node);
      heap.pop();
    }
    weakest.sort((a, b) => a - b);
    touched.length = 0;
    for (const i of weakest) {
      if (!active[i] || kind[i] === LEAF) continue; // inside a subtree already cut this step
      deactivateBelow(i);
      const dRT = R[i] - RT[i];
      const dLeaves = 1 - leaves[i];
      kind[i] = LEAF;
      for (let a = parent[i]; a >= 0; a = parent[a]) {
        RT[a] += dRT;
        leaves[a] += dLeaves;
        version[a]++;
        touched.push(a);
      }
      RT[i] = R[i];
      leaves[i] = 1;
    }
    // One fresh entry per changed ancestor (an ancestor of several cut nodes is touched more than once).
    for (const a of touched) {
      if (queued[a]) continue;
      queued[a] = 1;
      if (active[a] && kind[a] !== LEAF) heap.push(g(a), a, version[a]);
    }
    for (const a of touched) queued[a] = 0;
    alpha = Math.max(alpha, gmin);
    path.ccp_alphas.push(alpha);
    path.impurities.push(RT[0]);
  }
  return path;

  function deactivateBelow(i: number): void {
    const stack = [i];
    while (stack.length > 0) {
      const x = stack.pop() as number;
      if (kind[x] === LEAF) continue;
      for (let c = 0; c < t.childCount[x]; c++) {
        const ch = t.childStart[x] + c;
        active[ch] = 0;
        stack.push(ch);
      }
    }
  }
}

/** Binary min-heap of (key, node, version) in parallel growable arrays. */
class NodeHeap {
  private keys = new Float64Array(64);
  private nodes = new Int32Array(64);
  private versions = new Int32Array(64);
  size = 0;

  push(key: number, node: number, v: number): void {
    if (this.size === this.keys.length) this.grow();
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!(key < this.keys[p])) break;
      this.move(p, i);
      i = p;
    }
    this.set(i, key, node, v);
  }

  topKey(): number {
    return this.keys[0];
  }

  topNode(): number {
    return this.nodes[0];
  }

  topVersion(): number {
    return this.versions[0];
  }

  pop(): void {
    const last = --this.size;
    if (last === 0) return;
    const key = this.keys[last];
    const node = this.nodes[last];
    const v = this.versions[last];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= last) break;
      if (c + 1 < last && this.keys[c + 1] < this.keys[c]) c++;
      if (!(this.keys[c] < key)) break;
      this.move(c, i);
      i = c;
    }
    this.set(i, key, node, v);
  }

  private move(from: number, to: number): void {
    this.keys[to] = this.keys[from];
    this.nodes[to] = this.nodes[from];
    this.versions[to] = this.versions[from];
  }

  private set(i: number, key: number, node: number, v: number): void {
    this.keys[i] = key;
    this.nodes[i] = node;
    this.versions[i] = v;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    const nodes = new Int32Array(keys.length);
    const versions = new Int32Array(keys.length);
    keys.set(this.keys);
    nodes.set(this.nodes);
    versions.set(this.versions);
    this.keys = keys;
    this.nodes = nodes;
    this.versions = versions;
  }
}
