/**
 * From a stored dataset and a train spec to what a learner sees: the feature
 * columns and the target. Rows whose target is missing cannot teach anything
 * and are dropped here (the count is reported as a warning).
 */
import { getColumn, selectColumns, takeRows, sortLevels, type Frame, type Column } from "../data/frame.js";
import type { Target, Task } from "../models/contract.js";

export interface LearningData {
  X: Frame;
  target: Target | null;
  /** Indices into the stored dataset of the rows kept. */
  rows: Int32Array;
  droppedRows: number;
  /** Rows kept without a target (class −1) for a semi-supervised learner; 0 otherwise. */
  unlabelledRows: number;
}

export function taskForTarget(column: Column | null): "classification" | "regression" | null {
  if (!column) return null;
  return column.type === "categorical" ? "classification" : "regression";
}

/** Classes a categorical target actually takes (the dataset's levels may include ones with no rows after filtering). */
export function classesOf(column: Column): string[] {
  if (column.type !== "categorical") return [];
  const present = new Set<number>();
  for (const c of column.codes) if (c >= 0) present.add(c);
  return sortLevels([...present].map((c) => column.levels[c]));
}

/**
 * `keepUnlabelled` (an algorithm with accepts.unlabelled, a categorical target): rows
 * whose target is missing stay, as class −1, instead of being dropped.
 */
export function learningData(frame: Frame, features: readonly string[], target: string | null, task: Task, keepUnlabelled = false): LearningData {
  if (target === null) {
    const rows = Int32Array.from({ length: frame.rowCount }, (_, i) => i);
    return { X: selectColumns(frame, features), target: null, rows, droppedRows: 0, unlabelledRows: 0 };
  }
  const column = getColumn(frame, target);
  const keepAll = keepUnlabelled && task === "classification";
  const keep: number[] = [];
  let unlabelled = 0;
  for (let i = 0; i < frame.rowCount; i++) {
    const missing = column.type === "numeric" ? Number.isNaN(column.values[i]) : column.codes[i] < 0;
    if (missing) unlabelled++;
    if (!missing || keepAll) keep.push(i);
  }
  const rows = Int32Array.from(keep);
  const kept = takeRows(selectColumns(frame, [...features, target]), rows);
  const X = selectColumns(kept, features);
  const t = getColumn(kept, target);
  let targetOut: Target;
  // A supervised projection (accepts.classes) is fitted against classes too.
  if (task === "classification" || (task === "projection" && t.type === "categorical")) {
    if (t.type !== "categorical") throw new Error("classification needs a categorical target");
    const classes = classesOf(t);
    const index = new Map(classes.map((c, i) => [c, i]));
    const remap = Int32Array.from(t.levels, (level) => index.get(level) ?? -1);
    const y = Int32Array.from(t.codes, (code) => (code < 0 ? -1 : remap[code]));
    targetOut = { task: "classification", y, classes };
  } else {
    if (t.type !== "numeric") throw new Error("regression needs a numeric target");
    targetOut = { task: "regression", y: t.values };
  }
  return { X, target: targetOut, rows, droppedRows: frame.rowCount - rows.length, unlabelledRows: keepAll ? unlabelled : 0 };
}

/** The same view restricted to a subset of its rows (a fold, a bootstrap sample). */
export function subset(data: { X: Frame; target: Target | null }, rows: Int32Array): { X: Frame; target: Target | null } {
  const X = takeRows(data.X, rows);
  const t = data.target;
  if (!t) return { X, target: null };
  if (t.task === "classification") return { X, target: { task: "classification", classes: t.classes, y: Int32Array.from(rows, (r) => t.y[r]) } };
  return { X, target: { task: "regression", y: Float64Array.from(rows, (r) => t.y[r]) } };
}
