/**
 * Shared by the projections (pca, lda_projection, mds): the numeric columns
 * they read, checked at fit time, and how their output columns replace them.
 */
import { DataError } from "../../data/errors.js";
import type { Column, Frame } from "../../data/frame.js";
import { checkNewNames, expectNumeric, pickColumns, replaceColumns, replacePlanned, type PlannedColumn } from "../../data/transforms/transform.js";

export interface NumericInputs {
  readonly names: string[];
  readonly columns: Float64Array[];
}

/**
 * The chosen numeric columns (default: every numeric column), complete: a
 * projection learnt from rows with holes would be a guess, so the step asks for
 * an impute step in front instead.
 */
export function completeNumericInputs(frame: Frame, named: readonly string[] | undefined, step: string): NumericInputs {
  const chosen = pickColumns(frame.columns, named, ["numeric"], step);
  if (chosen.length === 0) throw new DataError(`${step}: there are no numeric columns to work on${named ? "" : " (one_hot categorical columns first)"}`, "columns");
  chosen.forEach((c, j) => {
    if (c.type === "numeric" && c.values.some(Number.isNaN)) {
      throw new DataError(`${step}: column "${c.name}" has missing values in the training rows; put an impute step before ${step}`, named ? `columns[${j}]` : "columns");
    }
  });
  return { names: chosen.map((c) => c.name), columns: chosen.map((c) => (c.type === "numeric" ? c.values : new Float64Array(0))) };
}

/** The fitted step's input columns from a later frame. */
export function numericInputsOf(frame: Frame, names: readonly string[], step: string): Float64Array[] {
  return names.map((name) => expectNumeric(frame, name, step));
}

/** Output names `<prefix>1 … <prefix>d`, checked against the columns that stay. */
export function outputNames(prefix: string, count: number, frameNames: readonly string[], inputs: readonly string[], step: string): string[] {
  const names = Array.from({ length: count }, (_, k) => `${prefix}${k + 1}`);
  const replaced = new Set(inputs);
  checkNewNames(
    frameNames.filter((n) => !replaced.has(n)),
    names,
    step,
    "prefix",
  );
  return names;
}

/** The inputs replaced, where the first of them stood, by the outputs (n rows each). */
export function replaceInputs(frame: Frame, inputs: readonly string[], names: readonly string[], outputs: readonly Float64Array[]): Frame {
  const columns = names.map((name, k): Column => ({ type: "numeric", name, values: outputs[k] }));
  return replaceColumns(frame, new Map(inputs.map((name, j) => [name, j === 0 ? columns : []])));
}

export function planReplace(columns: readonly PlannedColumn[], inputs: readonly string[], names: readonly string[]): PlannedColumn[] {
  const outputs = names.map((name): PlannedColumn => ({ name, type: "numeric", missing: 0 }));
  return replacePlanned(columns, new Map(inputs.map((name, j) => [name, j === 0 ? outputs : []])));
}

export { columnMeans } from "../../models/projection/pca-core.js";
export { centredRows } from "../../models/projection/linear-map.js";
