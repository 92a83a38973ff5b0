/**
 * Issue 10 items 14 and 24: slow bodies cannot hold memory (allocation follows the
 * bytes that arrived, the bodies in flight are bounded, idle bodies time out), and
 * Content-Encoding is decoded within the body limit or refused.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import Fastify, { type FastifyInstance } from "fastify";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { registerCsvBodyParser, UnparsedCsvBody } from "../../src/server/plugins/csv-body.js";
import { joinBlocks } from "../../src/server/json-blocks.js";
import { registerErrorHandling } from "../../src/server/plugins/errors.js";
import { testApp, type TestApp } from "../helpers/app.js";

const MB = 1024 * 1024;

/** Sends a request head declaring `contentLength`, then `first`; resolves with the raw response once the server closes. */
function openSlowUpload(port: number, contentLength: number, first: string): { socket: Socket; response: Promise<string> } {
  const socket = connect(port, "127.0.0.1");
  socket.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: ${contentLength}\r\n\r\n${first}`);
  let text = "";
  socket.on("data", (d) => (text += d.toString()));
  const response = new Promise<string>((resolve) => {
    socket.on("close", () => resolve(text));
    socket.on("error", () => {});
  });
  return { socket, response };
}

describe("CSV bodies over a real socket", () => {
  let server: FastifyInstance;
  let port: number;
  let received = 0;

  before(async () => {
    server = Fastify({ logger: false, bodyLimit: 100 * MB });
    registerErrorHandling(server);
    registerCsvBodyParser(server, 100 * MB, { idleTimeoutMs: 400, inFlightLimit: 150 * MB });
    server.addHook("onRequest", async () => void received++);
    // What the compute pool would read: the joined bytes of a large body, whichever way they arrived.
    server.post("/upload", async (request) => {
      const body = request.body as Buffer | UnparsedCsvBody;
      const bytes = Buffer.isBuffer(body) ? body : joinBlocks(body.blocks, body.length);
      return { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), ...(Buffer.isBuffer(body) ? {} : { blocks: body.blocks.length }) };
    });
    await server.listen({ port: 0, host: "127.0.0.1" });
    port = (server.server.address() as { port: number }).port;
  });
  after(() => server.close());

  const untilReceived = async (n: number) => {
    while (received < n) await new Promise((r) => setTimeout(r, 10));
  };

  test("a body declaring 100 MB that trickles holds what arrived, not 100 MB, and times out with 408", async () => {
    const base = process.memoryUsage().arrayBuffers;
    const start = received;
    const slow = [0, 1].map(() => openSlowUpload(port, 70 * MB, "a,b\n1,2\n"));
    await untilReceived(start + 2);
    await new Promise((r) => setTimeout(r, 50));
    const held = process.memoryUsage().arrayBuffers - base;
    assert.ok(held < 16 * MB, `two slow 70 MB uploads hold ${(held / MB).toFixed(1)} MB of buffers`);
    for (const { response } of slow) {
      const text = await response;
      assert.match(text, /^HTTP\/1\.1 408/);
      assert.match(text, /application\/problem\+json/);
      assert.match(text, /"code":"request_timeout"/);
    }
  });

  test("a large body declaring 70 MB holds resident memory for the bytes that arrived, not 70 MB", async () => {
    // Past 256 KiB a body with a Content-Length goes into one buffer of that length, whose
    // pages the kernel maps only when written (plugins/csv-body.ts).
    const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))![1]) * 1024;
    const base = rss();
    const start = received;
    const first = "a,b\n" + "1,2\n".repeat(80_000);
    const slow = [0, 1].map(() => openSlowUpload(port, 70 * MB, first));
    await untilReceived(start + 2);
    await new Promise((r) => setTimeout(r, 100));
    const held = rss() - base;
    assert.ok(held < 32 * MB, `two 70 MB uploads that sent 320 KB each hold ${(held / MB).toFixed(1)} MB more resident memory`);
    for (const { response } of slow) assert.match(await response, /^HTTP\/1\.1 408/);
  });

  test("past the in-flight limit an upload gets 503 with Retry-After; the others go on", async () => {
    const start = received;
    const first = openSlowUpload(port, 70 * MB, "a\n");
    const second = openSlowUpload(port, 70 * MB, "a\n");
    await untilReceived(start + 2);
    const third = openSlowUpload(port, 20 * MB, "a\n");
    const refused = await third.response;
    assert.match(refused, /^HTTP\/1\.1 503/);
    assert.match(refused, /retry-after: \d+/i);
    assert.match(refused, /"code":"unavailable"/);
    first.socket.destroy();
    second.socket.destroy();
    // Hung-up uploads give their claim back: a small upload is accepted again.
    const csv = "a,b\n1,2\n";
    for (;;) {
      const res = await server.inject({ method: "POST", url: "/upload", headers: { "content-type": "text/csv" }, payload: csv });
      if (res.statusCode === 200) {
        assert.deepEqual(res.json(), { bytes: csv.length, sha256: createHash("sha256").update(csv).digest("hex") });
        break;
      }
      assert.equal(res.statusCode, 503);
      await new Promise((r) => setTimeout(r, 10));
    }
  });

  test("a body sent in pieces, with and without Content-Length, arrives whole", async () => {
    // 1.3 MB: past 256 KiB, so one buffer of the declared length, or 1 MiB blocks without one.
    const csv = Buffer.from("x,y\n" + "123456,7.5\n".repeat(120_000));
    const sha256 = createHash("sha256").update(csv).digest("hex");
    const withLength = await server.inject({ method: "POST", url: "/upload", headers: { "content-type": "text/csv" }, payload: csv });
    assert.deepEqual(withLength.json(), { bytes: csv.length, sha256, blocks: 1 });
    const chunked = await fetch(`http://127.0.0.1:${port}/upload`, {
      method: "POST",
      headers: { "content-type": "text/csv" },
      body: new ReadableStream({
        start(controller) {
          for (let at = 0; at < csv.length; at += 7000) controller.enqueue(csv.subarray(at, at + 7000));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    assert.deepEqual(await chunked.json(), { bytes: csv.length, sha256, blocks: 2 });
  });
});

