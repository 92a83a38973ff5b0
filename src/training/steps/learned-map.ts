/**
 * What the metric-learning steps (nca, lmnn) share: a learned linear map of the centred
 * numeric columns onto n_components outputs. Applying it, listing its components and
 * planning its columns are the same for both; only the fit differs.
 */
import type { Frame } from "../../data/frame.js";
import { DataError } from "../../data/errors.js";
import { byColumn, pickColumns } from "../../data/transforms/transform.js";
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
  const d = fitted.columns.length;
  const outputs = fitted.names.map(() => new Float64Array(n));
  inputs.forEach((x, j) => {
    const shift = fitted.mean[j];
    outputs.forEach((out, a) => {
      const w = fitted.components[a * d + j];
      for (let i = 0; i < n; i++) {
        const v = x[i] - shift;
        // A missing cell counts as the training mean (contributes nothing), as in pca and lda_projection.
        if (v === v) out[i] += w * v;
      }
    });
  });
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
