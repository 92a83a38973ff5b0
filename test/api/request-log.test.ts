/**
 * Request logs carry the request id and the API key's id, and never a credential:
 * the log output of requests with an Authorization header is captured (a pino
 * destination stream) and searched for the secret.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { testApp } from "../helpers/app.js";
import type { Principal } from "../../src/server/access/principal.js";

const SECRET = "xk_live_s3cr3t-0123456789abcdef";

test("one 'request completed' line per request with reqId and key_id; no header, no secret", async () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  const t = await testApp({}, undefined, { logger: { level: "info", stream } });
  try {
    // A stand-in for the access plugin: the key's id once authenticated.
    t.app.addHook("onRequest", async (request) => {
      if (request.headers.authorization) request.principal = { ...request.principal, keyId: "ak_test" } as Principal;
    });
    const headers = { authorization: `Bearer ${SECRET}`, "x-api-key": SECRET, cookie: `session=${SECRET}`, "x-request-id": "req-42" };
    await t.app.inject({ url: "/health/live", headers });
    await t.app.inject({ method: "POST", url: "/v1/datasets", headers, payload: { name: "x", rows: [{ a: 1 }] } });
    await t.app.inject({ url: "/v1/datasets/ds_nope", headers });
    await t.app.inject({ url: "/health/live" });
    // Code that logs a request's headers anyway gets them censored.
    t.app.log.info({ req: { headers } }, "headers logged by mistake");
    t.app.log.info({ headers }, "headers logged by mistake");

    const all = lines.join("\n");
    assert.ok(!all.includes(SECRET), "the secret never appears");
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const completed = records.filter((r) => r.msg === "request completed");
    assert.equal(completed.length, 4);
    assert.deepEqual(
      completed.map((r) => [r.reqId === "req-42", r.key_id, r.route, (r.res as { statusCode: number }).statusCode]),
      [
        [true, "ak_test", "/health/live", 200],
        [true, "ak_test", "/v1/datasets", 201],
        [true, "ak_test", "/v1/datasets/:id", 404],
        [false, null, "/health/live", 200],
      ],
    );
    for (const r of completed) assert.equal(typeof r.responseTime, "number");
    const mistakes = records.filter((r) => r.msg === "headers logged by mistake");
    assert.equal(mistakes.length, 2);
    // Fastify's req serializer keeps no headers at all; a plain `headers` object is censored by the redact paths.
    assert.deepEqual(mistakes[1].headers, { ...headers, authorization: "[Redacted]", "x-api-key": "[Redacted]", cookie: "[Redacted]" });
  } finally {
    await t.close();
  }
});
