/**
 * The Open Inference Protocol v2 (KServe "Predict Protocol - Version 2", REST) on
 * xigua models: tensors in, predict rows out, and the predict response back as
 * tensors. Shapes follow the protocol's required API:
 *
 * - inputs: one tensor per feature column, named as the feature, shape [n] or [n, 1];
 *   or a single tensor of shape [n, d], d the number of features, in the model's
 *   feature order (GET /v2/models/{name} lists them). `data` is row-major, flat or
 *   nested, as the protocol allows. A feature without a tensor is missing in every row;
 *   a `null` element is a missing value (an xigua extension: JSON has no NaN).
 * - datatypes: BYTES (strings), BOOL, and the integer and FP types (numbers; integers for
 *   INT and UINT); elements must fit the declared type. Categorical features are BYTES
 *   in the metadata, numeric ones FP64, and either accepts the other's cells as
 *   /predict does (a number for a level named "1", a numeric string for a number).
 * - outputs: `label` (BYTES class, FP64 value or INT64 cluster index) and, for
 *   classifiers, `probabilities` (FP64 [n, classes], classes in the model's order);
 *   projections give `projection` (FP64 [n, dims]).
 *
 * Every malformed request is an ApiError (400, or 413 past the row limit), never a throw
 * of anything else; the route answers it as `{ "error": "…" }`.
 */
import type { ColumnSchema } from "../../data/frame.js";
import type { FittedModel } from "../../training/artifact.js";
import { ApiError } from "../errors.js";
import { checkRowCount, type PredictWire } from "../predict.js";

export const OIP_DATATYPES = ["BOOL", "UINT8", "UINT16", "UINT32", "UINT64", "INT8", "INT16", "INT32", "INT64", "FP16", "FP32", "FP64", "BYTES"] as const;
export type OipDatatype = (typeof OIP_DATATYPES)[number];

export interface OipTensorMetadata {
  name: string;
  datatype: OipDatatype;
  shape: number[];
}

export interface OipModelMetadata {
  name: string;
  versions?: string[];
  platform: string;
  inputs: OipTensorMetadata[];
  outputs: OipTensorMetadata[];
}

export interface OipTensor extends OipTensorMetadata {
  data: unknown[];
}

type Cell = string | number | boolean | null;
type Row = Record<string, Cell>;

export interface OipInferRequest {
  id?: string;
  rows: Row[];
  /** Requested output names, or null for every output. */
  outputs: string[] | null;
}

