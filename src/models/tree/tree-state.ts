/**
 * The fitted tree as plain data: one flat typed array per node field, so the
 * artifact is a handful of base64 blobs and predict walks arrays, not objects.
 *
 * Layout invariants (checked on load, since artifacts are untrusted input):
 * - node 0 is the root; the children of a node are `childCount` consecutive nodes
 *   starting at `childStart`, always after the node itself, so every walk ends;
 * - binary splits: child 0 is the `≤ threshold` / left side, child 1 the other;
 * - `mapOffset` points into `levelMap` for categorical nodes (one entry per level of
 *   the feature: branch index, or -1 = "treated as missing") and into
 *   `obliqueWeights` for oblique nodes (one weight per feature);
 * - `value` holds K weighted class counts per node (classification) or the
 *   weighted mean (regression); an empty-branch leaf carries its parent's value;
 * - `leafModelOffset` (perceptron leaves only) points into `leafModels` for a leaf
 *   with a model, laid out as leaf-model.ts describes;
 * - `branchFraction` is the share of the parent's non-missing training weight that
 *   went to this child: a row missing the tested value follows every branch with it.
 */
import { z } from "zod";
import { columnSchema, f64, firstDuplicate, firstNonFinite, i32, MAX_CLASSES, structural, u8 } from "../state-schemas.js";

export const LEAF = 0;
export const THRESHOLD = 1;
export const CATEGORICAL = 2;
export const OBLIQUE = 3;

export const CRITERIA = ["info_gain", "gain_ratio", "gini_index", "mse"] as const;
export type Criterion = (typeof CRITERIA)[number];

const shape = z
  .object({
    task: z.enum(["classification", "regression"]),
    criterion: z.enum(CRITERIA),
    /** The unit explain reports entropy scores in (artifacts before the option were in bits). */
    entropy_base: z.union([z.literal(2), z.literal("e")]).default(2),
    features: z.array(columnSchema),
    classes: z.array(z.string()),
    kind: u8,
    feature: i32,
    threshold: f64,
    childStart: i32,
    childCount: i32,
    mapOffset: i32,
    branchFraction: f64,
    samples: f64,
    impurity: f64,
    score: f64,
    value: f64,
    levelMap: i32,
    obliqueWeights: f64,
    /** Standard deviation of each numeric feature on the training rows (1 for categorical): oblique weights × scale compare features. */
    featureScale: f64,
    /** Candidates of node i are candOffset[i] .. candOffset[i+1]-1 (length nodes + 1). */
    candOffset: i32,
    candFeature: i32,
    candScore: f64,
    candThreshold: f64,
    /**
     * The minimal cost-complexity pruning path (prune.ts), computed once at fit
     * time for explain; absent in artifacts saved before it was kept, which
     * explain then computes (cached per artifact).
     */
    ccpAlphas: f64.optional(),
    ccpImpurities: f64.optional(),
    /**
     * Perceptron leaves (oblique_tree with leaf_model "perceptron", leaf-model.ts): per node the
     * offset of its model in leafModels, -1 for none (an internal node, a leaf of one class, an
     * empty branch). Absent from every other tree.
     */
    leafModelOffset: i32.optional(),
    leafModels: f64.optional(),
    /**
     * The rows the tree was grown on, kept by an incremental tree (id3 with incremental: true)
     * for partial_fit (incremental.ts): class index and weight per row, and per feature its
     * values (numeric) or level codes (categorical), in training-row order.
     */
    instances: z
      .object({ y: i32, w: f64, columns: z.array(z.union([f64, i32])) })
      .strict()
      .optional(),
  })
  .strict();

export type TreeState = z.infer<typeof shape>;
export type TreeInstances = NonNullable<TreeState["instances"]>;

export const treeStateSchema = shape.superRefine(structural<TreeState>((s, report) => {
  const problem = checkStructure(s);
  if (problem) report(`malformed tree: ${problem.message}`, problem.path ?? [], problem.nonFinite);
}));

export function nodeCount(s: TreeState): number {
  return s.kind.length;
}

/** Width of one node's `value` entry. */
export function valueWidth(s: Pick<TreeState, "task" | "classes">): number {
  return s.task === "classification" ? s.classes.length : 1;
}

