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
}

/**
 * The columns a step works on: the ones named (each must exist and be of an
 * accepted type), or by default every column of an accepted type.
 */
export function targetColumns(frame: Frame, named: readonly string[] | undefined, accepted: readonly ColumnType[], step: string): Column[] {
  if (named === undefined) return frame.columns.filter((c) => accepted.includes(c.type));
  return named.map((name, i) => {
    const c = frame.columns.find((col) => col.name === name);
    if (!c) throw new DataError(`${step}: there is no column "${name}"`, `columns[${i}]`);
    if (!accepted.includes(c.type)) throw new DataError(`${step}: column "${name}" is ${c.type}, and this step takes ${accepted.join(" or ")} columns`, `columns[${i}]`);
    return c;
  });
}

/** The column a fitted step expects, checked against the frame it is applied to. */
export function expectColumn(frame: Frame, name: string, type: ColumnType, step: string): Column {
  const c = frame.columns.find((col) => col.name === name);
  if (!c) throw new DataError(`${step}: the data has no column "${name}", which the step was fitted on`, name);
  if (c.type !== type) throw new DataError(`${step}: column "${name}" is ${c.type}, but the step was fitted on a ${type} column`, name);
  return c;
}

/** Frame with some columns replaced in place (each by zero or more columns); the rest untouched. */
export function replaceColumns(frame: Frame, replacements: ReadonlyMap<string, readonly Column[]>): Frame {
  return makeFrame(frame.columns.flatMap((c) => replacements.get(c.name) ?? [c]));
}