const bad = (path: string, message: string) => new ApiError("validation_failed", `${path}: ${message}`, [{ path, message }]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function isDatatype(v: unknown): v is OipDatatype {
  return typeof v === "string" && (OIP_DATATYPES as readonly string[]).includes(v);
}

/** Whether `v` is an element of a tensor of this datatype (null: a missing value). */
function fits(v: unknown, datatype: OipDatatype): boolean {
  if (v === null) return true;
  if (datatype === "BYTES") return typeof v === "string";
  if (datatype === "BOOL") return typeof v === "boolean";
  if (typeof v !== "number" || !Number.isFinite(v)) return false;
  if (datatype.startsWith("FP")) return true;
  return Number.isInteger(v) && (!datatype.startsWith("UINT") || v >= 0);
}

/** A tensor's elements in row-major order, from flat or nested data that must match its shape. */
function flatten(data: unknown, shape: readonly number[], path: string): unknown[] {
  if (!Array.isArray(data)) throw bad(`${path}.data`, "expected an array");
  const total = shape.reduce((a, b) => a * b, 1);
  if (data.length === total && !data.some(Array.isArray)) return data;
  const out: unknown[] = [];
  const walk = (value: unknown, depth: number, at: string) => {
    if (depth === shape.length) {
      if (Array.isArray(value)) throw bad(at, "nested deeper than the shape");
      out.push(value);
      return;
    }
    if (!Array.isArray(value) || value.length !== shape[depth]) throw bad(at, `expected ${shape[depth]} elements (shape [${shape.join(", ")}]), flat or nested`);
    value.forEach((v, i) => walk(v, depth + 1, `${at}[${i}]`));
  };
  walk(data, 0, `${path}.data`);
  return out;
}

interface Input {
  name: string;
  shape: number[];
  datatype: OipDatatype;
  data: unknown;
  path: string;
}

function readInput(value: unknown, path: string): Input {
  if (!isObject(value)) throw bad(path, "expected an object { name, shape, datatype, data }");
  const { name, shape, datatype, data, parameters } = value;
  if (typeof name !== "string" || name === "") throw bad(`${path}.name`, "expected a non-empty string");
  if (!Array.isArray(shape) || shape.length === 0 || shape.length > 2 || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    throw bad(`${path}.shape`, "expected [n] or [n, d] of non-negative integers");
  }
  if (!isDatatype(datatype)) throw bad(`${path}.datatype`, `expected one of ${OIP_DATATYPES.join(", ")}`);
  if (parameters !== undefined && !isObject(parameters)) throw bad(`${path}.parameters`, "expected an object");
  if (data === undefined) throw bad(`${path}.data`, "required");
  return { name, shape: shape as number[], datatype, data, path };
}

function elements(input: Input): Cell[] {
  const flat = flatten(input.data, input.shape, input.path);
  flat.forEach((v, i) => {
    if (!fits(v, input.datatype)) throw bad(`${input.path}.data[${i}]`, `not a ${input.datatype} element`);
  });
  return flat as Cell[];
}

/** One [n, d] tensor in feature order. */
function matrixRows(input: Input, features: readonly ColumnSchema[], maxRows: number): Row[] {
  const [n, d] = input.shape;
  if (d !== features.length) {
    throw bad(`${input.path}.shape`, `a single input of shape [n, d] needs d = ${features.length}, the model's features in order: ${features.map((f) => f.name).join(", ")}`);
  }
  checkRowCount(n, maxRows);
  const flat = elements(input);
  return Array.from({ length: n }, (_, i) => {
    const row: Row = {};
    features.forEach((f, j) => (row[f.name] = flat[i * d + j]));
    return row;
  });
}

/** One tensor per feature, each [n] or [n, 1]. */
function columnRows(inputs: Input[], features: readonly ColumnSchema[], maxRows: number): Row[] {
  const known = new Set(features.map((f) => f.name));
  const seen = new Set<string>();
  let n = -1;
  for (const input of inputs) {
    if (!known.has(input.name)) {
      throw bad(`${input.path}.name`, `"${input.name}" is not a feature of the model (its inputs: ${features.map((f) => f.name).join(", ")}; or send one [n, ${features.length}] tensor)`);
    }
    if (seen.has(input.name)) throw bad(`${input.path}.name`, `"${input.name}" is given twice`);
    seen.add(input.name);
    if (input.shape.length === 2 && input.shape[1] !== 1) throw bad(`${input.path}.shape`, "a feature's input is [n] or [n, 1]");
    if (n === -1) n = input.shape[0];
    else if (input.shape[0] !== n) throw bad(`${input.path}.shape`, `${input.shape[0]} rows, but the first input has ${n}`);
  }
  checkRowCount(n, maxRows);
  const rows: Row[] = Array.from({ length: n }, () => ({}));
  for (const input of inputs) {
    const flat = elements(input);
    for (let i = 0; i < n; i++) rows[i][input.name] = flat[i];
  }
  return rows;
}

/** An inference request body → predict rows for a model with these features. */
export function oipInferRequest(body: unknown, features: readonly ColumnSchema[], maxRows: number): OipInferRequest {
  if (!isObject(body)) throw bad("body", "expected an inference request object { id?, parameters?, inputs, outputs? }");
  for (const key of Object.keys(body)) if (!["id", "parameters", "inputs", "outputs"].includes(key)) throw bad(key, "unknown field");
  const { id, parameters, inputs, outputs } = body;
  if (id !== undefined && typeof id !== "string") throw bad("id", "expected a string");
  if (parameters !== undefined && !isObject(parameters)) throw bad("parameters", "expected an object");
  if (!Array.isArray(inputs) || inputs.length === 0) throw bad("inputs", "expected a non-empty array of input tensors");
  const read = inputs.map((v, i) => readInput(v, `inputs[${i}]`));
  const names = new Set(features.map((f) => f.name));
  const matrix = read.length === 1 && read[0].shape.length === 2 && !names.has(read[0].name);
  const rows = matrix ? matrixRows(read[0], features, maxRows) : columnRows(read, features, maxRows);
  if (rows.length === 0) throw bad("inputs", "no rows: the batch dimension is 0");
  let requested: string[] | null = null;
  if (outputs !== undefined) {
    if (!Array.isArray(outputs)) throw bad("outputs", "expected an array of { name }");
    requested = outputs.map((o, i) => {
      if (!isObject(o) || typeof o.name !== "string") throw bad(`outputs[${i}]`, "expected { name, parameters? }");
      if (o.parameters !== undefined && !isObject(o.parameters)) throw bad(`outputs[${i}].parameters`, "expected an object");
      return o.name;
    });
    if (new Set(requested).size !== requested.length) throw bad("outputs", "an output is requested twice");
  }
  return { ...(id !== undefined ? { id } : {}), rows, outputs: requested };
}

/** The outputs a model produces. */
export function oipOutputs(model: Pick<FittedModel, "task" | "classes">): OipTensorMetadata[] {
  switch (model.task) {
    case "classification":
      return [
        { name: "label", datatype: "BYTES", shape: [-1] },
        { name: "probabilities", datatype: "FP64", shape: [-1, model.classes?.length ?? -1] },
      ];
    case "regression":
      return [{ name: "label", datatype: "FP64", shape: [-1] }];
    case "clustering":
      return [{ name: "label", datatype: "INT64", shape: [-1] }];
    case "projection":
      return [{ name: "projection", datatype: "FP64", shape: [-1, -1] }];
    case "anomaly":
      return [
        { name: "label", datatype: "BYTES", shape: [-1] },
        { name: "score", datatype: "FP64", shape: [-1] },
      ];
  }
}

export function oipMetadata(name: string, version: string | undefined, model: FittedModel): OipModelMetadata {
  return {
    name,
    ...(version !== undefined ? { versions: [version] } : {}),
    platform: `xigua_${model.algorithm.name}`,
    inputs: model.features.map((f) => ({ name: f.name, datatype: f.type === "numeric" ? "FP64" : "BYTES", shape: [-1] })),
    outputs: oipOutputs(model),
  };
}

/** Requested outputs checked against the model's: an unknown name is a 400. */
export function selectOutputs(model: Pick<FittedModel, "task" | "classes">, requested: string[] | null): string[] {
  const available = oipOutputs(model).map((o) => o.name);
  if (requested === null) return available;
  requested.forEach((name, i) => {
    if (!available.includes(name)) throw bad(`outputs[${i}].name`, `"${name}" is not an output of this model (its outputs: ${available.join(", ")})`);
  });
  return requested;
}

/** The predict response as the requested output tensors (probabilities only when the model gave them). */
export function oipOutputTensors(model: Pick<FittedModel, "task" | "classes">, wire: PredictWire, selected: readonly string[]): OipTensor[] {
  const byName = new Map(oipOutputs(model).map((o) => [o.name, o]));
  const tensors: OipTensor[] = [];
  for (const name of selected) {
    const meta = byName.get(name)!;
    if (name === "label") {
      const data = wire.predictions ?? [];
      tensors.push({ ...meta, shape: [data.length], data });
    } else if (name === "probabilities" && wire.probabilities) {
      const classes = model.classes ?? [];
      const data = wire.probabilities.flatMap((row) => classes.map((c) => row[c]));
      tensors.push({ ...meta, shape: [wire.probabilities.length, classes.length], data });
    } else if (name === "score" && wire.scores) {
      tensors.push({ ...meta, shape: [wire.scores.length], data: wire.scores });
    } else if (name === "projection" && wire.projections) {
      const dims = wire.projections[0]?.length ?? 0;
      tensors.push({ ...meta, shape: [wire.projections.length, dims], data: wire.projections.flat() });
    }
  }
  return tensors;
}

/** `{v}` of /versions/{v}: a number is a version, anything else an alias (model-ref.ts resolves both). */
export function versionRef(name: string, version: string): string {
  return /^\d+$/.test(version) ? `${name}:${version}` : `${name}@${version}`;
}
