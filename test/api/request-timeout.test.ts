/**
 * A request whose body trickles or stops is answered 408 request_timeout (problem+json)
 * once XIGUA_REQUEST_TIMEOUT_S has passed, and its connection is closed: a JSON body
 * must not hold a connection forever. Run on a real socket with a short limit.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { connect, type AddressInfo } from "node:net";
import { readConfig } from "../../src/server/config.js";
import { testApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
let port: number;
before(async () => {
  t = await testApp({ requestTimeoutMs: 400 });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
});
after(() => t.close());

/** Writes `head`, then `drip` one byte at a time every `everyMs` (none: the body stops); resolves with all the server wrote before closing. */
function slowRequest(head: string, drip = "", everyMs = 100): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let at = 0;
    const timer = setInterval(() => (at < drip.length && !socket.destroyed ? socket.write(drip[at++]) : undefined), everyMs);
    // Without a server-side limit the socket would stay open: give up (with nothing answered) well after the 400 ms.
    const giveUp = setTimeout(() => socket.destroy(), 10_000);
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    socket.write(head);
  });
}

function assertTimeoutProblem(text: string) {
  const [headers, body] = text.split("\r\n\r\n");
  assert.match(headers, /^HTTP\/1\.1 408 /, text);
  assert.match(headers, /content-type: application\/problem\+json/i);
  const problem = JSON.parse(body);
  assert.deepEqual([problem.status, problem.code, problem.type], [408, "request_timeout", "urn:xigua:problem:request_timeout"]);
}

const jsonHead = (length: number) => `POST /v1/models HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"dataset_id":`;

test("a JSON body that stops is a 408 problem and the connection closes", async () => {
  assertTimeoutProblem(await slowRequest(jsonHead(1000)));
  assert.equal((await fetch(`http://127.0.0.1:${port}/health/ready`)).status, 200);
});

test("a JSON body that keeps trickling (never idle) is still a 408 once the limit has passed", async () => {
  assertTimeoutProblem(await slowRequest(jsonHead(1000), " ".repeat(400), 50));
});

test("XIGUA_REQUEST_TIMEOUT_S sets the limit; the default leaves a 100 MB body about 15 minutes", () => {
  assert.equal(readConfig({ XIGUA_REQUEST_TIMEOUT_S: "30" }).requestTimeoutMs, 30_000);
  assert.equal(readConfig({}).requestTimeoutMs, 900_000);
  assert.throws(() => readConfig({ XIGUA_REQUEST_TIMEOUT_S: "0" }), /XIGUA_REQUEST_TIMEOUT_S/);
});
