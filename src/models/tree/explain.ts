/**
 * explain (API.md node format) plus text rules and Graphviz.
 *
 * Where API.md is silent:
 * - children of a categorical split say `{ equals: level }` for a one-level branch,
 *   `{ not_equals: level }` for the "rest" side of a one-vs-rest split, and
 *   `{ in: [levels] }` for a group of levels (a binary cut, a pooled group of
 *   max_categories_per_split, or the empty branch the levels absent from a multiway
 *   split share); in a binary cut a level the node never saw is routed like a missing value;
 * - missing values have no branch of their own: a row missing the tested value
 *   follows every branch weighted by the child's `fraction` (its share of the
 *   node's known training weight), so every child entry carries `fraction`;
 * - an empty branch (no training rows, seed 001's case 3) is a leaf with
 *   `samples: 0`, zero distribution, and its parent's prediction;
 * - oblique splits name the linear combination in `feature` and give `weights`;
 * - a perceptron leaf (oblique_tree's leaf_model "perceptron") gives `leaf_model`: its
 *   classes, its planes (two classes: one, Σ weights·x ≥ threshold assigns its `class`,
 *   anything else the other class; more: one per class, the largest Σ weights·x − threshold
 *   assigns) and `assigned`, per class the planes assign, the training weight of each class
 *   among the leaf's rows they assign it (a row's probabilities); `prediction` stays the
 *   leaf's majority, what a row missing a value the planes read gets;
 * - `candidates` lists the attributes that could split the node (a constant
 *   attribute has no score and is left out), in column order: at most the best
 *   EXPLAIN_MAX_CANDIDATES by score (higher for info_gain and gain_ratio, lower for
 *   gini_index and mse; ties by column order), `more_candidates` counting the rest.
 *
 * Output is bounded: at most `maxNodes` nodes (default 1,000, at most 10,000) and
 * `maxDepth` levels are shown, chosen breadth-first so the top of the tree comes
 * first and a node shows all of its children or none. A node whose children are
 * left out says `truncated: true` and how many nodes it hides (`hidden_nodes`);
 * text and dot mark it the same way. The whole tree is in the artifact.
 */
import type { TreeState } from "./tree-state.js";
import { CATEGORICAL, LEAF, leafClasses, OBLIQUE, planesOf, THRESHOLD, valueWidth } from "./tree-state.js";
import type { PruningPath } from "./prune.js";
import { argmax, pruningPathOf } from "./prune.js";

export type When = { equals: string } | { not_equals: string } | { in: string[] } | { lte: number } | { gt: number };

export interface ExplainNode {
  samples: number;
  distribution?: Record<string, number>;
  value?: number;
  prediction: string | number;
  split?: {
    feature: string;
    kind: "categorical" | "threshold" | "oblique";
    criterion: string;
    score: number;
    threshold?: number;
    weights?: Record<string, number>;
    candidates: { feature: string; score: number; threshold?: number }[];
    /** Candidates left out of `candidates` (the lowest-scoring ones). */
    more_candidates?: number;
  };
  leaf_model?: LeafModelJson;
  children: { when: When; fraction: number; node: ExplainNode }[];
  /** Set when the children were left out to bound the output. */
  truncated?: true;
  hidden_nodes?: number;
}

export interface LeafModelJson {
  kind: "perceptron";
  classes: string[];
  planes: { class: string; weights: Record<string, number>; threshold: number }[];
  assigned: Record<string, Record<string, number>>;
}

export const EXPLAIN_DEFAULT_MAX_NODES = 1000;
export const EXPLAIN_MAX_NODES = 10_000;
/** Candidates listed per node: with thousands of columns, every node would otherwise list them all. */
export const EXPLAIN_MAX_CANDIDATES = 20;

export interface ExplainOptions {
  format?: string;
  /** Nodes shown, at most (default EXPLAIN_DEFAULT_MAX_NODES, capped at EXPLAIN_MAX_NODES). */
  maxNodes?: number;
  /** Levels below the root shown, at most (default: as many as maxNodes allows). */
  maxDepth?: number;
}

