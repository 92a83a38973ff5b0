/**
 * Multivariate (oblique) split of one node (seed 000 §4.5): a test Σ w_j·x_j ≤ t
 * learned on the node's rows.
 *
 * 1. Start hyperplanes: Fisher's LDA direction of each class against the rest
 *    (one for two classes), on standardised features with a small ridge, and the
 *    best axis-parallel split; each start gets its best threshold.
 * 2. OC1's coordinate perturbation (Murthy, Kasif & Salzberg 1994): for one
 *    coefficient at a time, the exact best value is found by sorting the rows'
 *    break points U_j = −V_j / x_j and sweeping them; then seeded random directions
 *    are tried the same way to leave local minima.
 * 3. The oblique split is offered only if its impurity beats the best
 *    axis-parallel split; otherwise the node splits on one attribute.
 * With split "perceptron" (the perceptron tree's node test) the starts are pocket
 * perceptrons trained on the node's rows instead (linear-node.ts), each cut at its
 * best threshold, and step 2 is skipped.
 * Features are numeric without missing values (the pipeline one-hot encodes and
 * imputes in front of oblique_tree). Weights are stored for the raw features,
 * scaled so the largest |w| is 1.
 */
import { CholeskyDecomposition, Matrix } from "ml-matrix";
import type { Rng } from "../../data/random.js";
import { throwIfAborted, type AbortFlag } from "../contract.js";
import type { NodeRange, TreeTarget } from "./arena.js";
import type { EngineOptions } from "./engine-options.js";
import type { ImpurityKind } from "./impurity.js";
import { impurityOf } from "./impurity.js";
import { nodePerceptron, nodeRowsOf, presentClasses, standardisedRows, type NodeRows } from "./linear-node.js";
import { argsortByValue } from "./sort.js";
import type { Candidate } from "./split-search.js";
import { impurityKindOf, midpoint } from "./split-search.js";
import type { TreeColumns } from "./tree-columns.js";
import { OBLIQUE } from "./tree-state.js";

interface NodeData extends NodeRows {
  readonly kind: ImpurityKind;
  readonly msl: number;
}

/** Starts (of the LDA directions and the best single attribute) refined by OC1 at each node. */
const REFINED_STARTS = 2;

interface Sweep {
  /** Weighted child impurity (lower is better). */
  readonly impurity: number;
  /** Best step along the direction; NaN when no valid cut exists. */
  readonly alpha: number;
}

