import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { InjectOptions } from "fastify";
import { fixture, countRows, testApp, uploadCsv, type TestApp } from "../helpers/app.js";

let t: TestApp;
before(async () => (t = await testApp()));
after(() => t.close());

const datasetCount = async () => {
  return await countRows(t, "SELECT (SELECT count(*) FROM datasets) + (SELECT count(*) FROM dataset_columns) AS n");
};

async function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; json(): Record<string, unknown> }, status: number, path?: string) {
  assert.equal(res.statusCode, status, JSON.stringify(res.json()));
  assert.match(String(res.headers["content-type"]), /application\/problem\+json/);
  const body = res.json();
  assert.equal(body.status, status);
  assert.equal(typeof body.title, "string");
  assert.equal(typeof body.type, "string");
  if (path) assert.ok((body.errors as { path: string }[]).some((e) => e.path === path), `errors name ${path}: ${JSON.stringify(body.errors)}`);
  return body;
}

describe("POST /v1/datasets", () => {
  test("CSV: watermelon 3.0 with types, levels, summaries and a Location", async () => {
    const res = await t.app.inject({ method: "POST", url: "/v1/datasets?name=wm3", headers: { "content-type": "text/csv" }, payload: fixture("watermelon-3.0.csv") });
    assert.equal(res.statusCode, 201, res.body);
    const ds = res.json();
    assert.equal(res.headers.location, `/v1/datasets/${ds.id}`);
    assert.equal(ds.row_count, 17);
    const byName = Object.fromEntries(ds.columns.map((c: { name: string }) => [c.name, c]));
    assert.equal(byName["色泽"].type, "categorical");
    assert.deepEqual(byName["好瓜"].levels, ["否", "是"]);
    assert.equal(byName["密度"].type, "numeric");
    assert.equal(byName["密度"].summary.min, 0.243);
    assert.equal(byName["密度"].summary.max, 0.774);
  });

  test("CSV: BOM, CRLF, quoted fields and the default missing markers", async () => {
    const csv = "\ufeffname,\"note, quoted\",x\r\na,\"he said \"\"hi\"\"\",1\r\nb,?,NA\r\nc,-,3\r\n";
    const ds = await uploadCsv(t.app, "quoted", csv);
    const cols = ds.columns as { name: string; type: string; missing_count: number }[];
    assert.deepEqual(cols.map((c) => c.name), ["name", "note, quoted", "x"]);
    assert.equal(cols[1].missing_count, 2);
    assert.equal(cols[2].type, "numeric");
    assert.equal(cols[2].missing_count, 1);
    const rows = await t.app.inject({ url: `/v1/datasets/${ds.id}/rows` });
    assert.deepEqual(rows.json().items[0], { name: "a", "note, quoted": 'he said "hi"', x: 1 });
  });

  test("CSV: column_types and missing_values as query parameters", async () => {
    const ds = await uploadCsv(t.app, "typed", "code,flag\n1,yes\n2,none\n1,no\n", `&column_types=${encodeURIComponent('{"code":"categorical"}')}&missing_values=none`);
    const cols = ds.columns as { name: string; type: string; levels?: string[]; missing_count: number }[];
    assert.equal(cols[0].type, "categorical");
    assert.deepEqual(cols[0].levels, ["1", "2"]);
    assert.equal(cols[1].missing_count, 1);
  });

  test("JSON rows: inference, absent keys as missing, column_types override", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/datasets",
      payload: { name: "json", rows: [{ a: 1, b: "x", c: true }, { a: 2.5, b: null }, { a: "3", b: "y", c: false }], column_types: { a: "categorical" } },
    });
    assert.equal(res.statusCode, 201, res.body);
    const cols = res.json().columns;
    assert.equal(cols[0].type, "categorical");
    assert.deepEqual(cols[2].levels, ["false", "true"]);
    assert.equal(cols[2].missing_count, 1);
    assert.equal(cols[1].missing_count, 1);
  });

  const bad: [string, InjectOptions, number, string?][] = [
    ["malformed JSON", { method: "POST", url: "/v1/datasets", headers: { "content-type": "application/json" }, payload: "{nope" }, 400],
    ["wrong content type", { method: "POST", url: "/v1/datasets", headers: { "content-type": "text/plain" }, payload: "a,b" }, 415],
    ["rows not an array", { method: "POST", url: "/v1/datasets", payload: { name: "x", rows: { a: 1 } } }, 400, "rows"],
    ["rows empty", { method: "POST", url: "/v1/datasets", payload: { name: "x", rows: [] } }, 400, "rows"],
    ["missing name", { method: "POST", url: "/v1/datasets", payload: { rows: [{ a: 1 }] } }, 400, "name"],
    ["nested value", { method: "POST", url: "/v1/datasets", payload: { name: "x", rows: [{ a: 1 }, { a: { b: 2 } }] } }, 400, "rows[1].a"],
    ["__proto__ key", { method: "POST", url: "/v1/datasets", headers: { "content-type": "application/json" }, payload: '{"name":"x","rows":[{"__proto__":{"a":1}}]}' }, 400],
    ["unknown field", { method: "POST", url: "/v1/datasets", payload: { name: "x", rows: [{ a: 1 }], extra: 1 } }, 400],
    ["empty CSV", { method: "POST", url: "/v1/datasets?name=x", headers: { "content-type": "text/csv" }, payload: "" }, 400],
    ["ragged CSV", { method: "POST", url: "/v1/datasets?name=x", headers: { "content-type": "text/csv" }, payload: "a,b\n1,2\n3\n" }, 400],
    ["duplicate CSV header", { method: "POST", url: "/v1/datasets?name=x", headers: { "content-type": "text/csv" }, payload: "a,a\n1,2\n" }, 400],
    ["CSV without name", { method: "POST", url: "/v1/datasets", headers: { "content-type": "text/csv" }, payload: "a\n1\n" }, 400, "query.name"],
    ["column_types naming no column", { method: "POST", url: "/v1/datasets", payload: { name: "x", rows: [{ a: 1 }], column_types: { b: "numeric" } } }, 422],
    ["forcing numeric on text", { method: "POST", url: "/v1/datasets", payload: { name: "x", rows: [{ a: "z" }], column_types: { a: "numeric" } } }, 422],
  ];
  for (const [name, request, status, path] of bad) {
    test(`${name} → ${status}, nothing stored`, async () => {
      const before = await datasetCount();
      const res = await t.app.inject(request);
      await expectProblem(res, status, path);
      assert.equal(await datasetCount(), before);
      assert.equal((await t.app.inject({ url: "/health/ready" })).statusCode, 200);
    });
  }

  test("a body over the limit → 413; a table over the cell cap → 413", async () => {
    const small = await testApp({ bodyLimitBytes: 1024, maxCells: 10 });
    try {
      const big = "a,b\n" + "1,2\n".repeat(600);
      await expectProblem(await small.app.inject({ method: "POST", url: "/v1/datasets?name=big", headers: { "content-type": "text/csv" }, payload: big }), 413);
      const wide = "a,b,c\n" + "1,2,3\n".repeat(5);
      await expectProblem(await small.app.inject({ method: "POST", url: "/v1/datasets?name=wide", headers: { "content-type": "text/csv" }, payload: wide }), 413);
      const json = { name: "w", rows: Array.from({ length: 6 }, (_, i) => ({ a: i, b: i })) };
      await expectProblem(await small.app.inject({ method: "POST", url: "/v1/datasets", payload: json }), 413);
    } finally {
      await small.close();
    }
  });
});