/** Which nodes are shown: breadth-first from the root, all children of a node or none. */
interface Shown {
  readonly shown: Uint8Array;
  readonly count: number;
  /** Nodes below each node (its subtree minus itself). */
  readonly below: Int32Array;
}

export interface TreeExplanation {
  tree: ExplainNode;
  feature_importances: Record<string, number>;
  pruning_path: PruningPath;
  node_count: number;
  depth: number;
  leaves: number;
  /** Nodes in `tree` (node_count when nothing was left out). */
  shown_nodes: number;
  truncated: boolean;
}

export function explainTree(s: TreeState, options: ExplainOptions = {}): TreeExplanation | string {
  const format = options.format ?? "json";
  const view = shownNodes(s, options);
  if (format === "text") return toText(s, view);
  if (format === "dot") return toDot(s, view);
  if (format !== "json") throw new Error(`unknown explain format ${format}`);
  let leaves = 0;
  for (let i = 0; i < s.kind.length; i++) if (s.kind[i] === LEAF) leaves++;
  return {
    tree: treeJson(s, view),
    feature_importances: featureImportances(s),
    pruning_path: pruningPathOf(s),
    node_count: s.kind.length,
    depth: depthOf(s),
    leaves,
    shown_nodes: view.count,
    truncated: view.count < s.kind.length,
  };
}

function shownNodes(s: TreeState, options: ExplainOptions): Shown {
  const n = s.kind.length;
  const maxNodes = Math.max(1, Math.min(EXPLAIN_MAX_NODES, Math.floor(options.maxNodes ?? EXPLAIN_DEFAULT_MAX_NODES)));
  const maxDepth = options.maxDepth ?? Infinity;
  const below = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (s.kind[i] === LEAF) continue;
    for (let c = 0; c < s.childCount[i]; c++) below[i] += 1 + below[s.childStart[i] + c];
  }
  const shown = new Uint8Array(n);
  shown[0] = 1;
  let count = 1;
  const queue: [number, number][] = [[0, 0]];
  for (let q = 0; q < queue.length; q++) {
    const [i, depth] = queue[q];
    if (s.kind[i] === LEAF || depth >= maxDepth || count + s.childCount[i] > maxNodes) continue;
    for (let c = 0; c < s.childCount[i]; c++) {
      shown[s.childStart[i] + c] = 1;
      queue.push([s.childStart[i] + c, depth + 1]);
    }
    count += s.childCount[i];
  }
  return { shown, count, below };
}

/** A node whose children are not shown although it has some. */
function cutOff(s: TreeState, view: Shown, i: number): boolean {
  return s.kind[i] !== LEAF && view.shown[s.childStart[i]] === 0;
}

/** Built bottom-up (children have larger ids than their parent), so a deep tree cannot overflow the call stack. */
function treeJson(s: TreeState, view: Shown): ExplainNode {
  const built: ExplainNode[] = new Array(s.kind.length);
  for (let i = s.kind.length - 1; i >= 0; i--) {
    if (!view.shown[i]) continue;
    const node = nodeJson(s, i);
    if (cutOff(s, view, i)) {
      node.truncated = true;
      node.hidden_nodes = view.below[i];
    } else if (s.kind[i] !== LEAF) {
      const whens = conditions(s, i);
      for (let b = 0; b < s.childCount[i]; b++) {
        const child = s.childStart[i] + b;
        node.children.push({ when: whens[b], fraction: s.branchFraction[child], node: built[child] });
        delete built[child];
      }
    }
    built[i] = node;
  }
  return built[0];
}

/** Information gain is held in bits; a tree fitted with entropy_base "e" reports nats (gain ratios have no unit). */
export function scoreUnit(s: TreeState): number {
  return s.entropy_base === "e" && s.criterion === "info_gain" ? Math.LN2 : 1;
}

