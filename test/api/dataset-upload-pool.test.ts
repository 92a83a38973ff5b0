/**
 * Uploads over 256 KiB are read and stored on the compute pool (a 100 MB CSV held
 * the request thread ≈ 3 s): the dataset is the one the request thread's own path
 * makes, mistakes get the same answers, and the server answers while one is ingested.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { InjectOptions } from "fastify";
import { readCsvUpload, storeDataset } from "../../src/server/compute/ingest-dataset.js";
import { readJsonUpload } from "../../src/server/compute/ingest-json.js";
import { datasetToWire } from "../../src/server/routes/datasets.js";
import pg from "pg";
import type { DatasetSummary } from "../../src/store/datasets.js";
import { openStore, type DatasetStore, type Store } from "../../src/store/store.js";
import { TEST_DATABASE_URL, testApp, type TestApp } from "../helpers/app.js";

const INLINE_BYTES = 256 * 1024;

let t: TestApp;
let reference: Store;
before(async () => {
  t = await testApp();
  // The request thread's path (read, summarise, insert), run here on a database of its own.
  reference = await openStore({ kind: "sqlite", path: join(t.dir, "reference.db") });
});
after(async () => {
  await reference.close();
  await t.close();
});

/** Numbers with missing cells, quoted categories with commas, a column that turns categorical late, and more levels than a level chunk. */
function table(rows: number): { header: string[]; cells: (string | number | null)[][] } {
  const cells = Array.from({ length: rows }, (_, i) => [
    i % 17 === 0 ? null : (i * 7919) % 1000 / 8,
    `kind ${i % 37}, ${i % 3 === 0 ? "red" : "green"}`,
    i < rows - 10 ? i % 5 : `late ${i % 4}`,
    `id-${i}`,
    i % 9,
  ]);
  return { header: ["x", "kind", "late", "id", "code"], cells };
}

function asCsv({ header, cells }: ReturnType<typeof table>): Buffer {
  const field = (v: string | number | null) => (v === null ? "NA" : typeof v === "string" && v.includes(",") ? `"${v}"` : String(v));
  return Buffer.from(`${header.join(",")}\n${cells.map((row) => row.map(field).join(",")).join("\n")}\n`);
}

function asRows({ header, cells }: ReturnType<typeof table>): Record<string, string | number | null>[] {
  return cells.map((row) => Object.fromEntries(header.map((name, j) => [name, row[j]])));
}

/** The stored dataset as everything a client or a fit can read of it, ids and times aside. */
async function contents(datasets: DatasetStore, summary: DatasetSummary) {
  const { id, created_at, ...wire } = datasetToWire(summary);
  assert.ok(id && created_at);
  return { wire, columns: (await datasets.get(summary.id))!.columns, frame: await datasets.loadFrame(summary.id), page: await datasets.loadRows(summary.id, 1000, 500) };
}

/** The app's stored dataset, read through the request thread's store (the pool's thread wrote it). */
const appDatasets = () => t.app.services.store.datasets;

const big = table(60_000);

/**
 * Holds off every dataset insert from another connection: SQLite's write lock, or under
 * PostgreSQL an EXCLUSIVE lock on `datasets` (inserts wait, reads do not). Released by the returned function.
 */
