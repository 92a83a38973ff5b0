/**
 * text/csv bodies as one Buffer. When the client sends Content-Length (every
 * ordinary upload does), the Buffer is allocated once at that size and the
 * chunks are copied straight in: the default "collect chunks, then concat"
 * would hold every upload twice at its peak.
 */
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.js";

export function registerCsvBodyParser(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser(["text/csv", "application/csv"], (request, payload, done) => {
    const declared = Number(request.headers["content-length"]);
    const tooLarge = () => new ApiError("payload_too_large", `the body is over the limit of ${bodyLimit} bytes (XIGUA_BODY_LIMIT_MB)`);
    if (Number.isFinite(declared) && declared > bodyLimit) {
      payload.resume();
      return done(tooLarge(), undefined);
    }
    const known = Number.isInteger(declared) && declared >= 0;
    const target = known ? Buffer.allocUnsafe(declared) : null;
    const chunks: Buffer[] = [];
    let received = 0;
    let failed = false;
    payload.on("data", (chunk: Buffer) => {
      if (failed) return;
      if (received + chunk.length > (known ? declared : bodyLimit)) {
        failed = true;
        payload.resume();
        return done(known ? new ApiError("malformed_request", "the body is longer than its Content-Length") : tooLarge(), undefined);
      }
      if (target) chunk.copy(target, received);
      else chunks.push(chunk);
      received += chunk.length;
    });
    payload.on("end", () => {
      if (failed) return;
      if (target && received !== declared) return done(new ApiError("malformed_request", "the body is shorter than its Content-Length"), undefined);
      done(null, target ?? Buffer.concat(chunks, received));
    });
    payload.on("error", (err) => {
      if (!failed) {
        failed = true;
        done(err, undefined);
      }
    });
  });
}
