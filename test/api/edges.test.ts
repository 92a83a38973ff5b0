/**
 * Errors raised below the routes answer problem+json with a catalogue code:
 * URLs the router cannot decode, over-long path parameters, wrong methods,
 * bodies nested too deeply, and (over a real socket) HTTP messages node's
 * parser refuses. Also the synchronous checks of a train request's data.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { isErrorCode } from "../../src/server/errors.js";
import { MAX_BODY_DEPTH } from "../../src/server/plugins/body-depth.js";
import { fixture, testApp, uploadCsv, type TestApp } from "../helpers/app.js";

let t: TestApp;
let port: number;
let wm3: string;
before(async () => {
  t = await testApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
  wm3 = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
});
after(() => t.close());

function assertProblem(status: number, contentType: string | undefined, body: string, expected: { status: number; code: string }) {
  assert.equal(status, expected.status, body);
  assert.match(contentType ?? "", /^application\/problem\+json/, body);
  const problem = JSON.parse(body);
  assert.equal(problem.status, expected.status);
  assert.equal(problem.code, expected.code);
  assert.ok(isErrorCode(problem.code));
  assert.equal(problem.type, `urn:xigua:problem:${expected.code}`);
  return problem;
}

test("a path that does not percent-decode is a 400 problem", async () => {
  for (const url of ["/v1/models/%ff", "/v1/datasets/%ff/rows", "/v1/models/%E0%A4%A"]) {
    const res = await t.app.inject({ url });
    assertProblem(res.statusCode, res.headers["content-type"] as string, res.body, { status: 400, code: "malformed_request" });
    assert.ok(res.headers["x-request-id"], "request id on framework errors too");
  }
});

test("a path parameter past the router's limit is a 414 problem", async () => {
  const res = await t.app.inject({ url: `/v1/models/${"a".repeat(101)}` });
  assertProblem(res.statusCode, res.headers["content-type"] as string, res.body, { status: 414, code: "uri_too_long" });
});

test("a wrong method on a known path is a 405 problem with Allow; an unknown path a 404", async () => {
  const wrong = await t.app.inject({ method: "PUT", url: "/v1/models/md_x" });
  assertProblem(wrong.statusCode, wrong.headers["content-type"] as string, wrong.body, { status: 405, code: "method_not_allowed" });
  assert.deepEqual((wrong.headers.allow as string).split(", ").sort(), ["DELETE", "GET", "HEAD"]);
  const unknown = await t.app.inject({ method: "PUT", url: "/v1/nothing/here" });
  assertProblem(unknown.statusCode, unknown.headers["content-type"] as string, unknown.body, { status: 404, code: "route_not_found" });
});

test(`a body nested more than ${MAX_BODY_DEPTH} levels is a 422 naming where, whatever the route`, async () => {
  const deep = (n: number) => "[".repeat(n) + "1" + "]".repeat(n);
  const bodies: [string, string, string][] = [
    ["/v1/searches", `{"dataset_id":"${wm3}","algorithm":"cart","target":"好瓜","method":"grid","param_grid":{"max_depth":[${deep(5000)}]}}`, "param_grid.max_depth[0][0]"],
    ["/v1/models", `{"dataset_id":"${wm3}","algorithm":"cart","target":"好瓜","params":{"max_depth":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}}`, "params.max_depth.a"],
    ["/v1/models/import", deep(100_000), "[0][0]"],
    ["/v1/datasets", `{"name":"x","rows":[{"a":${deep(MAX_BODY_DEPTH)}}]}`, "rows[0].a[0]"],
  ];
  for (const [url, payload, pathStart] of bodies) {
    const res = await t.app.inject({ method: "POST", url, payload, headers: { "content-type": "application/json" } });
    const problem = assertProblem(res.statusCode, res.headers["content-type"] as string, res.body, { status: 422, code: "nesting_too_deep" });
    assert.ok(problem.errors[0].path.startsWith(pathStart), `${url}: ${problem.errors[0].path}`);
  }
  // At the limit itself the body goes on to ordinary validation.
  const atLimit = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: wm3, algorithm: "cart", target: "好瓜", params: { max_depth: JSON.parse(deep(MAX_BODY_DEPTH - 3)) } } });
  assertProblem(atLimit.statusCode, atLimit.headers["content-type"] as string, atLimit.body, { status: 422, code: "invalid_params" });
});

/** Sends raw bytes on a fresh connection and returns everything the server writes before closing. */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.end(bytes);
  });
}

