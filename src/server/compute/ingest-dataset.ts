/**
 * A dataset upload → stored dataset, with the answer the route gives for each
 * mistake. The request thread runs it for small bodies; a compute thread, on its
 * own store connection, for large ones (reading and storing a 100 MB CSV held
 * the request thread ≈ 3 s). One function for both, so both give the same dataset.
 *
 *   request thread                              compute thread
 *   ──────────────                              ──────────────
 *   body ≤ 256 KiB: read, store ──▶ 201
 *   body > 256 KiB: blocks (moved) ───────────▶ join or JSON.parse, validate, read,
 *                                               summarise, store (one .immediate() transaction)
 *                   201 ◀── the dataset's summary (WAL: visible to every connection at commit)
 */
import { DataError } from "../../data/errors.js";
import type { ColumnType, Frame } from "../../data/frame.js";
import { readCsv } from "../../data/read-csv.js";
import { readJsonRows } from "../../data/read-json.js";
import { summarizeColumn } from "../../data/summary.js";
import type { DatasetSummary } from "../../store/datasets.js";
import type { DatasetStore } from "../../store/store.js";
import { ApiError } from "../errors.js";
import { refuseDeepBody } from "../plugins/body-depth.js";
import { joinBlocks, parseJsonBlocks } from "../json-blocks.js";
import { createDatasetJson } from "../schemas/datasets.js";

export interface CsvReadOptions {
  missingValues?: string[];
  columnTypes?: Record<string, ColumnType>;
  /** XIGUA_MAX_CELLS */
  maxCells: number;
}

/** An upload whose body was not read on the request thread: its bytes in blocks (see predict-body.ts). */
export type DatasetUpload = { format: "csv"; blocks: Uint8Array[]; length: number; name: string; options: CsvReadOptions } | { format: "json"; blocks: Uint8Array[]; maxCells: number };

/** The JSON body parser refuses any `__proto__` key (400 malformed_request); a CSV upload naming one gets the same answer. */
export const protoKey = (path: string) =>
  new ApiError("malformed_request", '"__proto__" cannot be a column name or key (the JSON parser refuses it too)', [{ path, message: "forbidden key" }]);

/**
 * A CSV that cannot be read as a table (unclosed quote, ragged row, empty or
 * repeated header name, no rows) is malformed: 400. A readable table that cannot be
 * used as given (column_types naming no column, a forced type that does not fit, a
 * reserved column name) is a 422 invalid_data, as the same mistake is in JSON.
 */
function asReadFailure(e: unknown): never {
  if (e instanceof DataError && e.name === "DataError") {
    const path = e.path ?? "body";
    if (path === "header.__proto__") throw protoKey(path);
    if (path === "body" || path === "header" || path.startsWith("line ")) {
      throw new ApiError("malformed_request", e.message, [{ path, message: e.message }]);
    }
  }
  throw e;
}

export function readCsvUpload(bytes: Buffer, options: CsvReadOptions): Frame {
  try {
    return readCsv(bytes, options);
  } catch (e) {
    asReadFailure(e);
  }
}

/** A parsed JSON upload body, validated as the route's schema says, → its name and Frame. */
export function readJsonUpload(parsed: unknown, maxCells: number): { name: string; frame: Frame } {
  const body = createDatasetJson.safeParse(parsed);
  if (!body.success) {
    throw new ApiError(
      "validation_failed",
      `${body.error.issues.length} field(s) failed validation`,
      body.error.issues.slice(0, 20).map((i) => ({ path: i.path.map((p, k) => (typeof p === "number" ? `[${p}]` : k === 0 ? String(p) : `.${String(p)}`)).join(""), message: i.message })),
    );
  }
  const { name, rows, missing_values, column_types } = body.data;
  return { name, frame: readJsonRows(rows, { missingValues: missing_values, columnTypes: column_types, maxCells }) };
}

/** Stores a read table with its column summaries (on the request thread or a compute thread's own store). */
export function storeDataset(datasets: Pick<DatasetStore, "insert">, name: string, frame: Frame): Promise<DatasetSummary> {
  return datasets.insert(name, frame, frame.columns.map(summarizeColumn));
}

/**
 * What Fastify's JSON parser (secure-json-parse) looks for before it scans a parsed
 * body: the string __proto__ or constructor, escapes included. Without its trailing
 * `\s*:` (a value may match too; that only costs a scan) a match is at most 68 bytes
 * long, so one split between two blocks lies within 128 bytes either side of their seam.
 */
const SUSPECT_PROTO = /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"/;
const SUSPECT_CONSTRUCTOR =
  /"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"/;

/**
 * Refuses what the request thread's JSON parser refuses (onProtoPoisoning and
 * onConstructorPoisoning "error"): a `__proto__` key, or a `constructor` object with
 * a `prototype` key, anywhere. Only a body whose text names one is scanned.
 */
function refusePoisonedKeys(blocks: readonly Uint8Array[], body: unknown): void {
  const text = (block: Uint8Array) => Buffer.from(block.buffer, block.byteOffset, block.byteLength).toString("latin1");
  const suspicious = (window: string) => SUSPECT_PROTO.test(window) || SUSPECT_CONSTRUCTOR.test(window);
  const suspect = blocks.some((block, i) => suspicious(text(block)) || (i > 0 && suspicious(text(blocks[i - 1].subarray(-128)) + text(block.subarray(0, 128)))));
  if (!suspect) return;
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null) continue;
    if (Object.hasOwn(value, "__proto__")) throw new ApiError("malformed_request", "Object contains forbidden prototype property", undefined, 400);
    const ctor: unknown = (value as Record<string, unknown>).constructor;
    if (Object.hasOwn(value, "constructor") && typeof ctor === "object" && ctor !== null && Object.hasOwn(ctor, "prototype")) {
      throw new ApiError("malformed_request", "Object contains forbidden prototype property", undefined, 400);
    }
    for (const child of Object.values(value)) if (typeof child === "object" && child !== null) stack.push(child);
  }
}

/** A body left in blocks: the same checks, in the same order, as the request thread gives one it parses itself. */
export function ingestUpload(datasets: DatasetStore, upload: DatasetUpload): Promise<DatasetSummary> {
  if (upload.format === "csv") {
    return storeDataset(datasets, upload.name, readCsvUpload(joinBlocks(upload.blocks, upload.length), upload.options));
  }
  const parsed = parseJsonBlocks(upload.blocks);
  refusePoisonedKeys(upload.blocks, parsed);
  refuseDeepBody(parsed);
  const { name, frame } = readJsonUpload(parsed, upload.maxCells);
  return storeDataset(datasets, name, frame);
}
