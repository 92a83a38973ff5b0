/** Bodies read off the request thread. Apart from predict.ts so that a compute thread storing an upload does not load the models. */
import { ApiError } from "./errors.js";

/** A body's blocks (see predict-body.ts) as JSON; not JSON is a 400, as from Fastify's parser. */
export function parseJsonBlocks(blocks: readonly Uint8Array[]): unknown {
  try {
    // Streaming decode keeps a character split across two blocks whole.
    const decoder = new TextDecoder("utf-8", { fatal: false });
    let text = "";
    for (const block of blocks) text += decoder.decode(block, { stream: true });
    return JSON.parse(text + decoder.decode());
  } catch (e) {
    throw new ApiError("malformed_request", `body is not valid JSON: ${(e as Error).message}`, undefined, 400);
  }
}

/**
 * A body's blocks as one Buffer: a view of the single buffer a CSV body with a
 * Content-Length arrives in (plugins/csv-body.ts), else one copy of the blocks.
 */
export function joinBlocks(blocks: readonly Uint8Array[], length: number): Buffer {
  const [only] = blocks;
  if (blocks.length === 1 && only.byteLength === length) return Buffer.from(only.buffer, only.byteOffset, length);
  return Buffer.concat(blocks, length);
}