export function obliqueCandidate(
  range: NodeRange,
  cols: TreeColumns,
  target: TreeTarget,
  opts: EngineOptions,
  _stats: Float64Array,
  weight: number,
  impurity: number,
  axis: readonly Candidate[],
  rng: Rng,
  signal?: AbortFlag,
): Candidate | null {
  const oo = opts.oblique;
  if (!oo || !target.yc || cols.num.some((c) => !c)) return null;
  const data = nodeData(range, cols, target.K, weight, impurityKindOf(opts.criterion), opts.minSamplesLeaf);
  if (!data) return null;
  const { m, d } = data;

  let bestAxis = Infinity;
  for (const c of axis) bestAxis = Math.min(bestAxis, impurity - c.gain);

  // a·x − t ≤ 0 goes left; V holds a·x_j − t for the current plane.
  // Every start gets its best threshold; only the most promising ones are refined (OC1 is the costly part).
  throwIfAborted(signal); // gathering the node's rows and the LDA starts below are O(m·d²) each
  const perceptron = oo.split === "perceptron";
  const starts = perceptron ? perceptronDirections(data, oo.perceptronMaxIter, rng, signal) : ldaDirections(data);
  throwIfAborted(signal);
  const bestAxisCand = axis.reduce<Candidate | null>((b, c) => (!b || c.gain > b.gain ? c : b), null);
  // The best attribute as a start only matters to OC1, which may tilt it; unrefined it cannot beat itself.
  if (bestAxisCand && !perceptron) {
    const a = new Float64Array(d);
    a[bestAxisCand.feature] = 1;
    starts.push(a);
  }
  const sweeper = new Sweeper(data);
  const minusOne = new Float64Array(m).fill(-1);
  const u = new Float64Array(m);
  const seeded = starts
    .map((a) => {
      const V = new Float64Array(m);
      project(data, a, V);
      // The threshold is a coefficient whose input is −1 for every row.
      const s = sweeper.sweep(V, minusOne);
      if (!Number.isNaN(s.alpha)) shift(V, minusOne, s.alpha);
      return { a: Float64Array.from(a), V, t: s.alpha, cur: s };
    })
    .filter((p) => !Number.isNaN(p.t))
    .sort((p, q) => p.cur.impurity - q.cur.impurity)
    .slice(0, REFINED_STARTS);
  let best: { a: Float64Array; t: number; imp: number } | null = null;
  for (const start of seeded) {
    const { a, V } = start;
    let { t, cur } = start;
    for (let iter = 0; iter < (perceptron ? 0 : oo.maxIter); iter++) {
      let improved = false;
      for (let j = 0; j <= d; j++) {
        // One node's refinement is (d + 1) sweeps of O(m log m) per iteration: long enough to need its own checkpoints.
        throwIfAborted(signal);
        if (j < d && data.sd[j] === 0) continue;
        const dir = j < d ? column(data, j, u) : minusOne;
        const s = sweeper.sweep(V, dir);
        if (Number.isNaN(s.alpha) || !(s.impurity < cur.impurity - 1e-12)) continue;
        if (j < d) a[j] += s.alpha;
        else t += s.alpha;
        shift(V, dir, s.alpha);
        cur = s;
        improved = true;
      }
      if (!improved) break;
    }
    for (let r = 0; r < (perceptron ? 0 : oo.restarts); r++) {
      throwIfAborted(signal);
      const dir = new Float64Array(d);
      for (let j = 0; j < d; j++) dir[j] = data.sd[j] > 0 ? rng.normal() : 0;
      project(data, dir, u);
      const s = sweeper.sweep(V, u);
      if (Number.isNaN(s.alpha) || !(s.impurity < cur.impurity - 1e-12)) continue;
      for (let j = 0; j < d; j++) a[j] += s.alpha * dir[j];
      shift(V, u, s.alpha);
      cur = s;
    }
    if (!best || cur.impurity < best.imp - 1e-12) best = { a, t, imp: cur.impurity };
  }
  if (!best || !(best.imp < bestAxis - 1e-9)) return null;

  // Back to raw features: Σ (a_j/σ_j)·x_j ≤ t + Σ a_j·μ_j/σ_j.
  const weights = new Float64Array(d);
  let threshold = best.t;
  let scale = 0;
  for (let j = 0; j < d; j++) {
    if (data.sd[j] === 0 || best.a[j] === 0) continue;
    weights[j] = best.a[j] / data.sd[j];
    threshold += (best.a[j] * data.mean[j]) / data.sd[j];
    scale = Math.max(scale, Math.abs(weights[j]));
  }
  if (!(scale > 0)) return null;
  for (let j = 0; j < d; j++) weights[j] /= scale;
  threshold /= scale;
  const gain = Math.max(0, impurity - best.imp);
  const score = opts.criterion === "info_gain" ? gain : impurity - gain;
  return { feature: -1, gain, score, ratio: 0, threshold: NaN, rule: { kind: OBLIQUE, feature: -1, threshold, nBranches: 2, levelMap: null, weights } };
}

function nodeData(range: NodeRange, cols: TreeColumns, K: number, W: number, kind: ImpurityKind, msl: number): NodeData | null {
  const m = range.end - range.start;
  if (m < 2 * msl || m < 3 || cols.num.length < 2) return null;
  const rows = nodeRowsOf(range);
  const data = standardisedRows(rows.rows, rows.y, rows.w, cols, K, W);
  return data ? { ...data, kind, msl } : null;
}

/**
 * The perceptron tree's node test (split "perceptron"): a pocket perceptron per class
 * against the rest (one in all for two classes) on the node's standardised rows; each
 * direction then gets the threshold that best lowers the criterion, like an LDA start.
 */
function perceptronDirections(data: NodeData, epochs: number, rng: Rng, signal?: AbortFlag): Float64Array[] {
  const present = presentClasses(data);
  const positives = present.length === 2 ? [present[1]] : present;
  return positives.map((c) => nodePerceptron(data, c, epochs, rng, signal).a);
}

