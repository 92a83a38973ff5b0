/**
 * Issue 10 items 21 and 24 over HTTP: bounded dataset objects with column paging;
 * the same mistake gets the same status and code from a JSON and a CSV upload.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { InjectOptions } from "fastify";
import { testApp, uploadCsv, type TestApp } from "../helpers/app.js";

let t: TestApp;
before(async () => (t = await testApp()));
after(() => t.close());

const json = (body: unknown): InjectOptions => ({ method: "POST", url: "/v1/datasets", headers: { "content-type": "application/json" }, payload: typeof body === "string" ? body : JSON.stringify(body) });
const csv = (text: string, query = ""): InjectOptions => ({ method: "POST", url: `/v1/datasets?name=x${query}`, headers: { "content-type": "text/csv" }, payload: text });

async function problem(request: InjectOptions): Promise<{ status: number; code: string; paths: string[] }> {
  const res = await t.app.inject(request);
  assert.match(String(res.headers["content-type"]), /application\/problem\+json/, res.body);
  const body = res.json();
  assert.equal(body.status, res.statusCode);
  return { status: res.statusCode, code: body.code, paths: (body.errors ?? []).map((e: { path: string }) => e.path) };
}

describe("uploads: one answer per mistake, whatever the content type", () => {
  test("rows with no keys → 422, nothing stored", async () => {
    const p = await problem(json({ name: "x", rows: [{}, {}] }));
    assert.deepEqual([p.status, p.code], [422, "invalid_data"]);
    const list = (await t.app.inject({ url: "/v1/datasets" })).json();
    assert.equal(list.items.length, 0);
  });

  const pairs: [string, InjectOptions, InjectOptions, number, string][] = [
    ["column_types naming no column", json({ name: "x", rows: [{ a: 1 }], column_types: { b: "numeric" } }), csv("a\n1\n", "&column_types=b:numeric"), 422, "invalid_data"],
    ["column_types naming __proto__", json('{"name":"x","rows":[{"a":1}],"column_types":{"__proto__":"numeric"}}'), csv("a\n1\n", "&column_types=__proto__:numeric"), 400, "malformed_request"],
    ["column_types naming __proto__ (JSON object in the query)", json('{"name":"x","rows":[{"a":1}],"column_types":{"__proto__":"numeric"}}'), csv("a\n1\n", `&column_types=${encodeURIComponent('{"__proto__":"numeric"}')}`), 400, "malformed_request"],
    ["a __proto__ column", json('{"name":"x","rows":[{"__proto__":1}]}'), csv("__proto__\n1\n"), 400, "malformed_request"],
    ["a constructor column", json({ name: "x", rows: [{ constructor: 1 }] }), csv("constructor\n1\n"), 422, "invalid_data"],
    ["forcing numeric on text", json({ name: "x", rows: [{ a: "z" }], column_types: { a: "numeric" } }), csv("a\nz\n", "&column_types=a:numeric"), 422, "invalid_data"],
  ];
  for (const [mistake, asJson, asCsv, status, code] of pairs) {
    test(`${mistake} → ${status} ${code} for JSON and CSV`, async () => {
      const a = await problem(asJson);
      const b = await problem(asCsv);
      assert.deepEqual([a.status, a.code], [status, code], `JSON: ${JSON.stringify(a)}`);
      assert.deepEqual([b.status, b.code], [status, code], `CSV: ${JSON.stringify(b)}`);
    });
  }
});

describe("dataset objects are bounded; columns are paged", () => {
  test("a 250-column dataset: list and GET carry 100 columns and column_count; /columns pages the rest", async () => {
    const width = 250;
    const header = Array.from({ length: width }, (_, j) => `c${j}`).join(",");
    const row = Array.from({ length: width }, (_, j) => String(j)).join(",");
    const created = await uploadCsv(t.app, "wide", `${header}\n${row}\n${row}\n`);
    assert.equal(created.column_count, width);
    assert.equal((created.columns as unknown[]).length, 100);
    const got = (await t.app.inject({ url: `/v1/datasets/${created.id}` })).json();
    assert.deepEqual(got, created);
    const listed = (await t.app.inject({ url: "/v1/datasets" })).json().items.find((d: { id: string }) => d.id === created.id);
    assert.deepEqual(listed, created);
    const page = (await t.app.inject({ url: `/v1/datasets/${created.id}/columns?offset=100&limit=200` })).json();
    assert.equal(page.total, width);
    assert.deepEqual(page.items.map((c: { name: string }) => c.name), Array.from({ length: 150 }, (_, j) => `c${100 + j}`));
    assert.equal(page.items[0].summary.min, 100);
    const first = (await t.app.inject({ url: `/v1/datasets/${created.id}/columns` })).json();
    assert.deepEqual(first.items, created.columns);
    assert.equal((await t.app.inject({ url: `/v1/datasets/${created.id}/columns?limit=1001` })).statusCode, 400);
    assert.equal((await t.app.inject({ url: "/v1/datasets/ds_nope/columns" })).statusCode, 404);
  });
});

describe("levels are bounded in summaries and paged", () => {
  test("a column of 250 levels: the summary carries 100 and level_count; /levels pages the rest", async () => {
    const names = Array.from({ length: 250 }, (_, i) => `id${String(i).padStart(3, "0")}`);
    const ds = await uploadCsv(t.app, "ids", "id,x\n" + names.map((n, i) => `${n},${i}`).join("\n") + "\n");
    const [id, x] = ds.columns as { levels?: string[]; level_count?: number }[];
    assert.deepEqual(id.levels, names.slice(0, 100));
    assert.equal(id.level_count, 250);
    assert.equal(x.levels, undefined);
    const page = (await t.app.inject({ url: `/v1/datasets/${ds.id}/levels?column=id&offset=100&limit=1000` })).json();
    assert.deepEqual(page, { items: names.slice(100), total: 250 });
    assert.deepEqual((await t.app.inject({ url: `/v1/datasets/${ds.id}/levels?column=x` })).json(), { items: [], total: 0 });
    const unknown = await t.app.inject({ url: `/v1/datasets/${ds.id}/levels?column=nope` });
    assert.deepEqual([unknown.statusCode, unknown.json().code], [422, "unknown_column"]);
    assert.equal((await t.app.inject({ url: "/v1/datasets/ds_nope/levels?column=id" })).statusCode, 404);
    assert.equal((await t.app.inject({ url: `/v1/datasets/${ds.id}/levels?column=id&limit=1001` })).statusCode, 400);
  });
});

describe("rows paging across stored chunks (8192 rows each)", () => {
  test("pages that straddle a chunk boundary equal the rows uploaded, missing values and categories included", async () => {
    const rows = 20_000;
    const cell = (i: number) => ({ n: i % 11 === 0 ? null : i / 4, c: i % 13 === 0 ? null : ["low", "mid", "high"][i % 3] });
    const lines = ["n,c", ...Array.from({ length: rows }, (_, i) => {
      const r = cell(i);
      return `${r.n ?? ""},${r.c ?? "NA"}`;
    })];
    const ds = await uploadCsv(t.app, "long", lines.join("\n") + "\n");
    for (const [offset, limit] of [[8190, 5], [16380, 10], [0, 3], [19_998, 50], [20_000, 10]]) {
      const page = (await t.app.inject({ url: `/v1/datasets/${ds.id}/rows?offset=${offset}&limit=${limit}` })).json();
      assert.equal(page.total, rows);
      const expected = Array.from({ length: Math.max(0, Math.min(limit, rows - offset)) }, (_, k) => cell(offset + k));
      assert.deepEqual(page.items, expected, `offset ${offset}`);
    }
  });
});