async function blockDatasetWrites(): Promise<() => Promise<void>> {
  if (t.schema === null) {
    const blocker = new Database(t.dbPath);
    blocker.exec("BEGIN IMMEDIATE");
    return async () => {
      if (blocker.inTransaction) blocker.exec("ROLLBACK");
      blocker.close();
    };
  }
  const blocker = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${t.schema}` });
  await blocker.connect();
  await blocker.query("BEGIN");
  await blocker.query("LOCK TABLE datasets IN EXCLUSIVE MODE");
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await blocker.query("ROLLBACK");
    await blocker.end();
  };
}

describe("uploads over 256 KiB", () => {
  test("CSV: the pool stores the dataset the request thread's path stores", async () => {
    const csv = asCsv(big);
    assert.ok(csv.length > 4 * INLINE_BYTES);
    const query = `&missing_values=NA&column_types=${encodeURIComponent('{"code":"categorical"}')}`;
    const res = await t.app.inject({ method: "POST", url: `/v1/datasets?name=big${query}`, headers: { "content-type": "text/csv" }, payload: csv });
    assert.equal(res.statusCode, 201, res.body);
    assert.ok(t.app.services.compute.threadCount > 0, "a compute thread did the work");
    const created = res.json();
    assert.equal(res.headers.location, `/v1/datasets/${created.id}`);
    // Read back through the request thread's own connection, right after the 201.
    const stored = (await t.app.services.store.datasets.summary(created.id))!;
    assert.deepEqual(created, datasetToWire(stored));
    const expected = await storeDataset(reference.datasets, "big", readCsvUpload(csv, { missingValues: ["NA"], columnTypes: { code: "categorical" }, maxCells: t.app.services.config.maxCells }));
    const actual = await contents(appDatasets(), stored);
    assert.deepEqual(actual, await contents(reference.datasets, expected));
    const byName = Object.fromEntries(actual.columns.map((c) => [c.name, c]));
    assert.deepEqual([byName.x.type, byName.kind.type, byName.late.type, byName.code.type], ["numeric", "categorical", "categorical", "categorical"]);
    assert.equal(byName.x.missing_count, Math.ceil(60_000 / 17));
    assert.equal(byName.id.levels!.length, 60_000);
    const rows = (await t.app.inject({ url: `/v1/datasets/${created.id}/rows?offset=59999&limit=1` })).json();
    assert.deepEqual(rows, { items: [{ x: (59_999 * 7919) % 1000 / 8, kind: "kind 22, green", late: "late 3", id: "id-59999", code: "5" }], total: 60_000 });
  });

  test("JSON: the pool stores the dataset the request thread's path stores", async () => {
    const body = { name: "big-json", rows: asRows(big), column_types: { code: "categorical" } };
    const text = JSON.stringify(body);
    assert.ok(text.length > 4 * INLINE_BYTES);
    const res = await t.app.inject({ method: "POST", url: "/v1/datasets", headers: { "content-type": "application/json", "content-encoding": "gzip" }, payload: gzipSync(text) });
    assert.equal(res.statusCode, 201, res.body);
    const stored = (await t.app.services.store.datasets.summary(res.json().id))!;
    assert.deepEqual(res.json(), datasetToWire(stored));
    const { name, frame } = readJsonUpload(JSON.parse(text), t.app.services.config.maxCells);
    assert.deepEqual(await contents(appDatasets(), stored), await contents(reference.datasets, await storeDataset(reference.datasets, name, frame)));
  });

  test("/health/live answers while an upload is being stored", async () => {
    // Hold off dataset writes from another connection: the upload's insert waits for them on its thread.
    const release = await blockDatasetWrites();
    let handedOver = false;
    const compute = t.app.services.compute;
    const ingest = compute.ingestDataset.bind(compute);
    compute.ingestDataset = (upload) => {
      handedOver = true;
      return ingest(upload);
    };
    try {
      let uploaded = false;
      const upload = t.app.inject({ method: "POST", url: "/v1/datasets?name=held", headers: { "content-type": "text/csv" }, payload: asCsv(big) }).then((res) => {
        uploaded = true;
        return res;
      });
      while (!handedOver && !uploaded) await new Promise((r) => setImmediate(r));
      assert.ok(handedOver, "the upload went to the compute pool");
      const live = await t.app.inject({ url: "/health/live" });
      assert.equal(live.statusCode, 200);
      const list = await t.app.inject({ url: "/v1/datasets?limit=1" });
      assert.equal(list.statusCode, 200);
      assert.equal(uploaded, false, "the server answered while the upload waited for the write lock");
      await release();
      const res = await upload;
      assert.equal(res.statusCode, 201, res.body);
      assert.equal((await t.app.inject({ url: `/v1/datasets/${res.json().id}` })).json().row_count, 60_000);
    } finally {
      await release();
      compute.ingestDataset = ingest;
    }
  });
});

describe("a mistake in a large body gets the small body's answer", () => {
  const padding = asRows(table(20_000)).map(({ x, id }) => ({ x, id }));
  const json = (body: object | string): InjectOptions => ({ method: "POST", url: "/v1/datasets", headers: { "content-type": "application/json" }, payload: typeof body === "string" ? body : JSON.stringify(body) });
  const csv = (text: string, query = ""): InjectOptions => ({ method: "POST", url: `/v1/datasets?name=m${query}`, headers: { "content-type": "text/csv" }, payload: text });
  const csvPadding = "1,2\n".repeat(80_000);

  const cases: [string, InjectOptions, InjectOptions][] = [
    ["a __proto__ key", json('{"name":"p","rows":[{"__proto__":1}]}'), json(`{"name":"p","rows":[{"\\u005f_proto__":1},${JSON.stringify(padding).slice(1)}}`)],
    ["a constructor.prototype key", json('{"name":"p","rows":[{"a":1}],"column_types":{"constructor":{"prototype":1}}}'), json(`{"name":"p","rows":${JSON.stringify(padding)},"column_types":{"constructor":{"prototype":1}}}`)],
    ["a constructor column", json({ name: "c", rows: [{ constructor: 1 }] }), json({ name: "c", rows: [{ constructor: 1 }, ...padding] })],
    ["not JSON", json('{"name":"n","rows":[{"a":1}'), json(`{"name":"n","rows":${JSON.stringify(padding).slice(0, -1)}`)],
    ["a wrong field", json({ name: "", rows: [{ a: 1 }] }), json({ name: "", rows: padding })],
    ["an object as a value", json({ name: "o", rows: [{ x: 1 }, { x: { b: 1 } }] }), json({ name: "o", rows: [{ x: 1 }, { x: { b: 1 } }, ...padding] })],
    ["nesting past 64 levels", json({ name: "d", rows: [{ a: 1 }], deep: JSON.parse("[".repeat(70) + "]".repeat(70)) }), json({ name: "d", rows: padding, deep: JSON.parse("[".repeat(70) + "]".repeat(70)) })],
    ["column_types naming no column", json({ name: "t", rows: [{ a: 1 }], column_types: { b: "numeric" } }), json({ name: "t", rows: padding, column_types: { b: "numeric" } })],
    ["a ragged CSV row", csv("a,b\n1,2\n3\n"), csv(`a,b\n1,2\n3\n${csvPadding}`)],
    ["a __proto__ CSV column", csv("__proto__,b\n1,2\n"), csv(`__proto__,b\n${csvPadding}`)],
    ["a CSV forcing numeric on text", csv("a,b\nz,2\n", "&column_types=a:numeric"), csv(`a,b\nz,2\n${csvPadding}`, "&column_types=a:numeric")],
    ["a CSV without a name", { ...csv("a\n1\n"), url: "/v1/datasets" }, { ...csv(`a,b\n${csvPadding}`), url: "/v1/datasets" }],
  ];
  for (const [mistake, small, large] of cases) {
    test(mistake, async () => {
      assert.ok(String(large.payload).length > INLINE_BYTES);
      const a = await t.app.inject(small);
      const b = await t.app.inject(large);
      assert.match(String(b.headers["content-type"]), /application\/problem\+json/, b.body);
      const answer = (res: typeof a) => ({ status: res.statusCode, code: res.json().code, paths: (res.json().errors ?? []).map((e: { path: string }) => e.path) });
      assert.deepEqual(answer(b), answer(a), `${a.body}\n${b.body.slice(0, 500)}`);
      assert.ok(a.statusCode >= 400 && a.statusCode < 500);
    });
  }

  test("a table over XIGUA_MAX_CELLS is a 413 from the pool too", async () => {
    const small = await testApp({ maxCells: 100_000 });
    try {
      const res = await small.app.inject(csv(`a,b\n${csvPadding}`));
      assert.equal(res.statusCode, 413, res.body);
      assert.equal(res.json().code, "payload_too_large");
      const list = (await small.app.inject({ url: "/v1/datasets" })).json();
      assert.equal(list.items.length, 0);
    } finally {
      await small.close();
    }
  });
});