describe("reading and deleting datasets", () => {
  test("list pages newest first with an opaque cursor", async () => {
    const local = await testApp();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await uploadCsv(local.app, `d${i}`, "a\n1\n")).id);
      const first = (await local.app.inject({ url: "/v1/datasets?limit=2" })).json();
      assert.deepEqual(first.items.map((d: { id: string }) => d.id), [ids[4], ids[3]]);
      assert.equal(typeof first.next_cursor, "string");
      const second = (await local.app.inject({ url: `/v1/datasets?limit=2&cursor=${first.next_cursor}` })).json();
      assert.deepEqual(second.items.map((d: { id: string }) => d.id), [ids[2], ids[1]]);
      const third = (await local.app.inject({ url: `/v1/datasets?limit=2&cursor=${second.next_cursor}` })).json();
      assert.deepEqual(third.items.map((d: { id: string }) => d.id), [ids[0]]);
      assert.equal(third.next_cursor, null);
      await expectProblem(await local.app.inject({ url: "/v1/datasets?limit=-1" }), 400, "query.limit");
      await expectProblem(await local.app.inject({ url: "/v1/datasets?limit=501" }), 400, "query.limit");
      await expectProblem(await local.app.inject({ url: "/v1/datasets?cursor=garbage" }), 400, "query.cursor");
    } finally {
      await local.close();
    }
  });

  test("GET one, rows paging, DELETE, and 404s", async () => {
    const ds = await uploadCsv(t.app, "wm2a", fixture("watermelon-2.0-alpha.csv"));
    const got = await t.app.inject({ url: `/v1/datasets/${ds.id}` });
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), ds);
    const rows = (await t.app.inject({ url: `/v1/datasets/${ds.id}/rows?offset=15&limit=10` })).json();
    assert.equal(rows.total, 17);
    assert.equal(rows.items.length, 2);
    assert.equal(rows.items[0]["编号"], 16);
    const first = (await t.app.inject({ url: `/v1/datasets/${ds.id}/rows?limit=1` })).json();
    assert.equal(first.items[0]["色泽"], null, "'-' is read as missing");
    assert.equal((await t.app.inject({ method: "DELETE", url: `/v1/datasets/${ds.id}` })).statusCode, 204);
    await expectProblem(await t.app.inject({ url: `/v1/datasets/${ds.id}` }), 404);
    await expectProblem(await t.app.inject({ url: `/v1/datasets/${ds.id}/rows` }), 404);
    await expectProblem(await t.app.inject({ method: "DELETE", url: `/v1/datasets/${ds.id}` }), 404);
  });
});