/** Leaf models (leaf-model.ts): planes of a leaf with c classes. */
export function planesOf(c: number): number {
  return c === 2 ? 1 : c;
}

/** Numbers a leaf model of c classes over d features takes in leafModels. */
export function leafModelSize(c: number, d: number): number {
  return planesOf(c) * (d + 1) + c * c;
}

/** Classes with positive weight in one node's `value` row (K entries from `base`), ascending. */
export function leafClasses(value: ArrayLike<number>, base: number, K: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < K; k++) if (value[base + k] > 0) out.push(k);
  return out;
}

interface Problem {
  message: string;
  path?: (string | number)[];
  nonFinite?: boolean;
}

/**
 * A tree is a tree: every node but the root has exactly one parent, which comes
 * before it. With children after their parent this also rules out cycles and
 * unreachable nodes, so predict's walk (and a missing value's walk over every
 * branch) visits each node at most once. Then every number predict reads is finite.
 */
function checkStructure(s: TreeState): Problem | null {
  const n = s.kind.length;
  if (n === 0) return { message: "no nodes", path: ["kind"] };
  if (s.task === "classification" && s.classes.length < 1) return { message: "no classes", path: ["classes"] };
  if (s.classes.length > MAX_CLASSES) return { message: `${s.classes.length} classes; at most ${MAX_CLASSES} are supported`, path: ["classes"] };
  if (firstDuplicate(s.classes) !== undefined) return { message: `class "${firstDuplicate(s.classes)}" appears twice`, path: ["classes"] };
  if (firstDuplicate(s.features.map((f) => f.name)) !== undefined) return { message: "repeated feature name", path: ["features"] };
  if (s.task === "regression" && s.classes.length !== 0) return { message: "regression tree with classes", path: ["classes"] };
  if (s.task === "regression" && (s.criterion !== "mse")) return { message: "regression tree needs mse", path: ["criterion"] };
  const nodeArrays = { feature: s.feature, threshold: s.threshold, childStart: s.childStart, childCount: s.childCount, mapOffset: s.mapOffset, branchFraction: s.branchFraction, samples: s.samples, impurity: s.impurity, score: s.score };
  for (const [name, a] of Object.entries(nodeArrays)) {
    if (a.length !== n) return { message: `${name} has ${a.length} entries for ${n} nodes`, path: [name] };
  }
  if (s.value.length !== n * valueWidth(s)) return { message: `value has ${s.value.length} entries for ${n} nodes × ${valueWidth(s)}`, path: ["value"] };
  if (s.candOffset.length !== n + 1 || s.candOffset[0] !== 0) return { message: "candidate offsets", path: ["candOffset"] };
  const nc = s.candFeature.length;
  if (s.candScore.length !== nc || s.candThreshold.length !== nc || s.candOffset[n] !== nc) return { message: "candidate arrays", path: ["candFeature"] };
  const d = s.features.length;
  if (s.featureScale.length !== d) return { message: "feature scales", path: ["featureScale"] };
  const parents = new Uint8Array(n);
  const allNumeric = s.features.every((f) => f.type === "numeric");
  // Each split owns the next stretch of levelMap / obliqueWeights, in node order (as freeze lays them out):
  // nodes cannot share a stretch, so checking and predicting cost the arrays' length, not nodes × levels.
  let levelCursor = 0;
  let weightCursor = 0;
  for (let i = 0; i < n; i++) {
    if (s.candOffset[i + 1] < s.candOffset[i]) return { message: "candidate offsets decrease", path: ["candOffset", i + 1] };
    const k = s.kind[i];
    if (k === LEAF) continue;
    if (k !== THRESHOLD && k !== CATEGORICAL && k !== OBLIQUE) return { message: `node ${i} kind`, path: ["kind", i] };
    const start = s.childStart[i];
    const count = s.childCount[i];
    if (!(start > i) || count < 2 || start + count > n) return { message: `node ${i} children`, path: ["childStart", i] };
    for (let c = start; c < start + count; c++) {
      if (parents[c] !== 0) return { message: `node ${c} has two parents (a tree's nodes cannot share children)`, path: ["childStart", i] };
      parents[c] = 1;
    }
    if (k === OBLIQUE) {
      if (s.mapOffset[i] !== weightCursor || weightCursor + d > s.obliqueWeights.length) return { message: `node ${i} weights`, path: ["mapOffset", i] };
      if (!allNumeric) return { message: "oblique split over a categorical feature", path: ["kind", i] };
      weightCursor += d;
      continue;
    }
    const f = s.feature[i];
    if (f < 0 || f >= d) return { message: `node ${i} feature`, path: ["feature", i] };
    const col = s.features[f];
    if (k === THRESHOLD) {
      if (col.type !== "numeric" || count !== 2) return { message: `node ${i} threshold split`, path: ["kind", i] };
      continue;
    }
    if (col.type !== "categorical") return { message: `node ${i} categorical split on a numeric feature`, path: ["kind", i] };
    const off = s.mapOffset[i];
    if (off !== levelCursor || off + col.levels.length > s.levelMap.length) return { message: `node ${i} level map`, path: ["mapOffset", i] };
    levelCursor += col.levels.length;
    for (let l = 0; l < col.levels.length; l++) {
      const b = s.levelMap[off + l];
      if (b < -1 || b >= count) return { message: `node ${i} level map entry`, path: ["levelMap", off + l] };
    }
  }
  if (levelCursor !== s.levelMap.length) return { message: "levelMap has entries no split uses", path: ["levelMap"] };
  if (weightCursor !== s.obliqueWeights.length) return { message: "obliqueWeights has entries no split uses", path: ["obliqueWeights"] };
  for (let i = 1; i < n; i++) if (parents[i] === 0) return { message: `node ${i} has no parent (unreachable from the root)`, path: ["kind", i] };
  for (let c = 0; c < nc; c++) if (s.candFeature[c] < 0 || s.candFeature[c] >= d) return { message: "candidate feature", path: ["candFeature", c] };
  return checkNumbers(s) ?? checkInstances(s) ?? checkLeafModels(s);
}