function parseResponse(text: string): { status: number; contentType: string | undefined; body: string } {
  const [head, ...rest] = text.split("\r\n\r\n");
  const lines = head.split("\r\n");
  const header = lines.find((l) => l.toLowerCase().startsWith("content-type:"));
  return { status: Number(lines[0].split(" ")[1]), contentType: header?.slice(header.indexOf(":") + 1).trim(), body: rest.join("\r\n\r\n") };
}

test("a 100 KB URL over a real socket is a 431 problem", async () => {
  const r = parseResponse(await raw(`GET /v1/datasets?x=${"a".repeat(100_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
  assertProblem(r.status, r.contentType, r.body, { status: 431, code: "headers_too_large" });
});

test("malformed HTTP over a real socket is a 400 problem", async () => {
  for (const bytes of ["NOT HTTP AT ALL\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n", "POST /v1/datasets HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nzzzzz"]) {
    const r = parseResponse(await raw(bytes));
    assertProblem(r.status, r.contentType, r.body, { status: 400, code: "malformed_request" });
  }
  // The server is still serving.
  assert.equal((await fetch(`http://127.0.0.1:${port}/health/ready`)).status, 200);
});

test("a request whose headers never finish is a 408 problem", async () => {
  // The service's own timeouts are minutes long; a bare server with the same handler and short ones shows the answer.
  const Fastify = (await import("fastify")).default;
  const { createServer } = await import("node:http");
  const { clientErrorHandler } = await import("../../src/server/plugins/errors.js");
  const app = Fastify({ clientErrorHandler, serverFactory: (handler) => createServer({ requestTimeout: 300, headersTimeout: 200, connectionsCheckingInterval: 50 }, handler) });
  app.get("/", async () => "ok");
  await app.listen({ port: 0, host: "127.0.0.1" });
  try {
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect((app.server.address() as AddressInfo).port, "127.0.0.1");
      const chunks: Buffer[] = [];
      socket.on("data", (c) => chunks.push(c));
      socket.on("error", reject);
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
      socket.write("GET / HTTP/1.1\r\nHost: x\r\n");
    });
    const r = parseResponse(text);
    assertProblem(r.status, r.contentType, r.body, { status: 408, code: "request_timeout" });
  } finally {
    await app.close();
  }
});

test("an all-missing target is refused at once, not as a failed job", async () => {
  const csv = "x,y,c\n1,,a\n2,,b\n3,,a\n4,,b\n";
  const ds = (await uploadCsv(t.app, "no-target", csv, "&column_types=c:categorical")).id;
  for (const target of ["y"]) {
    const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds, algorithm: "linear_regression", target, features: ["x"] } });
    const problem = assertProblem(res.statusCode, res.headers["content-type"] as string, res.body, { status: 422, code: "target_all_missing" });
    assert.equal(problem.errors[0].path, "target");
    const evaluation = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: ds, algorithm: "linear_regression", target, features: ["x"], validation: { method: "kfold", k: 2 } } });
    assertProblem(evaluation.statusCode, evaluation.headers["content-type"] as string, evaluation.body, { status: 422, code: "target_all_missing" });
  }
});

test("k above the labelled rows, or one labelled row to split, is refused at once", async () => {
  const csv = "x,y\n1,1\n2,2\n3,3\n4,\n5,\n6,\n";
  const ds = (await uploadCsv(t.app, "few-labels", csv)).id;
  const train = (validation: object) => t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds, algorithm: "linear_regression", target: "y", validation } });
  const tooMany = await train({ method: "kfold", k: 4 });
  const problem = assertProblem(tooMany.statusCode, tooMany.headers["content-type"] as string, tooMany.body, { status: 422, code: "invalid_validation" });
  assert.equal(problem.errors[0].path, "validation.k");
  assert.match(problem.detail, /3 labelled rows/);
  const ok = await train({ method: "kfold", k: 3 });
  assert.equal(ok.statusCode, 202, ok.body);

  const single = (await uploadCsv(t.app, "one-label", "x,y\n1,1\n2,\n3,\n")).id;
  const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: single, algorithm: "linear_regression", target: "y", validation: { method: "holdout", test_size: 0.5 } } });
  assertProblem(res.statusCode, res.headers["content-type"] as string, res.body, { status: 422, code: "invalid_validation" });
});