function nodeJson(s: TreeState, i: number): ExplainNode {
  const unit = scoreUnit(s);
  const out: ExplainNode = { samples: s.samples[i], prediction: predictionOf(s, i), children: [] };
  if (s.task === "classification") {
    const K = s.classes.length;
    out.distribution = Object.fromEntries(s.classes.map((c, k) => [c, s.samples[i] > 0 ? s.value[i * K + k] : 0]));
  } else out.value = s.value[i];
  if (s.kind[i] === LEAF) {
    const model = leafModelJson(s, i);
    if (model) out.leaf_model = model;
    return out;
  }
  const names = s.features.map((f) => f.name);
  const split: NonNullable<ExplainNode["split"]> = {
    feature: splitFeatureName(s, i),
    kind: s.kind[i] === THRESHOLD ? "threshold" : s.kind[i] === CATEGORICAL ? "categorical" : "oblique",
    criterion: s.criterion,
    score: s.score[i] * unit,
    candidates: [],
  };
  if (s.kind[i] !== CATEGORICAL) split.threshold = s.threshold[i];
  if (s.kind[i] === OBLIQUE) split.weights = obliqueWeights(s, i);
  const listed = listedCandidates(s, i);
  if (listed.more > 0) split.more_candidates = listed.more;
  for (const c of listed.ids) {
    const cand: { feature: string; score: number; threshold?: number } = { feature: names[s.candFeature[c]], score: s.candScore[c] * unit };
    if (!Number.isNaN(s.candThreshold[c])) cand.threshold = s.candThreshold[c];
    split.candidates.push(cand);
  }
  out.split = split;
  return out;
}

/** Candidate ids of node i to list, in column order, and how many were left out. */
function listedCandidates(s: TreeState, i: number): { ids: number[]; more: number } {
  const from = s.candOffset[i];
  const count = s.candOffset[i + 1] - from;
  const ids = Array.from({ length: count }, (_, c) => from + c);
  if (count <= EXPLAIN_MAX_CANDIDATES) return { ids, more: 0 };
  const sign = s.criterion === "info_gain" || s.criterion === "gain_ratio" ? -1 : 1;
  const best = ids.sort((a, b) => sign * (s.candScore[a] - s.candScore[b]) || a - b).slice(0, EXPLAIN_MAX_CANDIDATES);
  return { ids: best.sort((a, b) => a - b), more: count - EXPLAIN_MAX_CANDIDATES };
}

/** A perceptron leaf's planes and cells (tree-state.ts / leaf-model.ts layout), or null for a majority leaf. */
function leafModelJson(s: TreeState, i: number): LeafModelJson | null {
  const off = s.leafModelOffset?.[i] ?? -1;
  const models = s.leafModels;
  if (off < 0 || !models) return null;
  const K = s.classes.length;
  const d = s.features.length;
  const classes = leafClasses(s.value, i * K, K);
  const c = classes.length;
  const planes = Array.from({ length: planesOf(c) }, (_, h) => {
    const o = off + h * (d + 1);
    const weights: Record<string, number> = {};
    s.features.forEach((f, j) => {
      if (models[o + j] !== 0) weights[f.name] = models[o + j];
    });
    return { class: s.classes[classes[c === 2 ? 1 : h]], weights, threshold: models[o + d] };
  });
  const cells = off + planesOf(c) * (d + 1);
  const assigned: Record<string, Record<string, number>> = {};
  classes.forEach((r, a) => (assigned[s.classes[r]] = Object.fromEntries(classes.map((k, q) => [s.classes[k], models[cells + a * c + q]]))));
  return { kind: "perceptron", classes: classes.map((k) => s.classes[k]), planes, assigned };
}

function linearText(weights: Record<string, number>): string {
  const terms = Object.entries(weights).map(([name, w]) => `${fmt(w)}·${name}`);
  return terms.length > 0 ? terms.join(" + ") : "0";
}

/** A perceptron leaf as one rule: "a if Σ w·x ≥ t, else b", or the largest of one score per class. */
function leafModelText(model: LeafModelJson): string {
  if (model.planes.length === 1) {
    const p = model.planes[0];
    const other = model.classes.find((c) => c !== p.class) as string;
    return `perceptron: ${p.class} if ${linearText(p.weights)} ≥ ${fmt(p.threshold)}, else ${other}`;
  }
  return `perceptron: the largest of ${model.planes.map((p) => `${p.class}: ${linearText(p.weights)} − ${fmt(p.threshold)}`).join("; ")}`;
}