describe("Content-Encoding", () => {
  let t: TestApp;
  before(async () => (t = await testApp({ bodyLimitBytes: MB })));
  after(() => t.close());

  const csv = "a,b\n" + Array.from({ length: 200 }, (_, i) => `${i},${i % 3 === 0 ? "x" : "y"}`).join("\n") + "\n";
  const json = JSON.stringify({ name: "j", rows: Array.from({ length: 200 }, (_, i) => ({ a: i, b: i % 3 === 0 ? "x" : "y" })) });

  for (const [encoding, compress] of [["gzip", gzipSync], ["deflate", deflateSync], ["br", brotliCompressSync]] as const) {
    test(`${encoding}: CSV and JSON uploads are decoded`, async () => {
      const a = await t.app.inject({ method: "POST", url: "/v1/datasets?name=c", headers: { "content-type": "text/csv", "content-encoding": encoding }, payload: compress(csv) });
      assert.equal(a.statusCode, 201, a.body);
      const b = await t.app.inject({ method: "POST", url: "/v1/datasets", headers: { "content-type": "application/json", "content-encoding": encoding }, payload: compress(json) });
      assert.equal(b.statusCode, 201, b.body);
      for (const res of [a, b]) {
        assert.equal(res.json().row_count, 200);
        assert.deepEqual(res.json().columns.map((c: { type: string }) => c.type), ["numeric", "categorical"]);
      }
    });
  }

  test("a zip bomb is a 413 for CSV and JSON", async () => {
    const bomb = gzipSync(Buffer.alloc(64 * MB, 0x31));
    assert.ok(bomb.length < 100_000);
    for (const contentType of ["text/csv", "application/json"]) {
      const res = await t.app.inject({ method: "POST", url: "/v1/datasets?name=b", headers: { "content-type": contentType, "content-encoding": "gzip" }, payload: bomb });
      assert.equal(res.statusCode, 413, res.body);
      assert.equal(res.json().code, "payload_too_large");
    }
  });

  test("an unknown coding is a 415; bytes that are not gzip are a 400", async () => {
    const unknown = await t.app.inject({ method: "POST", url: "/v1/datasets?name=u", headers: { "content-type": "text/csv", "content-encoding": "compress" }, payload: csv });
    assert.equal(unknown.statusCode, 415, unknown.body);
    assert.equal(unknown.json().code, "unsupported_media_type");
    for (const contentType of ["text/csv", "application/json"]) {
      const res = await t.app.inject({ method: "POST", url: "/v1/datasets?name=g", headers: { "content-type": contentType, "content-encoding": "gzip" }, payload: csv });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, "malformed_request");
    }
    assert.equal((await t.app.inject({ url: "/health/ready" })).statusCode, 200);
  });
});
