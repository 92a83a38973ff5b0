/**
 * The /predict body reader. A small body is collected and parsed as JSON here,
 * as Fastify's own parser would. A large one is never joined on the request
 * thread (Buffer.concat of 75 MB blocked it ≈ 70 ms): bytes are copied, as they
 * arrive, into 1 MiB blocks that each own their ArrayBuffer, and the blocks are
 * moved to the compute pool, which decodes and parses them. Memory grows with the
 * bytes received, never with what Content-Length claims.
 */
import type { FastifyInstance } from "fastify";
import { ApiError } from "./errors.js";
import { INLINE_MAX_BODY_BYTES } from "./predict.js";

const BLOCK_BYTES = 1024 * 1024;

/** A predict body too large to parse on the request thread: its bytes, in blocks, for the compute pool. */
export class UnparsedPredictBody {
  constructor(
    readonly blocks: Uint8Array<ArrayBuffer>[],
    readonly length: number,
  ) {}
}

/**
 * The bytes of each small body parsed here, kept while its request lives: when the
 * batch turns out to need the pool after all, these bytes are moved there (and
 * parsed again, off this thread) instead of structured-cloning the parsed rows,
 * which costs this thread more than predicting them (5 ms for 1,000 rows).
 */
const smallBodies = new WeakMap<object, Buffer>();

/** A small parsed body's bytes, as a block that can be moved to the compute pool. */
export function bodyBlocks(request: object): Uint8Array<ArrayBuffer>[] | undefined {
  const raw = smallBodies.get(request);
  return raw && [new Uint8Array(raw)];
}

/** Copies chunks into fresh blocks as they come; `blocks` own their buffers, so they can be transferred. */
export class BlockWriter {
  readonly blocks: Uint8Array<ArrayBuffer>[] = [];
  private used = BLOCK_BYTES;

  write(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.used === BLOCK_BYTES) {
        // Not zero-filled: every byte is written before it is read.
        this.blocks.push(Buffer.allocUnsafeSlow(BLOCK_BYTES));
        this.used = 0;
      }
      const n = Math.min(chunk.length - offset, BLOCK_BYTES - this.used);
      this.blocks[this.blocks.length - 1].set(chunk.subarray(offset, offset + n), this.used);
      this.used += n;
      offset += n;
    }
  }

  /** The blocks, the last one a view of what was written (its whole buffer is moved with it). */
  finish(): Uint8Array<ArrayBuffer>[] {
    const last = this.blocks.length - 1;
    if (last >= 0 && this.used < BLOCK_BYTES) this.blocks[last] = this.blocks[last].subarray(0, this.used);
    return this.blocks;
  }
}

/** Registers the reader for application/json in `app`'s (encapsulated) scope. */
export function registerPredictBodyReader(app: FastifyInstance, bodyLimit: number): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", (request, payload, done) => {
    const declared = Number(request.headers["content-length"]);
    const tooLarge = () => new ApiError("payload_too_large", `the body is over the limit of ${bodyLimit} bytes (XIGUA_BODY_LIMIT_MB)`);
    if (declared > bodyLimit) {
      payload.resume();
      return done(tooLarge(), undefined);
    }
    let chunks: Buffer[] | null = [];
    // Made only when the body turns out large (the single-row hot path never needs it).
    let writer: BlockWriter | null = null;
    let received = 0;
    let failed = false;
    const fail = (error: Error) => {
      failed = true;
      payload.resume();
      done(error, undefined);
    };
    payload.on("data", (chunk: Buffer) => {
      if (failed) return;
      received += chunk.length;
      if (received > bodyLimit) return fail(tooLarge());
      if (chunks && received <= INLINE_MAX_BODY_BYTES) return void chunks.push(chunk);
      if (chunks) {
        writer = new BlockWriter();
        for (const c of chunks) writer.write(c);
        chunks = null;
      }
      writer!.write(chunk);
    });
    payload.on("end", () => {
      if (failed) return;
      // A decoded (Content-Encoding) body is checked by its encoded length, as Fastify's own reader does.
      const encoded = (payload as { receivedEncodedLength?: number }).receivedEncodedLength;
      if (Number.isInteger(declared) && declared !== (encoded ?? received)) return fail(new ApiError("malformed_request", "the body's length does not match its Content-Length", undefined, 400));
      if (chunks) {
        const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received);
        smallBodies.set(request, raw);
        return parseJson(request, raw.toString("utf8"), done);
      }
      done(null, new UnparsedPredictBody(writer!.finish(), received));
    });
    payload.on("error", (err) => {
      if (!failed) fail(err);
    });
  });
}
