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
 * - `branchFraction` is the share of the parent's non-missing training weight that
 *   went to this child: a row missing the tested value follows every branch with it.
 */
import { z } from "zod";
import { columnSchema, f64, i32, u8 } from "../state-schemas.js";

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
  })
  .strict();

export type TreeState = z.infer<typeof shape>;

export const treeStateSchema = shape.superRefine((s, ctx) => {
  const problem = checkStructure(s);
  if (problem) ctx.addIssue({ code: "custom", message: `malformed tree: ${problem}` });
});

export function nodeCount(s: TreeState): number {
  return s.kind.length;
}

/** Width of one node's `value` entry. */
export function valueWidth(s: Pick<TreeState, "task" | "classes">): number {
  return s.task === "classification" ? s.classes.length : 1;
}

function checkStructure(s: TreeState): string | null {
  const n = s.kind.length;
  if (n === 0) return "no nodes";
  if (s.task === "classification" && s.classes.length < 1) return "no classes";
  if (s.task === "regression" && s.classes.length !== 0) return "regression tree with classes";
  if (s.task === "regression" && (s.criterion !== "mse")) return "regression tree needs mse";
  for (const a of [s.feature, s.threshold, s.childStart, s.childCount, s.mapOffset, s.branchFraction, s.samples, s.impurity, s.score]) {
    if (a.length !== n) return "node arrays differ in length";
  }
  if (s.value.length !== n * valueWidth(s)) return "value length";
  if (s.candOffset.length !== n + 1 || s.candOffset[0] !== 0) return "candidate offsets";
  const nc = s.candFeature.length;
  if (s.candScore.length !== nc || s.candThreshold.length !== nc || s.candOffset[n] !== nc) return "candidate arrays";
  const d = s.features.length;
  if (s.featureScale.length !== d) return "feature scales";
  for (let i = 0; i < n; i++) {
    if (s.candOffset[i + 1] < s.candOffset[i]) return "candidate offsets decrease";
    const k = s.kind[i];
    if (k === LEAF) continue;
    if (k !== THRESHOLD && k !== CATEGORICAL && k !== OBLIQUE) return `node ${i} kind`;
    const start = s.childStart[i];
    const count = s.childCount[i];
    if (!(start > i) || count < 2 || start + count > n) return `node ${i} children`;
    if (k === OBLIQUE) {
      if (s.mapOffset[i] < 0 || s.mapOffset[i] + d > s.obliqueWeights.length) return `node ${i} weights`;
      for (const f of s.features) if (f.type !== "numeric") return "oblique split over a categorical feature";
      continue;
    }
    const f = s.feature[i];
    if (f < 0 || f >= d) return `node ${i} feature`;
    const col = s.features[f];
    if (k === THRESHOLD) {
      if (col.type !== "numeric" || count !== 2) return `node ${i} threshold split`;
      continue;
    }
    if (col.type !== "categorical") return `node ${i} categorical split on a numeric feature`;
    const off = s.mapOffset[i];
    if (off < 0 || off + col.levels.length > s.levelMap.length) return `node ${i} level map`;
    for (let l = 0; l < col.levels.length; l++) {
      const b = s.levelMap[off + l];
      if (b < -1 || b >= count) return `node ${i} level map entry`;
    }
  }
  for (let c = 0; c < nc; c++) if (s.candFeature[c] < 0 || s.candFeature[c] >= d) return "candidate feature";
  return null;
}
