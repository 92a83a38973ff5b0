/**
 * text/csv bodies, with three guards against slow or oversized bodies:
 *
 * - Memory follows the bytes that arrived, not the declared Content-Length: a body
 *   up to INLINE_MAX_BODY_BYTES is kept as its chunks and joined into one Buffer; a
 *   larger one is copied, as it arrives, into a buffer that is never joined or
 *   copied on the request thread: the route moves it to the compute pool, which
 *   reads the CSV there. With a Content-Length (and no Content-Encoding) that is one
 *   buffer of the declared size, allocated once the body has passed
 *   INLINE_MAX_BODY_BYTES, so the compute thread reads it in place (joining 1 MiB
 *   blocks there cost a second copy of the body: +20 MiB for a 20 MiB CSV). Its
 *   pages are the kernel's zero pages until written, so resident memory still
 *   follows the bytes received (a 100 MB declaration that sends 1 MB adds 1 MB), and
 *   the in-flight limit below bounds what the declarations reserve. Without a usable
 *   length the bytes go into 1 MiB blocks (predict-body.ts), joined on the compute thread.
 * - The bodies in flight together may claim at most `inFlightLimit` bytes (each
 *   claims its declared length, or what has arrived when that is more or unknown);
 *   past it an upload gets 503 + Retry-After before any of its bytes is kept.
 * - A body that sends nothing for `idleTimeoutMs` gets a 408 (and the connection is closed).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";
import { INLINE_MAX_BODY_BYTES } from "../predict.js";
import { BlockWriter } from "../predict-body.js";

export interface CsvBodyOptions {
  /** Default: 4 × the body limit. */
  inFlightLimit?: number;
  /** Default: 30 s. */
  idleTimeoutMs?: number;
  /** Called once when a body passes INLINE_MAX_BODY_BYTES (it will be read on the compute pool): the pool can get ready meanwhile. */
  onLargeBody?: (request: FastifyRequest) => void;
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

/**
 * A small body's chunks, joined at the end; past INLINE_MAX_BODY_BYTES, one buffer of
 * the declared length when there is one (the caller refuses a byte past it), else blocks.
 */
class CsvBytes {
  private chunks: Buffer[] | null = [];
  private whole: Buffer | null = null;
  private writer: BlockWriter | null = null;
  length = 0;

  constructor(private readonly declared: number | undefined) {}

  append(chunk: Buffer): void {
    const at = this.length;
    this.length += chunk.length;
    if (this.chunks && this.length <= INLINE_MAX_BODY_BYTES) return void this.chunks.push(chunk);
    if (this.chunks) {
      const earlier = this.chunks;
      this.chunks = null;
      // Not zero-filled (every byte is written before it is read), and its own ArrayBuffer, so it can be moved.
      if (this.declared !== undefined) this.whole = Buffer.allocUnsafeSlow(this.declared);
      else this.writer = new BlockWriter();
      let p = 0;
      for (const c of earlier) {
        this.write(c, p);
        p += c.length;
      }
    }
    this.write(chunk, at);
  }

  private write(chunk: Buffer, at: number): void {
    if (this.whole) this.whole.set(chunk, at);
    else this.writer!.write(chunk);
  }

  body(): Buffer | UnparsedCsvBody {
    if (this.chunks) return Buffer.concat(this.chunks, this.length);
    return new UnparsedCsvBody(this.whole ? [this.whole.subarray(0, this.length) as Uint8Array<ArrayBuffer>] : this.writer!.finish(), this.length);
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
    const body = new CsvBytes(known && !decoded ? declared : undefined);
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
      const small = body.length <= INLINE_MAX_BODY_BYTES;
      body.append(chunk);
      if (small && body.length > INLINE_MAX_BODY_BYTES) options.onLargeBody?.(request);
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
