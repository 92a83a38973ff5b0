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
import { summarizeColumn } from "../../data/summary.js";
import type { DatasetSummary } from "../../store/datasets.js";
import type { DatasetStore } from "../../store/store.js";
import { ApiError } from "../errors.js";
import { joinBlocks } from "../json-blocks.js";
import { importBeside } from "../../import-beside.js";

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

/** Stores a read table with its column summaries (on the request thread or a compute thread's own store). */
export function storeDataset(datasets: Pick<DatasetStore, "insert">, name: string, frame: Frame): Promise<DatasetSummary> {
  return datasets.insert(name, frame, frame.columns.map(summarizeColumn));
}

/**
 * A body left in blocks: the same checks, in the same order, as the request thread gives
 * one it parses itself. The JSON path is imported with the first JSON upload: its zod
 * schema (and zod) cost a thread that stores CSV uploads ≈ 9 MiB and 60 ms at its start.
 */
export async function ingestUpload(datasets: DatasetStore, upload: DatasetUpload): Promise<DatasetSummary> {
  if (upload.format === "csv") {
    return storeDataset(datasets, upload.name, readCsvUpload(joinBlocks(upload.blocks, upload.length), upload.options));
  }
  const { ingestJsonBlocks } = await importBeside<typeof import("./ingest-json.js")>(import.meta.url, "./ingest-json");
  return ingestJsonBlocks(datasets, upload.blocks, upload.maxCells);
}
