/**
 * Filter scores of the tree criteria (POST /v1/datasets/{id}/feature-scores):
 * each feature judged as the root split of a tree would judge it — the same
 * SplitSearch code — with multiway splits for categorical features, the best
 * bi-partition (and its threshold) for numeric ones, and C4.5's missing-value
 * weighting (so watermelon 2.0α gives 色泽 0.252). Rows whose target is missing
 * are left out. A feature that cannot split the rows (one value only) scores no
 * gain: 0 for info_gain and gain_ratio, the unsplit Gini impurity for gini_index.
 */
import type { Frame } from "../../data/frame.js";
import { getColumn, hasColumn } from "../../data/frame.js";
import { UnusableInputError } from "../contract.js";
import type { TreeTarget } from "./arena.js";
import { accumulate, makeArena } from "./arena.js";
import { impurityOf } from "./impurity.js";
import { SplitSearch, impurityKindOf, midpoint } from "./split-search.js";
import { columnsFor } from "./tree-columns.js";
import { schemaOf } from "../../data/frame.js";

export type TreeScoreMethod = "info_gain" | "gain_ratio" | "gini_index";

export interface FeatureScore {
  feature: string;
  score: number;
  threshold?: number;
}

/** Throws UnusableInputError (a 422) for an unknown column, a numeric target, or a target listed as a feature. */
export function featureScores(frame: Frame, target: string, method: TreeScoreMethod, features?: string[]): FeatureScore[] {
  for (const name of [target, ...(features ?? [])]) if (!hasColumn(frame, name)) throw new UnusableInputError(`no column ${name}`);
  const t = getColumn(frame, target);
  if (t.type !== "categorical") throw new UnusableInputError(`${method} scores need a categorical target; ${target} is numeric`);
  const names = features ?? frame.columns.filter((c) => c.name !== target).map((c) => c.name);
  if (names.includes(target)) throw new UnusableInputError("the target cannot be scored as a feature");
  const schema = names.map((n) => schemaOf(getColumn(frame, n)));
  const cols = columnsFor(schema, frame);
  const K = t.levels.length;
  const tt: TreeTarget = { K, S: K, yc: t.codes, yr: null };
  const kept: number[] = [];
  for (let i = 0; i < frame.rowCount; i++) if (t.codes[i] >= 0) kept.push(i);
  if (kept.length === 0) throw new UnusableInputError(`${target} has no values`);
  const rows = Int32Array.from(kept);
  const arena = makeArena(rows, new Float64Array(rows.length).fill(1), cols, tt);
  const range = { arena, start: 0, end: rows.length };
  const stats = new Float64Array(K);
  const W = accumulate(range, stats);
  const impurity = impurityOf(impurityKindOf(method), stats, 0, K, W);
  const search = new SplitSearch(cols, tt, { criterion: method, categoricalSplit: "multiway", minSamplesLeaf: 1, maxCategories: null });
  const out = names.map((feature, f): FeatureScore => {
    const c = search.evaluate(range, f, stats, W, impurity);
    if (!c) return { feature, score: method === "gini_index" ? impurity : 0 };
    return Number.isNaN(c.threshold) ? { feature, score: c.score } : { feature, score: c.score, threshold: c.threshold };
  });
  const order = names.map((_, i) => i);
  const sign = method === "gini_index" ? 1 : -1;
  order.sort((a, b) => sign * (out[a].score - out[b].score) || a - b);
  return order.map((i) => out[i]);
}

/** The bi-partition thresholds a tree tries on a numeric column: midpoints of consecutive distinct known values. */
export function candidateThresholds(values: ArrayLike<number>): number[] {
  const sorted = Float64Array.from(values).filter((v) => !Number.isNaN(v)).sort();
  const out: number[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) if (sorted[i + 1] !== sorted[i]) out.push(midpoint(sorted[i], sorted[i + 1]));
  return out;
}