/**
 * Perceptron leaves: only on leaves of a classification tree over numeric features, each with
 * at least two classes; each model owns the next stretch of leafModels in node order, as long as
 * its class count implies (leaf-model.ts), finite, with non-negative cells.
 */
function checkLeafModels(s: TreeState): Problem | null {
  const offsets = s.leafModelOffset;
  const models = s.leafModels;
  if (!offsets && !models) return null;
  if (!offsets || !models) return { message: "leaf models need both leafModelOffset and leafModels", path: ["leafModelOffset"] };
  const n = s.kind.length;
  if (offsets.length !== n) return { message: `leafModelOffset has ${offsets.length} entries for ${n} nodes`, path: ["leafModelOffset"] };
  if (s.task !== "classification") return { message: "leaf models on a regression tree", path: ["leafModelOffset"] };
  if (!s.features.every((f) => f.type === "numeric")) return { message: "a leaf model over a categorical feature", path: ["leafModelOffset"] };
  const K = s.classes.length;
  const d = s.features.length;
  let cursor = 0;
  for (let i = 0; i < n; i++) {
    const off = offsets[i];
    if (off === -1) continue;
    if (s.kind[i] !== LEAF) return { message: `node ${i} is not a leaf but has a leaf model`, path: ["leafModelOffset", i] };
    const c = leafClasses(s.value, i * K, K).length;
    if (c < 2) return { message: `leaf ${i} has a model but fewer than two classes`, path: ["leafModelOffset", i] };
    if (off !== cursor || off + leafModelSize(c, d) > models.length) return { message: `leaf ${i} model offset`, path: ["leafModelOffset", i] };
    cursor += leafModelSize(c, d);
    for (let q = off + planesOf(c) * (d + 1); q < cursor; q++) if (models[q] < 0) return { message: `leafModels[${q}] is a negative cell weight`, path: ["leafModels", q] };
  }
  if (cursor !== models.length) return { message: "leafModels has entries no leaf uses", path: ["leafModels"] };
  const bad = firstNonFinite(models);
  if (bad >= 0) return { message: `leafModels[${bad}] is ${models[bad]}, not a finite number`, path: ["leafModels", bad], nonFinite: true };
  return null;
}