function predictionOf(s: TreeState, i: number): string | number {
  if (s.task === "regression") return s.value[i];
  const K = s.classes.length;
  return s.classes[argmax(s.value, K, i * K)];
}

function splitFeatureName(s: TreeState, i: number): string {
  if (s.kind[i] !== OBLIQUE) return s.features[s.feature[i]].name;
  return Object.entries(obliqueWeights(s, i))
    .map(([name, w]) => `${fmt(w)}·${name}`)
    .join(" + ");
}

function obliqueWeights(s: TreeState, i: number): Record<string, number> {
  const out: Record<string, number> = {};
  s.features.forEach((f, j) => {
    const w = s.obliqueWeights[s.mapOffset[i] + j];
    if (w !== 0) out[f.name] = w;
  });
  return out;
}

function conditions(s: TreeState, i: number): When[] {
  const nb = s.childCount[i];
  if (s.kind[i] !== CATEGORICAL) return [{ lte: s.threshold[i] }, { gt: s.threshold[i] }];
  const col = s.features[s.feature[i]];
  const levels = col.type === "categorical" ? col.levels : [];
  const groups: string[][] = Array.from({ length: nb }, () => []);
  levels.forEach((l, code) => {
    const b = s.levelMap[s.mapOffset[i] + code];
    if (b >= 0) groups[b].push(l);
  });
  return groups.map((g, b): When => {
    if (g.length === 1) return { equals: g[0] };
    const other = groups[1 - b];
    if (nb === 2 && other.length === 1 && g.length === levels.length - 1) return { not_equals: other[0] };
    return { in: g };
  });
}

/** Weighted impurity decrease per feature, normalised to sum 1 (an oblique split shares its decrease by |weight| × the feature's standard deviation). */
export function featureImportances(s: TreeState): Record<string, number> {
  const d = s.features.length;
  const imp = new Float64Array(d);
  for (let i = 0; i < s.kind.length; i++) {
    if (s.kind[i] === LEAF) continue;
    let dec = s.samples[i] * s.impurity[i];
    for (let c = 0; c < s.childCount[i]; c++) dec -= s.samples[s.childStart[i] + c] * s.impurity[s.childStart[i] + c];
    if (s.kind[i] !== OBLIQUE) {
      imp[s.feature[i]] += dec;
      continue;
    }
    let norm = 0;
    const share = (j: number): number => Math.abs(s.obliqueWeights[s.mapOffset[i] + j] * s.featureScale[j]);
    for (let j = 0; j < d; j++) norm += share(j);
    for (let j = 0; j < d; j++) if (norm > 0) imp[j] += (dec * share(j)) / norm;
  }
  let total = 0;
  for (let j = 0; j < d; j++) total += Math.max(0, imp[j]);
  return Object.fromEntries(s.features.map((f, j) => [f.name, total > 0 ? Math.max(0, imp[j]) / total : 0]));
}

export function depthOf(s: TreeState): number {
  const depth = new Int32Array(s.kind.length);
  let max = 0;
  for (let i = 0; i < s.kind.length; i++) {
    if (depth[i] > max) max = depth[i];
    if (s.kind[i] === LEAF) continue;
    for (let c = 0; c < s.childCount[i]; c++) depth[s.childStart[i] + c] = depth[i] + 1;
  }
  return max;
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(6)));
}

function whenText(feature: string, w: When): string {
  if ("equals" in w) return `${feature} = ${w.equals}`;
  if ("not_equals" in w) return `${feature} ≠ ${w.not_equals}`;
  if ("in" in w) return `${feature} ∈ {${w.in.join(", ")}}`;
  if ("lte" in w) return `${feature} ≤ ${fmt(w.lte)}`;
  return `${feature} > ${fmt(w.gt)}`;
}