/** Fisher directions S_w⁻¹(μ_c − μ_rest), one per class (one in all for two classes). */
function ldaDirections(data: NodeData): Float64Array[] {
  const { m, d, x, y, w, K } = data;
  const classW = new Float64Array(K);
  const classMean = new Float64Array(K * d);
  for (let i = 0; i < m; i++) {
    classW[y[i]] += w[i];
    for (let j = 0; j < d; j++) classMean[y[i] * d + j] += w[i] * x[i * d + j];
  }
  for (let k = 0; k < K; k++) for (let j = 0; j < d; j++) if (classW[k] > 0) classMean[k * d + j] /= classW[k];
  const sw = Matrix.zeros(d, d);
  const diff = new Float64Array(d);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < d; j++) diff[j] = x[i * d + j] - classMean[y[i] * d + j];
    for (let a = 0; a < d; a++) {
      if (diff[a] === 0) continue;
      for (let b = a; b < d; b++) sw.set(a, b, sw.get(a, b) + w[i] * diff[a] * diff[b]);
    }
  }
  for (let a = 0; a < d; a++) {
    for (let b = 0; b < a; b++) sw.set(a, b, sw.get(b, a));
    // Ridge: keeps S_w invertible when features are collinear or constant at this node.
    sw.set(a, a, sw.get(a, a) + 1e-3 * data.W);
  }
  const chol = new CholeskyDecomposition(sw);
  if (!chol.isPositiveDefinite()) return [];
  const present: number[] = [];
  for (let k = 0; k < K; k++) if (classW[k] > 0) present.push(k);
  const classes = present.length === 2 ? [present[1]] : present;
  const out: Float64Array[] = [];
  for (const c of classes) {
    const rest = data.W - classW[c];
    if (!(rest > 0)) continue;
    const delta = Matrix.zeros(d, 1);
    for (let j = 0; j < d; j++) {
      let restMean = 0;
      for (let k = 0; k < K; k++) if (k !== c) restMean += classW[k] * classMean[k * d + j];
      delta.set(j, 0, classMean[c * d + j] - restMean / rest);
    }
    const dir = chol.solve(delta);
    out.push(Float64Array.from({ length: d }, (_, j) => (data.sd[j] > 0 ? dir.get(j, 0) : 0)));
  }
  return out;
}

function project(data: NodeData, a: Float64Array, out: Float64Array): void {
  const { m, d, x } = data;
  for (let i = 0; i < m; i++) {
    let z = 0;
    for (let j = 0; j < d; j++) z += a[j] * x[i * d + j];
    out[i] = z;
  }
}

function column(data: NodeData, j: number, out: Float64Array): Float64Array {
  for (let i = 0; i < data.m; i++) out[i] = data.x[i * data.d + j];
  return out;
}

function shift(V: Float64Array, u: Float64Array, alpha: number): void {
  for (let i = 0; i < V.length; i++) V[i] += alpha * u[i];
}

/**
 * Best α for the plane V + α·u ≤ 0 (left). Row j with u_j > 0 is left while α ≤ U_j = −V_j/u_j,
 * with u_j < 0 it is left once α ≥ U_j, with u_j = 0 it never moves: sweep the sorted U_j.
 * Buffers are allocated once per node: OC1 calls this (d + 1) times per pass.
 */
class Sweeper {
  private readonly U: Float64Array;
  private readonly ids: Int32Array;
  private readonly key: Float64Array;
  private readonly left: Float64Array;
  private readonly right: Float64Array;

  constructor(private readonly data: NodeData) {
    this.U = new Float64Array(data.m);
    this.ids = new Int32Array(data.m);
    this.key = new Float64Array(data.m);
    this.left = new Float64Array(data.K);
    this.right = new Float64Array(data.K);
  }

  sweep(V: Float64Array, u: Float64Array): Sweep {
    const { m, y, w, K, W, msl, kind } = this.data;
    const { U, ids, key, left, right } = this;
    left.fill(0);
    right.fill(0);
    let nL = 0;
    let movers = 0;
    for (let i = 0; i < m; i++) {
      const ui = u[i];
      if (ui > 0 || (ui === 0 && V[i] <= 0)) {
        left[y[i]] += w[i];
        nL++;
      } else right[y[i]] += w[i];
      if (ui !== 0) {
        U[movers] = -V[i] / ui;
        key[i] = U[movers];
        ids[movers++] = i;
      }
    }
    if (movers === 0) return { impurity: Infinity, alpha: NaN };
    const order = argsortByValue(ids.subarray(0, movers), U.subarray(0, movers));
    let best = Infinity;
    let alpha = NaN;
    const evalAt = (a: number): void => {
      if (nL < msl || m - nL < msl) return;
      let WL = 0;
      for (let k = 0; k < K; k++) WL += left[k];
      const WR = W - WL;
      if (!(WL > 0) || !(WR > 0)) return;
      const imp = (WL * impurityOf(kind, left, 0, K, WL) + WR * impurityOf(kind, right, 0, K, WR)) / W;
      if (imp < best - 1e-15) {
        best = imp;
        alpha = a;
      }
    };
    evalAt(key[order[0]] - 1);
    for (let p = 0; p < movers; p++) {
      // Move every row whose break point is this value, then evaluate just past it.
      const here = key[order[p]];
      let q = p;
      for (; q < movers && key[order[q]] === here; q++) {
        const i = order[q];
        if (u[i] > 0) {
          left[y[i]] -= w[i];
          right[y[i]] += w[i];
          nL--;
        } else {
          right[y[i]] -= w[i];
          left[y[i]] += w[i];
          nL++;
        }
      }
      p = q - 1;
      evalAt(q < movers ? midpoint(here, key[order[q]]) : here + 1);
    }
    return { impurity: best, alpha };
  }
}
