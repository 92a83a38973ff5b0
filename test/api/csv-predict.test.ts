/**
 * CSV in and out: POST /v1/models/{id}/predict with a text/csv body (JSON or CSV
 * answers, the request thread or the compute pool), and GET /v1/datasets/{id}/rows
 * with Accept: text/csv (a page, or the whole table streamed in chunks).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { INLINE_MAX_BODY_BYTES, INLINE_MAX_ROWS } from "../../src/server/predict.js";
import { EXPORT_CHUNK_ROWS } from "../../src/server/interop/csv-export.js";
import { readCsvTable } from "../../src/server/interop/csv.js";
import { fixture, testApp, uploadCsv, type TestApp } from "../helpers/app.js";
import { cancelledModel, predictRows, train } from "../helpers/interop.js";

let t: TestApp;
let melon: string;
let quoted: string;
let regressor: string;
let cancelled: string;
let wm3: string;

const MAX_ROWS = 20_000;

before(async () => {
  t = await testApp({ predictMaxRows: MAX_ROWS });
  wm3 = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
  melon = await train(t.app, { dataset_id: wm3, algorithm: "cart", target: "好瓜", features: ["纹理", "密度", "含糖率"], validation: { method: "none" } });
  regressor = await train(t.app, { dataset_id: wm3, algorithm: "linear_regression", target: "含糖率", features: ["密度"], validation: { method: "none" } });
  const lines = Array.from({ length: 24 }, (_, i) => `${['"red, dark"', '"say ""hi"""', "plain"][i % 3]},${i % 5},${i % 3 === 0 ? "yes" : "no"}`);
  const ds = (await uploadCsv(t.app, "quoted", `colour,n,label\n${lines.join("\n")}\n`)).id;
  quoted = await train(t.app, { dataset_id: ds, algorithm: "naive_bayes", target: "label", validation: { method: "none" } });
  cancelled = await cancelledModel(t.app);
});
after(() => t.close());

const post = (id: string, csv: string, { accept, query = "" }: { accept?: string; query?: string } = {}) =>
  t.app.inject({ method: "POST", url: `/v1/models/${id}/predict${query}`, headers: { "content-type": "text/csv", ...(accept ? { accept } : {}) }, payload: csv });

function problem(res: Awaited<ReturnType<typeof post>>, status: number, code?: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(res.headers["content-type"] as string, /application\/problem\+json/);
  if (code) assert.equal(res.json().code, code);
}

const MELON_CSV = "纹理,密度,含糖率\n清晰,0.697,0.46\n模糊,0.243,\n稍糊,,0.1\n";
const MELON_ROWS = [
  { 纹理: "清晰", 密度: 0.697, 含糖率: 0.46 },
  { 纹理: "模糊", 密度: 0.243, 含糖率: null },
  { 纹理: "稍糊", 密度: null, 含糖率: 0.1 },
];

describe("text/csv predict", () => {
  test("JSON answer: the same as the rows sent as JSON (probabilities with ?probabilities=true)", async () => {
    const res = await post(melon, MELON_CSV);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.headers["content-type"] as string, /^application\/json/);
    assert.deepEqual(res.json(), { model_id: melon, predictions: (await predictRows(t.app, melon, MELON_ROWS)).predictions });
    const withP = await post(melon, MELON_CSV, { query: "?probabilities=true" });
    const expected = await predictRows(t.app, melon, MELON_ROWS, true);
    assert.deepEqual(withP.json(), { model_id: melon, ...expected });
  });

  test("?decision_threshold= moves the threshold as decision_threshold in a JSON body does", async () => {
    for (const threshold of [0.9, 0.1]) {
      const res = await post(melon, MELON_CSV, { query: `?decision_threshold=${threshold}` });
      const json = await t.app.inject({ method: "POST", url: `/v1/models/${melon}/predict`, payload: { rows: MELON_ROWS, decision_threshold: threshold } });
      assert.deepEqual(res.json(), json.json());
    }
  });

  test("Accept: text/csv → the input columns, prediction and p_<class>", async () => {
    const res = await post(melon, MELON_CSV, { accept: "text/csv" });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.headers["content-type"] as string, /^text\/csv/);
    const expected = await predictRows(t.app, melon, MELON_ROWS, true);
    const lines = res.body.split("\r\n");
    assert.equal(lines[0], "纹理,密度,含糖率,prediction,p_否,p_是");
    assert.equal(lines.length, 5);
    assert.equal(lines[4], "");
    const table = readCsvTable(Buffer.from(res.body), 100);
    table.cells.forEach((row, i) => {
      assert.deepEqual(row.slice(0, 3), MELON_CSV.split("\n")[i + 1].split(","));
      assert.equal(row[3], expected.predictions[i]);
      assert.equal(Number(row[4]), expected.probabilities![i]["否"]);
      assert.equal(Number(row[5]), expected.probabilities![i]["是"]);
    });
  });

  test("commas and quotes in cells are quoted, and the answer reads back as the input", async () => {
    const input = 'colour,n\n"red, dark",1\n"say ""hi""",2\nplain,\n';
    const res = await post(quoted, input, { accept: "text/csv" });
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(res.body.includes('"red, dark",1,') && res.body.includes('"say ""hi""",2,'), res.body);
    const table = readCsvTable(Buffer.from(res.body), 10);
    assert.deepEqual(table.columns, ["colour", "n", "prediction", "p_no", "p_yes"]);
    assert.deepEqual(table.cells.map((r) => r.slice(0, 2)), [["red, dark", "1"], ['say "hi"', "2"], ["plain", ""]]);
    const expected = await predictRows(t.app, quoted, [{ colour: "red, dark", n: 1 }, { colour: 'say "hi"', n: 2 }, { colour: "plain" }]);
    assert.deepEqual(table.cells.map((r) => r[2]), expected.predictions);
  });

  test("regression: one prediction column; Accept preferring JSON answers JSON", async () => {
    const res = await post(regressor, "密度\n0.5\n0.25\n", { accept: "text/csv" });
    const expected = (await predictRows(t.app, regressor, [{ 密度: 0.5 }, { 密度: 0.25 }])).predictions;
    assert.equal(res.body, `密度,prediction\r\n0.5,${expected[0]}\r\n0.25,${expected[1]}\r\n`);
    const json = await post(regressor, "密度\n0.5\n", { accept: "application/json, text/csv" });
    assert.match(json.headers["content-type"] as string, /^application\/json/);
  });

  test("a file too large for the request thread, and one with more rows than run inline, answer as small ones do", async () => {
    const textures = ["清晰", "稍糊", "模糊", "未见"];
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ 纹理: textures[i % 4], 密度: ((i * 37) % 100) / 100, 含糖率: i % 11 === 0 ? null : ((i * 53) % 50) / 100 }));
    const csvOf = (rs: ReturnType<typeof rows>) => "纹理,密度,含糖率\n" + rs.map((r) => `${r.纹理},${r.密度},${r.含糖率 ?? ""}`).join("\n") + "\n";
    for (const n of [INLINE_MAX_ROWS * 2, 18_000]) {
      const rs = rows(n);
      const csv = csvOf(rs);
      if (n === 18_000) assert.ok(Buffer.byteLength(csv) > INLINE_MAX_BODY_BYTES, "large enough to skip the request thread");
      const res = await post(melon, csv, { query: "?probabilities=true" });
      assert.equal(res.statusCode, 200, res.body.slice(0, 300));
      const expected: { predictions: unknown[]; probabilities: unknown[] } = { predictions: [], probabilities: [] };
      for (let i = 0; i < n; i += INLINE_MAX_ROWS) {
        const part = await predictRows(t.app, melon, rs.slice(i, i + INLINE_MAX_ROWS), true);
        expected.predictions.push(...part.predictions);
        expected.probabilities.push(...part.probabilities!);
      }
      assert.deepEqual(res.json(), { model_id: melon, ...expected });
      const asCsv = await post(melon, csv, { accept: "text/csv" });
      const table = readCsvTable(Buffer.from(asCsv.body), MAX_ROWS);
      assert.equal(table.cells.length, n);
      assert.deepEqual(table.cells.map((r) => r[3]), expected.predictions);
    }
  });

  test("more rows than XIGUA_PREDICT_MAX_ROWS → 413, on either thread", async () => {
    problem(await post(melon, "密度\n" + "0.5\n".repeat(MAX_ROWS + 1)), 413, "payload_too_large");
    problem(await post(melon, "密度\n" + "0.500000000000\n".repeat(MAX_ROWS + 1)), 413, "payload_too_large");
  });

  test("malformed CSV → 400; an unknown column → 422; a bad query → 400", async () => {
    problem(await post(melon, "纹理,密度\n清晰\n"), 400, "malformed_request");
    problem(await post(melon, '纹理\n"unclosed\n'), 400, "malformed_request");
    problem(await post(melon, "纹理\n"), 400, "malformed_request");
    problem(await post(melon, "纹理,纹理\n清晰,清晰\n"), 400, "malformed_request");
    problem(await post(melon, "重量\n1\n"), 422);
    problem(await post(melon, MELON_CSV, { query: "?probabilities=maybe" }), 400, "validation_failed");
    problem(await post(melon, MELON_CSV, { query: "?decision_threshold=2" }), 400, "validation_failed");
  });

  test("an unknown model → 404; a model that did not succeed → 409", async () => {
    problem(await post("md_0000000000000000", MELON_CSV), 404);
    problem(await post(cancelled, MELON_CSV), 409);
  });

  test("JSON bodies are untouched: the query is ignored, Accept: text/csv still answers JSON", async () => {
    const res = await t.app.inject({ method: "POST", url: `/v1/models/${melon}/predict?probabilities=maybe`, headers: { accept: "text/csv" }, payload: { rows: MELON_ROWS } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { model_id: melon, predictions: (await predictRows(t.app, melon, MELON_ROWS)).predictions });
  });
});

describe("GET /v1/datasets/{id}/rows as CSV", () => {
  const rowsCsv = (id: string, query = "") => t.app.inject({ url: `/v1/datasets/${id}/rows${query}`, headers: { accept: "text/csv" } });

  test("the whole table, with missing cells empty; the same values as the JSON rows", async () => {
    const res = await rowsCsv(wm3);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.headers["content-type"] as string, /^text\/csv/);
    const table = readCsvTable(Buffer.from(res.body), 100);
    const json = (await t.app.inject({ url: `/v1/datasets/${wm3}/rows?limit=500` })).json();
    assert.equal(table.cells.length, json.total);
    assert.deepEqual(table.columns, Object.keys(json.items[0]));
    table.cells.forEach((row, i) => assert.deepEqual(row, table.columns.map((c) => (json.items[i][c] === null ? "" : String(json.items[i][c])))));
  });

  test("with offset or limit, that page", async () => {
    const table = readCsvTable(Buffer.from((await rowsCsv(wm3, "?offset=2&limit=3")).body), 100);
    assert.equal(table.cells.length, 3);
    const json = (await t.app.inject({ url: `/v1/datasets/${wm3}/rows?offset=2&limit=3` })).json();
    assert.deepEqual(table.cells[0][0], String(json.items[0][table.columns[0]]));
  });

  test("a table of several chunks exports exactly as uploaded (missing cells, quoted text)", async () => {
    const n = EXPORT_CHUNK_ROWS * 2 + 7;
    const lines = Array.from({ length: n }, (_, i) => `${i},${i % 7 === 0 ? "" : (i * 13) % 101},${["a", '"b, c"', '"d ""e"""'][i % 3]}`);
    const csv = `id,x,label\r\n${lines.join("\r\n")}\r\n`;
    const ds = (await uploadCsv(t.app, "chunks", csv)).id;
    const res = await rowsCsv(ds);
    assert.equal(res.statusCode, 200);
    assert.ok(res.body === csv, "export differs from the upload");
  });

  test("an unknown dataset → 404 problem+json", async () => {
    const res = await rowsCsv("ds_0000000000000000");
    assert.equal(res.statusCode, 404);
    assert.match(res.headers["content-type"] as string, /application\/problem\+json/);
  });
});