function leafText(s: TreeState, i: number): string {
  const model = leafModelJson(s, i);
  if (model) return `${leafModelText(model)} (samples ${fmt(s.samples[i])})`;
  const p = predictionOf(s, i);
  return `${typeof p === "number" ? fmt(p) : p} (samples ${fmt(s.samples[i])})`;
}

function hiddenText(view: Shown, i: number): string {
  return `… ${view.below[i]} more node(s) (explain with a larger max_nodes, or read the artifact)`;
}

/** Indented rules, one condition per line; a leaf's prediction follows its condition. */
function toText(s: TreeState, view: Shown): string {
  if (s.kind[0] === LEAF) return `${leafText(s, 0)}\n`;
  if (cutOff(s, view, 0)) return `${hiddenText(view, 0)}\n`;
  const lines: string[] = [];
  // Depth-first with an explicit stack: [node, branch, indent]; children pushed last-first.
  const stack: [number, number, string][] = [];
  const pushChildren = (i: number, indent: string): void => {
    for (let b = s.childCount[i] - 1; b >= 0; b--) stack.push([i, b, indent]);
  };
  pushChildren(0, "");
  while (stack.length > 0) {
    const [i, b, indent] = stack.pop() as [number, number, string];
    const child = s.childStart[i] + b;
    const cond = whenText(splitFeatureName(s, i), conditions(s, i)[b]);
    if (s.kind[child] === LEAF) lines.push(`${indent}${cond}: ${leafText(s, child)}`);
    else if (cutOff(s, view, child)) lines.push(`${indent}${cond}`, `${indent}|   ${hiddenText(view, child)}`);
    else {
      lines.push(`${indent}${cond}`);
      pushChildren(child, `${indent}|   `);
    }
  }
  return `${lines.join("\n")}\n`;
}

function dotEscape(x: string): string {
  return x.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
}

function toDot(s: TreeState, view: Shown): string {
  const lines = ["digraph tree {", '  node [shape=box, style="rounded", fontname="sans-serif"];', '  edge [fontname="sans-serif"];'];
  const W = valueWidth(s);
  for (let i = 0; i < s.kind.length; i++) {
    if (!view.shown[i]) continue;
    const parts: string[] = [];
    if (s.kind[i] !== LEAF) parts.push(splitFeatureName(s, i), `${s.criterion} = ${fmt(s.score[i] * scoreUnit(s))}`);
    parts.push(`samples = ${fmt(s.samples[i])}`);
    if (s.task === "classification") parts.push(`[${Array.from(s.value.subarray(i * W, i * W + W), (v) => fmt(s.samples[i] > 0 ? v : 0)).join(", ")}]`);
    const p = predictionOf(s, i);
    const model = s.kind[i] === LEAF ? leafModelJson(s, i) : null;
    parts.push(model ? leafModelText(model) : typeof p === "number" ? `value = ${fmt(p)}` : p);
    lines.push(`  n${i} [label="${dotEscape(parts.join("\n")).replace(/\n/g, "\\n")}"${s.kind[i] === LEAF ? "" : ", shape=ellipse"}];`);
    if (cutOff(s, view, i)) {
      lines.push(`  n${i}_hidden [label="… ${view.below[i]} more node(s)", shape=plaintext];`, `  n${i} -> n${i}_hidden [style=dashed];`);
    }
  }
  for (let i = 0; i < s.kind.length; i++) {
    if (s.kind[i] === LEAF || !view.shown[i] || cutOff(s, view, i)) continue;
    const whens = conditions(s, i);
    for (let b = 0; b < s.childCount[i]; b++) {
      const w = whens[b];
      const label = "equals" in w ? `= ${w.equals}` : "not_equals" in w ? `≠ ${w.not_equals}` : "in" in w ? `∈ {${w.in.join(", ")}}` : "lte" in w ? `≤ ${fmt(w.lte)}` : `> ${fmt(w.gt)}`;
      lines.push(`  n${i} -> n${s.childStart[i] + b} [label="${dotEscape(label)}"];`);
    }
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}
