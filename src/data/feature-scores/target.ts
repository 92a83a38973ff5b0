/**
 * What a filter score is measured against. data/ cannot import the models'
 * Target type, so this is its shape: class codes 0 … K − 1 (−1 missing) or numbers
 * (NaN missing). Rows with a missing target take no part in any score.
 */
import { DataError } from "../errors.js";
import type { Column } from "../frame.js";

export type ScoreTarget = { readonly kind: "classes"; readonly y: Int32Array; readonly classes: number } | { readonly kind: "values"; readonly y: Float64Array };

export function targetOfColumn(c: Column): ScoreTarget {
  return c.type === "categorical" ? { kind: "classes", y: c.codes, classes: c.levels.length } : { kind: "values", y: c.values };
}

export function targetPresent(t: ScoreTarget, i: number): boolean {
  return t.kind === "classes" ? t.y[i] >= 0 : !Number.isNaN(t.y[i]);
}

export function needClasses(t: ScoreTarget | null, method: string): Extract<ScoreTarget, { kind: "classes" }> {
  if (t?.kind !== "classes") throw new DataError(`${method} scores features against a categorical target (classes)${t ? "; this target is numeric" : ""}`, "target");
  return t;
}
