/**
 * Random requests for every operation of the OpenAPI document (iterated from the
 * document, so a new route is fuzzed without editing this file): path ids real
 * and made up, query parameters and JSON bodies drawn from the operation's own
 * schemas, steered towards real ids and column names so requests get past the
 * first check, and re-signed mutations of a real artifact for the import route.
 * Invariant (test/helpers/fuzz-harness.ts): no 5xx, errors are catalogue
 * problems, /health/ready answers within a second.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";
import { FuzzHarness } from "../helpers/fuzz-harness.js";
import { arbitraryFor, boundaryValues, resolveRefs, sampleValid, type JsonSchema } from "../helpers/schema-values.js";

type Operation = {
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
type OpenApi = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, JsonSchema> } };

let t: TestApp;
let fuzz: FuzzHarness;
let doc: OpenApi;
const ids: Record<string, string> = {};
const FEATURES = ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率"];
let artifact: Record<string, unknown>;
let linearModel: string;
let secondEvaluation: string;

before(async () => {
  t = await testApp({ workers: 1 });
  fuzz = new FuzzHarness(t.app);
  doc = (await t.app.inject({ url: "/openapi.json" })).json();
  ids.datasets = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
  const model = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ids.datasets, algorithm: "cart", target: "好瓜", features: FEATURES, seed: 1 } });
  ids.models = model.json().id;
  assert.equal((await waitFor(t.app, `/v1/models/${ids.models}`)).status, "succeeded");
  // A linear model too: overflow in a dot product is where 1e308 cells bite.
  const linear = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ids.datasets, algorithm: "logistic_regression", target: "好瓜", features: FEATURES, seed: 1 } });
  linearModel = linear.json().id;
  assert.equal((await waitFor(t.app, `/v1/models/${linearModel}`)).status, "succeeded");
  const evaluation = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: ids.datasets, algorithm: "cart", target: "好瓜", validation: { method: "kfold", k: 2 } } });
  ids.evaluations = evaluation.json().id;
  await waitFor(t.app, `/v1/evaluations/${ids.evaluations}`);
  const second = await t.app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: ids.datasets, algorithm: "baseline", target: "好瓜", validation: { method: "kfold", k: 2 } } });
  secondEvaluation = second.json().id;
  await waitFor(t.app, `/v1/evaluations/${secondEvaluation}`);
  const search = await t.app.inject({ method: "POST", url: "/v1/searches", payload: { dataset_id: ids.datasets, algorithm: "cart", target: "好瓜", method: "grid", param_grid: { max_depth: [1, 2] }, validation: { method: "kfold", k: 2 } } });
  ids.searches = search.json().id;
  await waitFor(t.app, `/v1/searches/${ids.searches}`);
  artifact = (await t.app.inject({ url: `/v1/models/${ids.models}/artifact` })).json();
});
after(async () => {
  for (const line of fuzz.report()) console.log(`# ${line}`);
  await t.close();
});

const cell = fc.oneof(fc.constantFrom("青绿", "蜷缩", "清晰", "未见过", "", "?", null, true), fc.double(), fc.constantFrom(1e308, -1e308, 5e-324, 0, -0));
const madeUpId = fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom("md_0000000000000000", "ds_zzzzzzzzzzzzzzzz", "x".repeat(64), "__proto__", "%20", "..", "a/b"));

/** The artifact with one field replaced and its checksum recomputed, so the change reaches the state checks. */
function mutatedArtifact(): fc.Arbitrary<unknown> {
  const paths: (string | number)[][] = [];
  const walk = (value: unknown, path: (string | number)[]) => {
    if (paths.length >= 400 || path.length > 8) return;
    if (path.length > 0) paths.push(path);
    if (Array.isArray(value)) value.slice(0, 6).forEach((v, i) => walk(v, [...path, i]));
    else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) if (k !== "sha256") walk(v, [...path, k]);
  };
  walk(artifact, []);
  const replacement = fc.constantFrom(...boundaryValues({ type: "number", minimum: 0 }), ...boundaryValues({ type: "string" }, { wrongTypes: 8 }));
  return fc.tuple(fc.constantFrom(...paths), replacement, fc.boolean()).map(([path, value, resign]) => {
    const copy = structuredClone(artifact);
    let parent = copy as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    parent[path.at(-1)!] = value;
    if (resign) {
      const { sha256: _, ...body } = copy as { sha256: string };
      (copy as { sha256: string }).sha256 = createHash("sha256").update(JSON.stringify(body)).digest("hex");
    }
    return copy;
  });
}

