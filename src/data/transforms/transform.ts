/**
 * The shape of a preprocessing step: declared options, fitted on training rows,
 * saved in the artifact, applied to any later frame (validation rows, prediction
 * rows). The training pipeline only talks to this interface, so a new step is one
 * more file in this folder.
 *
 * - `spec` is a strict zod object with a default on every field that has one, so
 *   `spec.parse({})` is the step with its defaults.
 * - `fitted` is plain data (numbers, strings, arrays, typed arrays) that the
 *   artifact codec round-trips; `fitted.parse` validates what an artifact holds.
 * - `apply` returns a new Frame: the columns it does not touch are the same
 *   objects, in the same places; a column it encodes is replaced where it stood.
 * - DataError paths are relative to the step's options (`columns`); the pipeline
 *   prefixes them with the step's place in the request.
 * - `describe` (optional) summarises a fitted step for people (GET /v1/models/{id}):
 *   JSON-safe plain data keyed by column name, no typed arrays.
 * - `plan` (optional) runs the step on column names and types alone, so that a bad
 *   request (a missing column, a categorical column given to `scale`) is refused
 *   before a job is queued; it returns null when the output columns depend on the
 *   data itself (the checks of later steps then wait for fit time).
 */
import type { z } from "zod";
import { DataError } from "../errors.js";
import type { Column, ColumnType, Frame } from "../frame.js";
import { makeFrame } from "../frame.js";

export interface Transform<Spec = unknown, Fitted = unknown> {
  readonly name: string;
  readonly description: string;
  readonly spec: z.ZodType<Spec>;
  readonly fitted: z.ZodType<Fitted>;
  fit(frame: Frame, spec: Spec): Fitted;
  apply(fitted: Fitted, frame: Frame): Frame;
  describe?(fitted: Fitted): Record<string, unknown>;
  plan?(spec: Spec, columns: readonly PlannedColumn[]): PlannedColumn[] | null;
}

/** A column as known before fitting: from the dataset's stored metadata. */
export interface PlannedColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly levels?: readonly string[];
  /** Smallest present value over the whole dataset (numeric columns), when known. */
  readonly min?: number | null;
  /** Missing cells over the whole dataset, when known. */
  readonly missing?: number;
}

/**
 * The columns a step works on: the ones named (each must exist and be of an
 * accepted type), or by default every column of an accepted type.
 */
export function targetColumns(frame: Frame, named: readonly string[] | undefined, accepted: readonly ColumnType[], step: string): Column[] {
  return pickColumns(frame.columns, named, accepted, step);
}

/** targetColumns over any list of typed, named columns (fitted frames and planned schemas alike). */
export function pickColumns<C extends { readonly name: string; readonly type: ColumnType }>(
  columns: readonly C[],
  named: readonly string[] | undefined,
  accepted: readonly ColumnType[],
  step: string,
): C[] {
  if (named === undefined) return columns.filter((c) => accepted.includes(c.type));
  // One map, not a scan per name: a request may name tens of thousands of columns of a table as wide.
  const byName = new Map(columns.map((c) => [c.name, c]));
  return named.map((name, i) => {
    const c = byName.get(name);
    if (!c) throw new DataError(`${step}: there is no column "${name}"`, `columns[${i}]`);
    if (!accepted.includes(c.type)) throw new DataError(`${step}: column "${name}" is ${c.type}, and this step takes ${accepted.join(" or ")} columns`, `columns[${i}]`);
    return c;
  });
}

/** Frames never change their column list, so one name index per list serves every lookup of a step's apply. */
const columnIndexes = new WeakMap<readonly Column[], Map<string, Column>>();
const SCAN_BELOW = 32;

function columnNamed(frame: Frame, name: string): Column | undefined {
  // A scan per fitted column would make applying a step to a wide frame quadratic (predict runs it on the request thread).
  if (frame.columns.length < SCAN_BELOW) return frame.columns.find((col) => col.name === name);
  let index = columnIndexes.get(frame.columns);
  if (!index) {
    index = new Map();
    for (const c of frame.columns) if (!index.has(c.name)) index.set(c.name, c);
    columnIndexes.set(frame.columns, index);
  }
  return index.get(name);
}

/** The column a fitted step expects, checked against the frame it is applied to. */
export function expectColumn(frame: Frame, name: string, type: ColumnType, step: string): Column {
  const c = columnNamed(frame, name);
  if (!c) throw new DataError(`${step}: the data has no column "${name}", which the step was fitted on`, name);
  if (c.type !== type) throw new DataError(`${step}: column "${name}" is ${c.type}, but the step was fitted on a ${type} column`, name);
  return c;
}

/** Frame with some columns replaced in place (each by zero or more columns); the rest untouched. */
export function replaceColumns(frame: Frame, replacements: ReadonlyMap<string, readonly Column[]>): Frame {
  return makeFrame(frame.columns.flatMap((c) => replacements.get(c.name) ?? [c]));
}

/** Planned columns with some replaced in place (each by zero or more columns); the rest untouched. */
export function replacePlanned(columns: readonly PlannedColumn[], replacements: ReadonlyMap<string, readonly PlannedColumn[]>): PlannedColumn[] {
  return columns.flatMap((c) => replacements.get(c.name) ?? [c]);
}

/** replacePlanned for encoders whose new columns must not take a name a kept column has (a DataError at `columns`). */
export function replacePlannedChecked(columns: readonly PlannedColumn[], replacements: ReadonlyMap<string, readonly PlannedColumn[]>, step: string): PlannedColumn[] {
  checkNewNames(
    columns.filter((c) => !replacements.has(c.name)).map((c) => c.name),
    [...replacements.values()].flat().map((c) => c.name),
    step,
    "columns",
  );
  return replacePlanned(columns, replacements);
}

/** Throws a DataError at `path` when a column name is already taken. */
export function checkNewNames(existing: Iterable<string>, added: readonly string[], step: string, path: string): void {
  const names = new Set(existing);
  for (const name of added) {
    if (names.has(name)) throw new DataError(`${step}: the step would create a column "${name}", which already exists`, path);
    names.add(name);
  }
}

/** Numbers for a JSON document: NaN and ±Infinity become null. */
export function jsonNumbers(values: ArrayLike<number>): (number | null)[] {
  return Array.from(values, (v) => (Number.isFinite(v) ? v : null));
}

/** { column: value } for a summary. */
export function byColumn(names: readonly string[], values: ArrayLike<number>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  names.forEach((name, j) => (out[name] = Number.isFinite(values[j]) ? values[j] : null));
  return out;
}

/** The values of a numeric column a fitted step expects. */
export function expectNumeric(frame: Frame, name: string, step: string): Float64Array {
  const c = expectColumn(frame, name, "numeric", step);
  return c.type === "numeric" ? c.values : new Float64Array(0);
}
