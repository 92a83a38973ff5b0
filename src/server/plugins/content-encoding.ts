/**
 * Request bodies sent with Content-Encoding gzip, deflate or br are decoded before
 * any body parser sees them; any other coding is a 415. The decoded size counts
 * against the body limit (a zip bomb is a 413 after at most that many bytes were
 * inflated), and the encoded size is what Content-Length is checked against
 * (`receivedEncodedLength`, which Fastify's parsers and csv-body.ts read).
 */
import { Transform, type Readable, type TransformCallback } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.js";

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** Passes decoded bytes on until there are more than `limit` of them. */
class DecodedLimit extends Transform {
  receivedEncodedLength = 0;
  private decoded = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.decoded += chunk.length;
    if (this.decoded > this.limit) return callback(new ApiError("payload_too_large", `the decoded body is over the limit of ${this.limit} bytes (XIGUA_BODY_LIMIT_MB)`));
    callback(null, chunk);
  }
}

function decode(payload: Readable, encoding: string, decoder: Transform, limit: number): DecodedLimit {
  const out = new DecodedLimit(limit);
  payload.on("data", (chunk: Buffer) => (out.receivedEncodedLength += chunk.length));
  payload.on("error", (err) => out.destroy(err));
  decoder.on("error", (err) => out.destroy(new ApiError("malformed_request", `the body is not valid ${encoding} data (${err.message})`)));
  out.on("error", () => {
    (decoder as Gunzip).close?.();
    payload.unpipe(decoder);
  });
  payload.pipe(decoder).pipe(out);
  return out;
}

export function registerContentDecoding(app: FastifyInstance, bodyLimit: number): void {
  // A callback hook, not an async one: nearly every request has no Content-Encoding and needs no promise.
  app.addHook("preParsing", (request, _reply, payload, done) => {
    const header = request.headers["content-encoding"];
    if (header === undefined) return done(null, payload);
    const encoding = header.trim().toLowerCase();
    if (encoding === "" || encoding === "identity") return done(null, payload);
    const hasBody = request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"]) > 0;
    if (!hasBody) return done(null, payload);
    const make = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding] : undefined;
    if (!make) return done(new ApiError("unsupported_media_type", `Content-Encoding "${header}" is not supported: send gzip, deflate, br or identity (one coding)`));
    done(null, decode(payload, encoding, make(), bodyLimit));
  });
}