function kindOf(path: string): string {
  return path.split("/")[2] ?? "";
}

function requestArbitrary(path: string, method: string, op: Operation) {
  const realId = kindOf(path) === "models" ? fc.constantFrom(ids.models, linearModel) : fc.constant(ids[kindOf(path)] ?? "none");
  const anyRealId = fc.constantFrom(...Object.values(ids));
  // DELETE never gets a real id: the fixtures must outlive the battery.
  const id = method === "delete" ? fc.oneof(madeUpId, fc.constant("md_0000000000000000")) : fc.oneof({ weight: 3, arbitrary: realId }, anyRealId, madeUpId);
  const queryFields = Object.fromEntries((op.parameters ?? []).filter((p) => p.in === "query").map((p) => [p.name, arbitraryFor(resolveRefs(p.schema ?? {}, doc))]));
  const query = Object.keys(queryFields).length
    ? fc.oneof(fc.constant({}), oneFieldChanged({}, queryFields), fc.record(queryFields, { requiredKeys: [] }))
    : fc.constant({});
  const json = op.requestBody?.content?.["application/json"]?.schema;
  const overrides = {
    dataset_id: fc.constant(ids.datasets),
    model_id: fc.constantFrom(ids.models, linearModel),
    evaluation_ids: fc.subarray([ids.evaluations, secondEvaluation, ids.evaluations]),
    target: fc.constantFrom("好瓜", "密度", "色泽"),
    features: fc.subarray(FEATURES),
    rows: fc.array(fc.dictionary(fc.constantFrom(...FEATURES, "x"), cell, { maxKeys: 8 }), { minLength: 1, maxLength: 4 }),
    algorithm: fc.constantFrom("cart", "baseline", "svm", "mlp", "linear_regression"),
  };
  const body =
    path === "/v1/models/import"
      ? fc.oneof({ weight: 3, arbitrary: mutatedArtifact() }, arbitraryFor(resolveRefs(json ?? {}, doc)))
      : json
        ? bodyArbitrary(resolveRefs(json, doc), validBodies()[path], overrides)
        : fc.constant(undefined);
  return fc.record({ id, query, body });
}

/** `base` with one field given a drawn value: every other field valid, so the drawn one is what gets checked. */
function oneFieldChanged(base: Record<string, unknown>, fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc.constantFrom(...Object.keys(fields)).chain((name) => fields[name].map((value) => ({ ...base, [name]: value })));
}

/**
 * Mostly a valid body (the route's base, else the schema's required fields) with one
 * field changed or removed, the new value drawn from the field's schema or steered;
 * sometimes a wholly random body.
 */
function bodyArbitrary(schema: JsonSchema, base: Record<string, unknown> | undefined, overrides: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const objects = [schema, ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].filter((s) => s.properties);
  if (objects.length === 0) return arbitraryFor(schema, 0, overrides);
  const perturbed = objects.map((object) => {
    const fields = Object.fromEntries(Object.entries(object.properties!).map(([k, s]) => [k, overrides[k] ? fc.oneof(overrides[k], arbitraryFor(s)) : arbitraryFor(s, 1, overrides)]));
    const start = base ?? Object.fromEntries(Object.entries(object.properties!).filter(([k]) => object.required?.includes(k)).map(([k, s]) => [k, sampleValid(s)]));
    const removed = fc.constantFrom(...Object.keys(start).concat("")).map((name) => Object.fromEntries(Object.entries(start).filter(([k]) => k !== name)));
    return fc.oneof({ weight: 4, arbitrary: oneFieldChanged(start, fields) }, { weight: 1, arbitrary: removed });
  });
  return fc.oneof({ weight: 4, arbitrary: fc.oneof(...perturbed) }, { weight: 1, arbitrary: arbitraryFor(schema, 0, overrides) });
}

