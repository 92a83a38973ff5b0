/**
 * tan: Tree-Augmented naive Bayes (Friedman et al. 1997; the book's 7.4, fig. 7.1(c)).
 * 1. Conditional mutual information of every attribute pair given the class, from the
 *    weighted counts of the rows where both are present (natural log):
 *      I(x_i; x_j | y) = Σ P(x_i, x_j, c) · log( P(x_i, x_j | c) / (P(x_i | c) P(x_j | c)) ).
 * 2. A maximum weighted spanning tree over the attributes with those weights, grown by
 *    Prim's algorithm from the root (param `root`, default the first attribute), ties to
 *    the lowest attribute index; edges point away from the root.
 * 3. Each attribute depends on the class and its tree parent:
 *      P(c | x) ∝ P̂(c) · P̂(x_root | c) · Π_j P̂(x_j | c, x_pa(j)),
 *    with the book's Laplace correction ((N + α) / (N' + α · L_j), α = 1 by default). A
 *    missing parent value makes the child's factor P̂(x_j | c); a missing x_j contributes none.
 * Numeric attributes are cut into n_bins equal-frequency bins. Fit: O(n · d²) counting +
 * O(d² · K · L²) for the CMIs + O(d²) for the tree; predict: O(d · K) per row.
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import type { Algorithm, FitContext, Prediction, TrainingSet } from "../contract.js";
import { throwIfAborted, UnusableInputError } from "../contract.js";
import { f64, i32, structural } from "../state-schemas.js";
import { checkCoded, checkCounts, checkOffsets, codeFrame, codedShape, conditionalLogs, prepare } from "./coded.js";
import { countPairs } from "./one-dependence.js";
import { binEdgesOf } from "./aode.js";
import { alphaParam, featureNameParam, nBinsParam } from "./params.js";
import { finishScores } from "./scores.js";

export const tanParams = z
  .object({
    alpha: alphaParam("positive"),
    root: featureNameParam("The root of the attribute tree (a feature name); null takes the first feature."),
    n_bins: nBinsParam,
  })
  .strict();
export type TanParams = z.infer<typeof tanParams>;

const shape = z
  .object({
    ...codedShape,
    /** Tree parent of each attribute; -1 for the root. */
    parent: i32,
    /** CMI of the edge into each attribute (0 for the root). */
    cmi: f64,
    /** Block j: K × L_pa(j) × L_j counts (empty for the root), starting at pair_offset[j] (length d + 1). */
    pair_offset: i32,
    pair: f64,
  })
  .strict();
export type TanState = z.infer<typeof shape>;

export const tanStateSchema = shape.superRefine(
  structural<TanState>((s, report) => {
    if (!checkCoded(s, report, false)) return;
    const d = s.features.length;
    const K = s.classes.length;
    if (s.parent.length !== d || s.cmi.length !== d) {
      report("parent and cmi need one entry per feature", ["parent"]);
      return;
    }
    // A tree: one root, every other attribute reaches it without a cycle (so predict's walk order is irrelevant, but shapes are sound).
    let roots = 0;
    for (let j = 0; j < d; j++) {
      const p = s.parent[j];
      if (p === -1) roots++;
      else if (!(p >= 0 && p < d) || p === j) return report(`parent[${j}] is not a feature index`, ["parent", j]);
      let at = j;
      for (let steps = 0; s.parent[at] !== -1; steps++) {
        if (steps > d) return report("parent has a cycle", ["parent", j]);
        at = s.parent[at];
      }
    }
    if (d > 0 && roots !== 1) return report(`the tree needs exactly one root, has ${roots}`, ["parent"]);
    if (!checkCounts(s.cmi, "cmi", report)) return;
    if (!checkOffsets(s.pair_offset, (j) => (s.parent[j] < 0 ? 0 : K * s.levels[s.parent[j]] * s.levels[j]), d, s.pair.length, "pair_offset", report)) return;
    checkCounts(s.pair, "pair", report);
  }),
);

