/**
 * MLflow's scoring payloads (the JSON of `mlflow models serve`'s /invocations) → predict
 * rows. A body carries exactly one of four keys, as MLflow's pyfunc scoring server
 * requires (mlflow/pyfunc/scoring_server: "exactly one of the input fields"):
 *
 * - `dataframe_split`: pandas' split orient, `{ columns, data: [[…]], index? }` (index ignored);
 * - `dataframe_records`: pandas' records orient, `[{ column: value }]`;
 * - `instances`: TF-serving rows: records, or lists of values in the model's feature order,
 *   or (one-feature models) bare values;
 * - `inputs`: TF-serving columns `{ column: [values] }`, or a list as `instances`.
 *
 * `params` may come along and is ignored (xigua models take no inference parameters;
 * MLflow ignores params a model does not declare). Any other key is refused, so a
 * misspelt key is not silently taken for none. A malformed payload is a 400 naming the
 * field; more rows than XIGUA_PREDICT_MAX_ROWS is a 413 before any row is converted.
 */
import { ApiError } from "../errors.js";
import { checkRowCount } from "../predict.js";

export const MLFLOW_FORMATS = ["dataframe_split", "dataframe_records", "instances", "inputs"] as const;

type Cell = string | number | boolean | null;
type Row = Record<string, Cell>;

const invalid = (path: string, message: string) => new ApiError("validation_failed", `${path}: ${message}`, [{ path, message }]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function cell(value: unknown, path: string): Cell {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  throw invalid(path, "expected a string, number, boolean or null");
}

function list(value: unknown, path: string, maxRows: number): unknown[] {
  if (!Array.isArray(value)) throw invalid(path, "expected an array");
  if (value.length === 0) throw invalid(path, "no rows: send at least one");
  checkRowCount(value.length, maxRows);
  return value;
}

function record(value: unknown, path: string): Row {
  if (!isObject(value)) throw invalid(path, "expected an object of column values");
  const row: Row = {};
  for (const key of Object.keys(value)) row[key] = cell(value[key], `${path}.${key}`);
  return row;
}

function positional(values: unknown[], features: readonly string[], path: string): Row {
  if (values.length !== features.length) {
    throw new ApiError("unusable_request", `${path} has ${values.length} values; the model takes ${features.length} features, in this order: ${features.join(", ")}`, [
      { path, message: `expected ${features.length} values` },
    ]);
  }
  const row: Row = {};
  features.forEach((name, j) => (row[name] = cell(values[j], `${path}[${j}]`)));
  return row;
}

function split(value: unknown, maxRows: number): Row[] {
  if (!isObject(value)) throw invalid("dataframe_split", "expected an object { columns, data, index? }");
  for (const key of Object.keys(value)) if (key !== "columns" && key !== "data" && key !== "index") throw invalid(`dataframe_split.${key}`, "unknown field");
  const columns = value.columns;
  if (!Array.isArray(columns) || columns.some((c) => typeof c !== "string")) throw invalid("dataframe_split.columns", "expected an array of column names");
  if (new Set(columns).size !== columns.length) throw invalid("dataframe_split.columns", "a column is named twice");
  const data = list(value.data, "dataframe_split.data", maxRows);
  if (value.index !== undefined && (!Array.isArray(value.index) || value.index.length !== data.length)) {
    throw invalid("dataframe_split.index", `expected an array of ${data.length} labels, one per row`);
  }
  return data.map((values, i) => {
    const path = `dataframe_split.data[${i}]`;
    if (!Array.isArray(values)) throw invalid(path, "expected an array of values");
    if (values.length !== columns.length) throw invalid(path, `has ${values.length} values for ${columns.length} columns`);
    const row: Row = {};
    (columns as string[]).forEach((name, j) => (row[name] = cell(values[j], `${path}[${j}]`)));
    return row;
  });
}

/** TF-serving rows: a record, a list in feature order, or a bare value for a one-feature model. */
function instance(value: unknown, features: readonly string[], path: string): Row {
  if (isObject(value)) return record(value, path);
  if (Array.isArray(value)) return positional(value, features, path);
  return positional([value], features, path);
}

function columnar(value: Record<string, unknown>, maxRows: number): Row[] {
  const names = Object.keys(value);
  if (names.length === 0) throw invalid("inputs", "no columns");
  let n = -1;
  for (const name of names) {
    const column = value[name];
    if (!Array.isArray(column)) throw invalid(`inputs.${name}`, "expected an array of values, one per row");
    if (n === -1) n = list(column, `inputs.${name}`, maxRows).length;
    else if (column.length !== n) throw invalid(`inputs.${name}`, `has ${column.length} values; ${names[0]} has ${n}`);
  }
  return Array.from({ length: n }, (_, i) => {
    const row: Row = {};
    for (const name of names) row[name] = cell((value[name] as unknown[])[i], `inputs.${name}[${i}]`);
    return row;
  });
}

/** An invocations body → predict rows for a model with these features (in order). */
export function mlflowRows(body: unknown, features: readonly string[], maxRows: number): Row[] {
  if (!isObject(body)) throw invalid("body", `expected a JSON object with exactly one of ${MLFLOW_FORMATS.join(", ")}`);
  const given = MLFLOW_FORMATS.filter((k) => Object.hasOwn(body, k));
  if (given.length !== 1) {
    const what = given.length === 0 ? "none of them" : given.join(" and ");
    throw invalid("body", `exactly one of ${MLFLOW_FORMATS.join(", ")} is needed; got ${what}`);
  }
  for (const key of Object.keys(body)) {
    if (key !== given[0] && key !== "params") throw invalid(key, `unknown field (a body has one of ${MLFLOW_FORMATS.join(", ")}, and optionally params)`);
  }
  if (body.params !== undefined && !isObject(body.params)) throw invalid("params", "expected an object");
  const value = body[given[0]];
  switch (given[0]) {
    case "dataframe_split":
      return split(value, maxRows);
    case "dataframe_records":
      return list(value, "dataframe_records", maxRows).map((r, i) => record(r, `dataframe_records[${i}]`));
    case "instances":
      return list(value, "instances", maxRows).map((r, i) => instance(r, features, `instances[${i}]`));
    case "inputs":
      if (isObject(value)) return columnar(value, maxRows);
      return list(value, "inputs", maxRows).map((r, i) => instance(r, features, `inputs[${i}]`));
  }
}
