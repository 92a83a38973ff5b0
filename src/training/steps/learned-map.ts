/**
 * What the metric-learning steps (nca, lmnn) share: a learned linear map of the centred
 * numeric columns onto n_components outputs. Applying it, listing its components and
 * planning its columns are the same for both; only the fit differs.
 */
import type { Frame } from "../../data/frame.js";
import { DataError } from "../../data/errors.js";
import { byColumn, pickColumns } from "../../data/transforms/transform.js";
import { projectCentred } from "../../models/projection/linear-map.js";
import type { PlannedColumn, PlannedTarget } from "../steps.js";
import { numericInputsOf, planReplace, replaceInputs } from "./numeric-inputs.js";

export interface LearnedMap {
  readonly columns: readonly string[];
  readonly names: readonly string[];
  readonly mean: Float64Array;
  /** n_components × columns, row-major. */
  readonly components: Float64Array;
}

export function applyLearnedMap(fitted: LearnedMap, frame: Frame, step: string): Frame {
  const inputs = numericInputsOf(frame, [...fitted.columns], step);
  const n = frame.rowCount;
  const outputs = projectCentred(inputs, fitted.mean, fitted.components, fitted.names.length, n, "by_output");
  return replaceInputs(frame, [...fitted.columns], [...fitted.names], outputs);
}

/** Each output's weights by input column, for describe(). */
export function mapComponents(fitted: LearnedMap): Record<string, unknown> {
  const d = fitted.columns.length;
  return Object.fromEntries(fitted.names.map((name, a) => [name, byColumn([...fitted.columns], Array.from(fitted.columns, (_, j) => fitted.components[a * d + j]))]));
}

export function planLearnedMap(spec: { columns?: string[]; n_components: number | null; prefix: string }, columns: readonly PlannedColumn[], target: PlannedTarget | null, step: string): PlannedColumn[] | null {
  if (target && target.type !== "categorical") throw new DataError(`${step} needs a categorical target (classes)`, "step");
  const chosen = pickColumns(columns, spec.columns, ["numeric"], step).map((c) => c.name);
  if (spec.n_components !== null && spec.n_components > chosen.length) {
    throw new DataError(`${step}: n_components = ${spec.n_components}, and there are only ${chosen.length} numeric columns`, "n_components");
  }
  if (chosen.length === 0) return null;
  const c = spec.n_components ?? chosen.length;
  return planReplace(
    columns,
    chosen,
    Array.from({ length: c }, (_, k) => `${spec.prefix}${k + 1}`),
  );
}