/** A valid body per route, the starting point of one-field changes (the changes come from the schemas). */
function validBodies(): Record<string, Record<string, unknown>> {
  const train = { dataset_id: ids.datasets, algorithm: "cart", target: "好瓜" };
  return {
    "/v1/datasets": { name: "f", rows: [{ a: 1, b: "x" }, { a: 2, b: "y" }] },
    "/v1/datasets/{id}/feature-scores": { target: "好瓜", method: "info_gain" },
    "/v1/models": train,
    "/v1/models/{id}/predict": { rows: [{ 密度: 0.5, 纹理: "清晰" }] },
    "/v1/evaluations": { ...train, validation: { method: "kfold", k: 2 } },
    "/v1/comparisons": { evaluation_ids: [ids.evaluations, secondEvaluation] },
    "/v1/searches": { ...train, method: "grid", param_grid: { max_depth: [1, 2] }, validation: { method: "kfold", k: 2 } },
  };
}

function queryString(query: Record<string, unknown>): string {
  const parts = Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === "string" ? v : JSON.stringify(v) ?? "")}`);
  return parts.length ? `?${parts.join("&")}` : "";
}

test("every route of the OpenAPI document: random path ids, queries and bodies", async () => {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
  assert.ok(operations.length >= 25, `${operations.length} operations`);
  for (const { path, method, op } of operations) {
    const simple = !op.requestBody && !(op.parameters ?? []).length;
    await fc.assert(
      fc.asyncProperty(requestArbitrary(path, method, op), async ({ id, query, body }) => {
        const url = path.replace("{id}", encodeURIComponent(id)) + queryString(query);
        await fuzz.send({ method: method.toUpperCase(), url, body }, path);
      }),
      { numRuns: simple ? 3 : path === "/v1/models/import" ? 80 : op.requestBody ? 60 : 30, seed: 20 },
    );
  }
});

test("CSV uploads: random text and query parameters", async () => {
  const csvChar = fc.constantFrom("a", "1", ",", '"', "\n", "\r\n", " ", "-", "?", "色", ".", "e", "1e400", "\u0000", "\ufeff");
  const query = fc.record({ name: fc.string({ maxLength: 5 }), column_types: fc.constantFrom("a:numeric", "__proto__:numeric", "a:x", ":", "a:categorical,a:numeric"), missing_values: fc.constantFrom("", "?", "a,b") }, { requiredKeys: [] });
  await fc.assert(
    fc.asyncProperty(fc.array(csvChar, { maxLength: 60 }).map((cs) => cs.join("")), query, async (csv, q) => {
      await fuzz.send({ method: "POST", url: `/v1/datasets${queryString({ name: "f", ...q })}`, raw: csv, contentType: "text/csv" }, "/v1/datasets");
    }),
    { numRuns: 60, seed: 21 },
  );
});

test("every route with a body: random content types, encodings and compressed or mislabelled bytes", async () => {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).filter(([, op]) => op.requestBody).map(([method]) => ({ path, method })));
  const encoders: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, br: brotliCompressSync, deflate: deflateSync, identity: (b) => b };
  const request = fc.record({
    operation: fc.constantFrom(...operations),
    contentType: fc.constantFrom("application/json", "application/json; charset=utf-8", "application/json; charset=latin1", "text/csv", "text/plain", "application/octet-stream", "application/x-www-form-urlencoded", "", "*/*", "application/problem+json"),
    declared: fc.constantFrom("gzip", "br", "deflate", "identity", "gzip, gzip", "x-unknown", "GZIP", ""),
    applied: fc.constantFrom("gzip", "br", "deflate", "identity"),
    truncate: fc.boolean(),
  });
  await fc.assert(
    fc.asyncProperty(request, async ({ operation, contentType, declared, applied, truncate }) => {
      const base = validBodies()[operation.path] ?? {};
      let bytes = encoders[applied](Buffer.from(JSON.stringify(base)));
      if (truncate) bytes = bytes.subarray(0, Math.floor(bytes.length / 2));
      const url = operation.path.replace("{id}", ids[kindOf(operation.path)] ?? "none");
      const headers = declared ? { "content-encoding": declared } : undefined;
      await fuzz.send({ method: operation.method.toUpperCase(), url, raw: bytes, contentType, headers }, operation.path);
    }),
    { numRuns: 120, seed: 22 },
  );
});
