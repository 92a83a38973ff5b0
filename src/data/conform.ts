/**
 * Reads a Frame the way a fitted model expects its input: the model's columns,
 * in its order, categorical codes re-mapped to the model's levels by name.
 * A level the model never saw becomes missing, as API.md specifies for predictions.
 */
import { getColumn, hasColumn, type Column, type ColumnSchema, type Frame } from "./frame.js";

export class ConformError extends Error {
  constructor(
    message: string,
    readonly column: string,
  ) {
    super(message);
    this.name = "ConformError";
  }
}

export function conformColumn(column: Column, schema: ColumnSchema): Column {
  if (schema.type === "numeric") {
    if (column.type !== "numeric") throw new ConformError(`column "${schema.name}" must be numeric`, schema.name);
    return column;
  }
  if (column.type !== "categorical") throw new ConformError(`column "${schema.name}" must be categorical`, schema.name);
  const index = new Map(schema.levels.map((l, i) => [l, i]));
  const remap = Int32Array.from(column.levels, (l) => index.get(l) ?? -1);
  const codes = Int32Array.from(column.codes, (c) => (c < 0 ? -1 : remap[c]));
  return { type: "categorical", name: schema.name, codes, levels: schema.levels };
}

export function conformFrame(frame: Frame, schema: readonly ColumnSchema[]): Frame {
  const columns = schema.map((s) => {
    if (!hasColumn(frame, s.name)) throw new ConformError(`column "${s.name}" is missing`, s.name);
    return conformColumn(getColumn(frame, s.name), s);
  });
  return { rowCount: frame.rowCount, columns };
}
