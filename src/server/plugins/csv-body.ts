/**
 * text/csv bodies, with three guards against slow or oversized bodies:
 *
 * - Memory follows the bytes that arrived, not the declared Content-Length: a body
 *   up to INLINE_MAX_BODY_BYTES is kept as its chunks and joined into one Buffer; a
 *   larger one is copied, as it arrives, into 1 MiB blocks (predict-body.ts) that
 *   are never joined on the request thread: the route moves them to the compute
 *   pool, which reads the CSV there. Allocating the declared size up front let 20
 *   slow connections declaring 100 MB hold 2 GB.
 * - The bodies in flight together may claim at most `inFlightLimit` bytes (each
 *   claims its declared length, or what has arrived when that is more or unknown);
 *   past it an upload gets 503 + Retry-After before any of its bytes is kept.
 * - A body that sends nothing for `idleTimeoutMs` gets a 408 (and the connection is closed).
 */
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.js";
import { INLINE_MAX_BODY_BYTES } from "../predict.js";
import { BlockWriter } from "../predict-body.js";

export interface CsvBodyOptions {
  /** Default: 4 × the body limit. */
  inFlightLimit?: number;
  /** Default: 30 s. */
  idleTimeoutMs?: number;
}

/** A CSV body too large to read on the request thread: its bytes, in blocks that own their buffers, for the compute pool. */
export class UnparsedCsvBody {
  constructor(
    readonly blocks: Uint8Array<ArrayBuffer>[],
    readonly length: number,
  ) {}
}

/** Bytes claimed by CSV bodies being received, for this app. */
class InFlight {
  total = 0;
  constructor(readonly limit: number) {}

  /** Claims `more` bytes; false (and nothing claimed) when that would pass the limit. */
  claim(more: number): boolean {
    if (this.total + more > this.limit) return false;
    this.total += more;
    return true;
  }

  release(bytes: number): void {
    this.total -= bytes;
  }
}

/** A small body's chunks, joined at the end; past INLINE_MAX_BODY_BYTES, blocks instead. */
class CsvBytes {
  private chunks: Buffer[] | null = [];
  private readonly writer = new BlockWriter();
  length = 0;

  append(chunk: Buffer): void {
    this.length += chunk.length;
    if (this.chunks && this.length <= INLINE_MAX_BODY_BYTES) return void this.chunks.push(chunk);
    if (this.chunks) {
      for (const c of this.chunks) this.writer.write(c);
      this.chunks = null;
    }
    this.writer.write(chunk);
  }

  body(): Buffer | UnparsedCsvBody {
    return this.chunks ? Buffer.concat(this.chunks, this.length) : new UnparsedCsvBody(this.writer.finish(), this.length);
  }
}

export function registerCsvBodyParser(app: FastifyInstance, bodyLimit: number, options: CsvBodyOptions = {}): void {
  const inFlight = new InFlight(options.inFlightLimit ?? 4 * bodyLimit);
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  const tooLarge = () => new ApiError("payload_too_large", `the body is over the limit of ${bodyLimit} bytes (XIGUA_BODY_LIMIT_MB)`);
  const busy = () =>
    new ApiError("unavailable", `uploads in progress already claim ${inFlight.total} of the ${inFlight.limit} bytes allowed at once (4 × XIGUA_BODY_LIMIT_MB); try again shortly`);

  app.addContentTypeParser(["text/csv", "application/csv"], (request, payload, done) => {
    const declared = Number(request.headers["content-length"]);
    if (Number.isFinite(declared) && declared > bodyLimit) {
      payload.resume();
      return done(tooLarge(), undefined);
    }
    const known = Number.isInteger(declared) && declared >= 0;
    // A decoded (Content-Encoding) body has a length of its own; the declared one is checked against the encoded bytes.
    const encodedLength = () => (payload as { receivedEncodedLength?: number }).receivedEncodedLength;
    const decoded = typeof encodedLength() === "number";
    let claimed = known ? declared : 0;
    if (!inFlight.claim(claimed)) {
      payload.resume();
      return done(busy(), undefined);
    }
    const body = new CsvBytes();
    let finished = false;
    let idle: NodeJS.Timeout | undefined;
    const finish = (err: Error | null, result?: Buffer | UnparsedCsvBody) => {
      if (finished) return;
      finished = true;
      clearTimeout(idle);
      inFlight.release(claimed);
      payload.removeListener("data", onData);
      if (err) payload.resume();
      done(err, result);
    };
    const armIdleTimer = () => {
      clearTimeout(idle);
      idle = setTimeout(() => finish(new ApiError("request_timeout", `no byte of the body arrived for ${idleTimeoutMs / 1000} s`)), idleTimeoutMs);
    };
    const onData = (chunk: Buffer) => {
      const received = body.length + chunk.length;
      if (received > bodyLimit) return finish(tooLarge());
      if (known && !decoded && received > declared) return finish(new ApiError("malformed_request", "the body is longer than its Content-Length"));
      if (received > claimed) {
        if (!inFlight.claim(received - claimed)) return finish(busy());
        claimed = received;
      }
      body.append(chunk);
      armIdleTimer();
    };
    armIdleTimer();
    payload.on("data", onData);
    payload.on("end", () => {
      const length = decoded ? encodedLength() : body.length;
      if (known && length !== declared) return finish(new ApiError("malformed_request", "the body is shorter than its Content-Length"));
      finish(null, body.body());
    });
    payload.on("error", (err) => finish(err));
    // A client that hangs up mid-body must not keep its claim.
    payload.on("close", () => finish(new ApiError("malformed_request", "the connection closed before the body ended")));
  });
}