/** I(x_i; x_j | y) from one K × L_i × L_j block of joint counts. */
export function conditionalMutualInformation(pair: Float64Array, off: number, K: number, Li: number, Lj: number): number {
  let total = 0;
  for (let t = 0; t < K * Li * Lj; t++) total += pair[off + t];
  if (!(total > 0)) return 0;
  let cmi = 0;
  const rowSum = new Float64Array(Li);
  const colSum = new Float64Array(Lj);
  for (let k = 0; k < K; k++) {
    rowSum.fill(0);
    colSum.fill(0);
    let nc = 0;
    const base = off + k * Li * Lj;
    for (let u = 0; u < Li; u++) {
      for (let v = 0; v < Lj; v++) {
        const x = pair[base + u * Lj + v];
        rowSum[u] += x;
        colSum[v] += x;
        nc += x;
      }
    }
    for (let u = 0; u < Li; u++) {
      for (let v = 0; v < Lj; v++) {
        const x = pair[base + u * Lj + v];
        if (x > 0) cmi += (x / total) * Math.log((x * nc) / (rowSum[u] * colSum[v]));
      }
    }
  }
  return Math.max(0, cmi);
}

/** Prim's maximum spanning tree from `root` over the symmetric d × d weights; parent per vertex (-1 at the root). */
export function maximumSpanningTree(weight: Float64Array, d: number, root: number): { parent: Int32Array<ArrayBuffer>; edgeWeight: Float64Array<ArrayBuffer> } {
  const parent = new Int32Array(d).fill(-1);
  const edgeWeight = new Float64Array(d);
  const inTree = new Uint8Array(d);
  const best = new Float64Array(d).fill(-Infinity);
  inTree[root] = 1;
  for (let j = 0; j < d; j++) {
    if (j === root) continue;
    best[j] = weight[root * d + j];
    parent[j] = root;
  }
  for (let added = 1; added < d; added++) {
    let next = -1;
    for (let j = 0; j < d; j++) if (!inTree[j] && (next < 0 || best[j] > best[next])) next = j;
    inTree[next] = 1;
    edgeWeight[next] = best[next];
    for (let j = 0; j < d; j++) {
      if (!inTree[j] && weight[next * d + j] > best[j]) {
        best[j] = weight[next * d + j];
        parent[j] = next;
      }
    }
  }
  return { parent, edgeWeight };
}

function fit(train: TrainingSet, p: TanParams, ctx: FitContext): TanState {
  const prep = prepare(train, "tan", p.n_bins);
  const { K, coded, y, w } = prep;
  const levels = prep.cut.levels;
  const names = prep.cut.schema.map((f) => f.name);
  const d = names.length;
  const root = p.root === null ? 0 : names.indexOf(p.root);
  if (root < 0) throw new UnusableInputError(`root ${p.root} is not one of the features`);
  let parent: Int32Array<ArrayBuffer> = new Int32Array(0);
  let cmi: Float64Array<ArrayBuffer> = new Float64Array(0);
  let full: { pair_offset: Int32Array; pair: Float64Array } = { pair_offset: new Int32Array(1), pair: new Float64Array(0) };
  if (d > 0) {
    // Every ordered pair is counted (block (i, j) and its transpose (j, i)): the kept edges are then copied out in either orientation.
    full = countPairs(coded, levels, y, w, K, Int32Array.from({ length: d }, (_, j) => j), ctx);
    throwIfAborted(ctx.signal);
    const weight = new Float64Array(d * d);
    for (let i = 0; i < d; i++) {
      for (let j = i + 1; j < d; j++) {
        const v = conditionalMutualInformation(full.pair, full.pair_offset[i * d + j], K, levels[i], levels[j]);
        weight[i * d + j] = v;
        weight[j * d + i] = v;
      }
    }
    const tree = maximumSpanningTree(weight, d, root);
    parent = tree.parent;
    cmi = tree.edgeWeight;
  }
  // The kept blocks, parent → child: block (pa, j) of the full table is K × L_pa × L_j.
  const pair_offset = new Int32Array(d + 1);
  for (let j = 0; j < d; j++) pair_offset[j + 1] = pair_offset[j] + (parent[j] < 0 ? 0 : K * levels[parent[j]] * levels[j]);
  const pair = new Float64Array(pair_offset[d]);
  for (let j = 0; j < d; j++) {
    if (parent[j] < 0) continue;
    const from = full.pair_offset[parent[j] * d + j];
    pair.set(full.pair.subarray(from, from + pair_offset[j + 1] - pair_offset[j]), pair_offset[j]);
  }
  return {
    classes: prep.classes,
    features: prep.cut.schema,
    levels,
    edge_offset: prep.cut.edge_offset,
    edges: prep.cut.edges,
    alpha: p.alpha,
    class_count: prep.class_count,
    single_offset: prep.single_offset,
    single: prep.single,
    parent,
    cmi,
    pair_offset,
    pair,
  };
}

