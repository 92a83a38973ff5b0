/**
 * A JSON dataset upload → its name and Frame, and the compute thread's path for one
 * left in blocks. Apart from ingest-dataset.ts so that a thread storing CSV uploads
 * never loads zod and the route's schema.
 */
import { readJsonRows } from "../../data/read-json.js";
import type { DatasetSummary } from "../../store/datasets.js";
import type { DatasetStore } from "../../store/store.js";
import type { Frame } from "../../data/frame.js";
import { ApiError } from "../errors.js";
import { refuseDeepBody } from "../plugins/body-depth.js";
import { parseJsonBlocks } from "../json-blocks.js";
import { createDatasetJson } from "../schemas/datasets.js";
import { storeDataset } from "./ingest-dataset.js";

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

/** A JSON body left in blocks: parsed and checked as the request thread's parser would, read, stored. */
export function ingestJsonBlocks(datasets: DatasetStore, blocks: readonly Uint8Array[], maxCells: number): Promise<DatasetSummary> {
  const parsed = parseJsonBlocks(blocks);
  refusePoisonedKeys(blocks, parsed);
  refuseDeepBody(parsed);
  const { name, frame } = readJsonUpload(parsed, maxCells);
  return storeDataset(datasets, name, frame);
}