/** Kept rows: as many entries in every array, a class per row, finite non-negative weights, values of each feature's type. */
function checkInstances(s: TreeState): Problem | null {
  const kept = s.instances;
  if (!kept) return null;
  const n = kept.y.length;
  const K = s.classes.length;
  if (s.task !== "classification") return { message: "kept rows on a regression tree", path: ["instances"] };
  if (kept.w.length !== n) return { message: `instances.w has ${kept.w.length} entries for ${n} rows`, path: ["instances", "w"] };
  for (let i = 0; i < n; i++) if (!(kept.y[i] >= 0 && kept.y[i] < K)) return { message: `instances.y[${i}] is not a class index`, path: ["instances", "y", i] };
  for (let i = 0; i < n; i++) if (!(Number.isFinite(kept.w[i]) && kept.w[i] >= 0)) return { message: `instances.w[${i}] is not a finite non-negative weight`, path: ["instances", "w", i], nonFinite: !Number.isFinite(kept.w[i]) };
  if (kept.columns.length !== s.features.length) return { message: `instances has ${kept.columns.length} columns for ${s.features.length} features`, path: ["instances", "columns"] };
  for (let f = 0; f < s.features.length; f++) {
    const col = kept.columns[f];
    const feature = s.features[f];
    if (col.length !== n) return { message: `instances.columns[${f}] has ${col.length} entries for ${n} rows`, path: ["instances", "columns", f] };
    if (feature.type === "numeric") {
      if (!(col instanceof Float64Array)) return { message: `instances.columns[${f}] must hold the numeric values of ${feature.name}`, path: ["instances", "columns", f] };
      for (let i = 0; i < n; i++) if (Number.isNaN(col[i])) return { message: `instances.columns[${f}][${i}] is missing`, path: ["instances", "columns", f, i], nonFinite: true };
      continue;
    }
    if (!(col instanceof Int32Array)) return { message: `instances.columns[${f}] must hold the level codes of ${feature.name}`, path: ["instances", "columns", f] };
    const L = feature.levels.length;
    for (let i = 0; i < n; i++) if (!(col[i] >= 0 && col[i] < L)) return { message: `instances.columns[${f}][${i}] is not a level of ${feature.name}`, path: ["instances", "columns", f, i] };
  }
  return null;
}

/** Finite thresholds on the nodes that test one, finite non-negative weights, fractions in [0, 1]. */
function checkNumbers(s: TreeState): Problem | null {
  const nonFinite = (name: string, a: ArrayLike<number>, i: number): Problem => ({ message: `${name}[${i}] is ${a[i]}, not a finite number`, path: [name, i], nonFinite: true });
  for (let i = 0; i < s.kind.length; i++) {
    if ((s.kind[i] === THRESHOLD || s.kind[i] === OBLIQUE) && !Number.isFinite(s.threshold[i])) return nonFinite("threshold", s.threshold, i);
    if (!Number.isFinite(s.samples[i])) return nonFinite("samples", s.samples, i);
    if (!Number.isFinite(s.branchFraction[i])) return nonFinite("branchFraction", s.branchFraction, i);
    if (s.samples[i] < 0) return { message: `samples[${i}] is negative`, path: ["samples", i] };
    if (s.branchFraction[i] < 0 || s.branchFraction[i] > 1) return { message: `branchFraction[${i}] is outside [0, 1]`, path: ["branchFraction", i] };
  }
  for (const [name, a] of [["value", s.value], ["obliqueWeights", s.obliqueWeights], ["featureScale", s.featureScale]] as const) {
    const i = firstNonFinite(a);
    if (i >= 0) return nonFinite(name, a, i);
  }
  if (s.task === "classification") for (let i = 0; i < s.value.length; i++) if (s.value[i] < 0) return { message: `value[${i}] is a negative class weight`, path: ["value", i] };
  if (s.ccpAlphas || s.ccpImpurities) {
    const a = s.ccpAlphas;
    const r = s.ccpImpurities;
    if (!a || !r || a.length !== r.length || a.length < 1) return { message: "the pruning path needs as many impurities as alphas", path: ["ccpAlphas"] };
    if (a.length > s.kind.length) return { message: "the pruning path is longer than the tree", path: ["ccpAlphas"] };
    for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i]) || !Number.isFinite(r[i])) return nonFinite(Number.isFinite(a[i]) ? "ccpImpurities" : "ccpAlphas", Number.isFinite(a[i]) ? r : a, i);
  }
  return null;
}