interface Compiled {
  logPrior: Float64Array;
  logSingle: Float64Array[];
  logPair: Float64Array[];
}
const compiled = new WeakMap<TanState, Compiled>();

function compile(s: TanState): Compiled {
  let c = compiled.get(s);
  if (c) return c;
  const K = s.classes.length;
  const d = s.features.length;
  const a = s.alpha;
  let total = 0;
  for (let k = 0; k < K; k++) total += s.class_count[k];
  c = {
    logPrior: Float64Array.from(s.class_count, (n) => Math.log((n + a) / (total + a * K))),
    logSingle: Array.from({ length: d }, (_, j) => conditionalLogs(s.single, s.single_offset[j], K, s.levels[j], a)),
    logPair: Array.from({ length: d }, (_, j) => (s.parent[j] < 0 ? new Float64Array(0) : conditionalLogs(s.pair, s.pair_offset[j], K * s.levels[s.parent[j]], s.levels[j], a))),
  };
  compiled.set(s, c);
  return c;
}

function predict(s: TanState, X: Frame): Prediction {
  const c = compile(s);
  const coded = codeFrame(s, X);
  const n = coded.n;
  const K = s.classes.length;
  const d = s.features.length;
  const scores = new Float64Array(n * K);
  for (let i = 0; i < n; i++) scores.set(c.logPrior, i * K);
  for (let j = 0; j < d; j++) {
    const cj = coded.codes[j] as Int32Array;
    const Lj = s.levels[j];
    const pa = s.parent[j];
    const cp = pa >= 0 ? (coded.codes[pa] as Int32Array) : null;
    const Lp = pa >= 0 ? s.levels[pa] : 0;
    const single = c.logSingle[j];
    const pair = c.logPair[j];
    for (let i = 0; i < n; i++) {
      const v = cj[i];
      if (v < 0) continue;
      const u = cp ? cp[i] : -1;
      const o = i * K;
      if (u < 0) for (let k = 0; k < K; k++) scores[o + k] += single[k * Lj + v];
      else for (let k = 0; k < K; k++) scores[o + k] += pair[(k * Lp + u) * Lj + v];
    }
  }
  const { labels, proba } = finishScores(scores, null, n, K);
  return { task: "classification", labels, proba };
}

function explain(s: TanState) {
  const root = s.parent.indexOf(-1);
  return {
    classes: s.classes,
    alpha: s.alpha,
    root: root >= 0 ? s.features[root].name : null,
    // d − 1 edges: bounded by the features, like the model itself.
    edges: Array.from(s.parent, (p, j) => (p < 0 ? null : { parent: s.features[p].name, child: s.features[j].name, cmi: s.cmi[j] })).filter((e) => e !== null),
    class_count: Object.fromEntries(s.classes.map((cl, k) => [cl, s.class_count[k]])),
    bin_edges: binEdgesOf(s as never),
  };
}

export const tan: Algorithm<TanParams, TanState> = {
  name: "tan",
  family: "bayes",
  tasks: ["classification"],
  description: "Tree-augmented naive Bayes: a maximum spanning tree over the attributes weighted by conditional mutual information given the class, each attribute depending on the class and its tree parent; Laplace correction.",
  params: tanParams,
  state: tanStateSchema,
  accepts: { categorical: true, missing: true, weights: true },
  scaleSensitive: false,
  fit,
  predict,
  explain,
};
