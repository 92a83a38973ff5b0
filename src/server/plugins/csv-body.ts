/**
 * text/csv bodies as one Buffer, with three guards against slow or oversized bodies:
 *
 * - Memory follows the bytes that arrived, not the declared Content-Length: the
 *   buffer starts small and doubles (capped at the declared length, so an honest
 *   body ends in a buffer of exactly its size; the peak, during the last copy, is
 *   under 2 × the body). Allocating the declared size up front let 20 slow
 *   connections declaring 100 MB hold 2 GB.
 * - The bodies in flight together may claim at most `inFlightLimit` bytes (each
 *   claims its declared length, or what has arrived when that is more or unknown);
 *   past it an upload gets 503 + Retry-After before any of its bytes is kept.
 * - A body that sends nothing for `idleTimeoutMs` gets a 408 (and the connection is closed).
 */
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.js";

export interface CsvBodyOptions {
  /** Default: 4 × the body limit. */
  inFlightLimit?: number;
  /** Default: 30 s. */
  idleTimeoutMs?: number;
}

const FIRST_ALLOCATION = 64 * 1024;

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

/** A buffer that grows by doubling, never past `cap`. */
class GrowingBuffer {
  private buffer = Buffer.alloc(0);
  length = 0;
  constructor(private readonly cap: number) {}

  append(chunk: Buffer): void {
    const needed = this.length + chunk.length;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.cap, Math.max(needed, FIRST_ALLOCATION, this.buffer.length * 2)));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    chunk.copy(this.buffer, this.length);
    this.length = needed;
  }

  bytes(): Buffer {
    return this.length === this.buffer.length ? this.buffer : this.buffer.subarray(0, this.length);
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
    const body = new GrowingBuffer(known && !decoded ? declared : bodyLimit);
    let finished = false;
    let idle: NodeJS.Timeout | undefined;
    const finish = (err: Error | null, result?: Buffer) => {
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
      finish(null, body.bytes());
    });
    payload.on("error", (err) => finish(err));
    // A client that hangs up mid-body must not keep its claim.
    payload.on("close", () => finish(new ApiError("malformed_request", "the connection closed before the body ended")));
  });
}
