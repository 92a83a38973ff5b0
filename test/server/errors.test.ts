/**
 * One error catalogue, checked both ways (as fastify's test/internals/errors.test.js
 * does for its codes): every code the source raises has a catalogue entry, every
 * entry is raised somewhere, and the OpenAPI document lists exactly the catalogue.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isErrorCode, PROBLEM_TYPES, problemFor, type ErrorCode } from "../../src/server/errors.js";
import { generateOpenApi } from "../../scripts/openapi-document.js";
import { testApp } from "../helpers/app.js";

const SRC = new URL("../../src/", import.meta.url).pathname;

/** Catalogue entries raised in a way the scan below does not recognise, each with where. */
const RAISED_ELSEWHERE: Partial<Record<ErrorCode, string>> = {
  dataset_deleted: "raised by error class through CLIENT_ERRORS in src/training/job-failure.ts (DatasetDeletedError)",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** The arguments of the call whose "(" is at `open`, split at top-level commas; strings, templates and brackets respected. */
function callArguments(text: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === "\\") i++;
      continue;
    }
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      depth--;
      if (depth === 0) {
        args.push(text.slice(start, i).trim());
        return args;
      }
    } else if (c === "," && depth === 1) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return args;
}

/** Where a code reaches a client: the callee and which argument holds the code. */
const RAISERS: { callee: RegExp; argument: number | "last" }[] = [
  { callee: /new ApiError\(/g, argument: 0 },
  { callee: /new SpecError\(/g, argument: 2 },
  { callee: /\bproblemFor\(/g, argument: 0 },
  { callee: /\bsend\(reply, request, /g, argument: 3 },
  { callee: /\bproblem\(/g, argument: 2 },
  { callee: /\bjobProblem\(/g, argument: 0 },
];

function raisedCodes(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (code: string, where: string) => found.set(code, [...(found.get(code) ?? []), where]);
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    const where = file.slice(SRC.length);
    for (const { callee, argument } of RAISERS) {
      for (const m of text.matchAll(callee)) {
        const args = callArguments(text, m.index + m[0].indexOf("("));
        const arg = argument === "last" ? args.at(-1) : args[argument];
        const literal = arg && /^"([a-z_]+)"$/.exec(arg);
        if (literal) add(literal[1], where);
      }
    }
    for (const m of text.matchAll(/urn:xigua:problem:([a-z_]+)/g)) add(m[1], where);
    // Problem-shaped objects ({ code: "x", status }, job problems); "custom" is zod's issue code, not ours.
    for (const m of text.matchAll(/\bcode:\s*"([a-z_]+)"/g)) if (m[1] !== "custom") add(m[1], where);
  }
  return found;
}

test("every code the source raises is in the catalogue", () => {
  const raised = raisedCodes();
  assert.ok(raised.size >= 30, `the scan found only ${raised.size} codes: has a raising form changed? (${[...raised.keys()].join(", ")})`);
  for (const [code, files] of raised) assert.ok(isErrorCode(code), `"${code}" (raised in ${files.join(", ")}) has no catalogue entry in src/server/errors.ts`);
});

test("every catalogue entry is raised somewhere (or listed with the slice that raises it)", () => {
  const raised = raisedCodes();
  for (const { code } of PROBLEM_TYPES) {
    if (RAISED_ELSEWHERE[code]) {
      assert.ok(!raised.has(code), `"${code}" is raised now: remove it from RAISED_ELSEWHERE`);
      continue;
    }
    assert.ok(raised.has(code), `catalogue entry "${code}" is never raised: remove it or raise it`);
  }
});

test("catalogue entries are well-formed", () => {
  for (const p of PROBLEM_TYPES) {
    assert.match(p.code, /^[a-z]+(_[a-z]+)*$/);
    assert.equal(p.type, `urn:xigua:problem:${p.code}`);
    assert.ok(p.status >= 400 && p.status <= 599, `${p.code}: status ${p.status}`);
    assert.ok(p.title.length > 0 && p.title.length < 60, `${p.code}: title`);
  }
  assert.equal(problemFor("not_found", 404).title, "Not found");
  assert.equal(isErrorCode("constructor"), false, "inherited keys are not codes");
});

test("the OpenAPI document lists exactly the catalogue's problem types", async () => {
  const doc = JSON.parse(await generateOpenApi());
  const problem = doc.components.schemas.Problem;
  const codes = PROBLEM_TYPES.map((p) => p.code);
  assert.deepEqual([...problem.properties.code.enum].sort(), [...codes].sort());
  assert.deepEqual(problem["x-problem-types"], PROBLEM_TYPES.map((p) => ({ ...p })));
  for (const p of PROBLEM_TYPES) assert.ok(problem.description.includes(`| \`${p.code}\` | ${p.status} | ${p.title} |`), `${p.code} in the description table`);
  // Every documented error response refers to that one component (OipError under /v2).
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> }>>)) {
    for (const [method, op] of Object.entries(methods)) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (Number(status) < 400) continue;
        const schemas = Object.values(response.content ?? {}).map((c) => c.schema?.$ref);
        // The Open Inference Protocol's routes answer its own { error } object, as that protocol says.
        const expected = path.startsWith("/v2") ? "#/components/schemas/OipError" : "#/components/schemas/Problem";
        assert.ok(schemas.length > 0 && schemas.every((ref) => ref === expected), `${method} ${path} ${status} is a ${expected}`);
      }
    }
  }
});

test("an internal failure answers a generic 500; the detail goes only to the log", async () => {
  const lines: string[] = [];
  const { buildApp } = await import("../../src/server/app.js");
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const dir = mkdtempSync(join(tmpdir(), "xigua-errors-"));
  const app = await buildApp({ config: { dbPath: join(dir, "x.db"), workers: 1 }, logger: { level: "error", stream: { write: (line: string) => lines.push(line) } } });
  try {
    app.get("/boom", async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'secret_internal_field')");
    });
    const res = await app.inject({ url: "/boom" });
    assert.equal(res.statusCode, 500);
    assert.match(res.headers["content-type"] as string, /application\/problem\+json/);
    const body = res.json();
    assert.equal(body.code, "internal");
    assert.ok(!res.body.includes("secret_internal_field") && !res.body.includes("TypeError"), res.body);
    assert.equal(body.detail, "an internal error occurred; the request id is in the x-request-id header");
    const logged = lines.join("");
    assert.ok(logged.includes("secret_internal_field"), "the detail is logged");
    assert.ok(logged.includes(res.headers["x-request-id"] as string), "the log line carries the request id the client sees");
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a test app answers route errors with catalogue codes only", async () => {
  const t = await testApp();
  try {
    for (const url of ["/v1/nothing", "/v1/models/nope", "/v1/datasets?limit=0"]) {
      const body = (await t.app.inject({ url })).json();
      assert.ok(isErrorCode(body.code), `${url}: ${body.code}`);
    }
  } finally {
    await t.close();
  }
});
