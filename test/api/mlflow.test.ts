/**
 * MLflow's scoring protocol: POST /v1/models/{ref}/invocations and GET …/ping. The
 * payloads are the ones MLflow documents for `mlflow models serve` (its CLI help:
 * records, split with an index, inputs as lists; its deployment guide: inputs as
 * columns), on a model of columns a and b; predictions must equal /predict's.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { INLINE_MAX_BODY_BYTES, INLINE_MAX_ROWS } from "../../src/server/predict.js";
import { testApp, uploadCsv, type TestApp } from "../helpers/app.js";
import { cancelledModel, predictRows, train } from "../helpers/interop.js";

let t: TestApp;
let classifier: string;
let regressor: string;
let cancelled: string;

const MAX_ROWS = 20_000;

const ROWS = [
  { a: 1, b: 2 },
  { a: 3, b: 4 },
  { a: 5, b: 6 },
];

before(async () => {
  t = await testApp({ predictMaxRows: MAX_ROWS });
  const lines = Array.from({ length: 40 }, (_, i) => {
    const a = i % 8;
    const b = (i * 3) % 7;
    return `${a},${b},${a + b > 7 ? "hi" : "lo"},${2 * a + b + (i % 3) / 10}`;
  });
  const ds = (await uploadCsv(t.app, "ab", `a,b,y,r\n${lines.join("\n")}\n`)).id;
  classifier = await train(t.app, { dataset_id: ds, algorithm: "cart", target: "y", features: ["a", "b"], validation: { method: "none" } });
  regressor = await train(t.app, { dataset_id: ds, algorithm: "linear_regression", target: "r", features: ["a", "b"], validation: { method: "none" } });
  cancelled = await cancelledModel(t.app);
});
after(() => t.close());

const invoke = (ref: string, payload: unknown) =>
  t.app.inject({ method: "POST", url: `/v1/models/${ref}/invocations`, headers: { "content-type": "application/json" }, payload: JSON.stringify(payload) });

function problem(res: Awaited<ReturnType<typeof invoke>>, status: number, path?: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(res.headers["content-type"] as string, /application\/problem\+json/);
  if (path) assert.ok(res.json().errors.some((e: { path: string }) => e.path === path), res.body);
  return res.json();
}

describe("the documented payloads", () => {
  const payloads: [string, unknown][] = [
    ["dataframe_records", { dataframe_records: [{ a: 1, b: 2 }, { a: 3, b: 4 }, { a: 5, b: 6 }] }],
    ["dataframe_split with an index", { dataframe_split: { columns: ["a", "b"], index: [0, 1, 2], data: [[1, 2], [3, 4], [5, 6]] } }],
    ["inputs as lists", { inputs: [[1, 2], [3, 4], [5, 6]] }],
    ["inputs as columns", { inputs: { a: [1, 3, 5], b: [2, 4, 6] } }],
    ["instances as records", { instances: [{ a: 1, b: 2 }, { a: 3, b: 4 }, { a: 5, b: 6 }] }],
    ["instances as lists, with params", { instances: [[1, 2], [3, 4], [5, 6]], params: { anything: 1 } }],
  ];
  for (const [name, payload] of payloads) {
    test(`${name}: the same predictions as /predict, classifier and regressor`, async () => {
      for (const id of [classifier, regressor]) {
        const res = await invoke(id, payload);
        assert.equal(res.statusCode, 200, res.body);
        assert.match(res.headers["content-type"] as string, /^application\/json/);
        assert.deepEqual(res.json(), { predictions: (await predictRows(t.app, id, ROWS)).predictions });
      }
    });
  }

  test("classifiers answer labels (MLflow's scikit-learn flavour calls predict)", async () => {
    const res = await invoke(classifier, { dataframe_records: ROWS });
    for (const p of res.json().predictions) assert.ok(p === "hi" || p === "lo", String(p));
  });

  test("a missing column is a missing value, a string number is read as for /predict", async () => {
    const rows = [{ a: "4" }, { b: null }];
    const res = await invoke(classifier, { dataframe_records: rows });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().predictions, (await predictRows(t.app, classifier, rows)).predictions);
  });
});

describe("large batches", () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ a: ((i * 37) % 800) / 100, b: ((i * 53) % 700) / 100 }));

  test("more rows than run inline, and a body too large to parse on the request thread: the same as /predict", async () => {
    for (const n of [INLINE_MAX_ROWS * 3, 18_000]) {
      const rs = rows(n);
      const payload = { dataframe_records: rs };
      if (n === 18_000) assert.ok(JSON.stringify(payload).length > INLINE_MAX_BODY_BYTES);
      const res = await invoke(classifier, payload);
      assert.equal(res.statusCode, 200, res.body.slice(0, 300));
      assert.deepEqual(res.json(), { predictions: (await predictRows(t.app, classifier, rs)).predictions });
    }
  });

  test("a large body's errors are the small body's", async () => {
    const rs: unknown[] = rows(18_000);
    rs[17_999] = { a: [1] };
    problem(await invoke(classifier, { dataframe_records: rs }), 400, "dataframe_records[17999].a");
    problem(await invoke(classifier, { dataframe_records: rows(18_000), inputs: [] }), 400, "body");
  });
});

describe("errors", () => {
  test("none of the four keys, or two of them → 400", async () => {
    problem(await invoke(classifier, {}), 400, "body");
    problem(await invoke(classifier, { params: {} }), 400, "body");
    problem(await invoke(classifier, { dataframe_records: ROWS, inputs: [[1, 2]] }), 400, "body");
    problem(await invoke(classifier, [ROWS]), 400, "body");
    problem(await invoke(classifier, { columns: ["a", "b"], data: [[1, 2]] }), 400, "body");
  });

  test("a CSV body → 415 (CSV files go to /predict)", async () => {
    const res = await t.app.inject({ method: "POST", url: `/v1/models/${classifier}/invocations`, headers: { "content-type": "text/csv" }, payload: "a,b\n1,2\n" });
    problem(res, 415);
  });

  test("an unknown key next to a format key → 400 naming it", async () => {
    problem(await invoke(classifier, { dataframe_records: ROWS, extra: 1 }), 400, "extra");
  });

  test("malformed frames → 400 naming the field", async () => {
    problem(await invoke(classifier, { dataframe_split: { columns: ["a", "b"], data: [[1, 2, 3]] } }), 400, "dataframe_split.data[0]");
    problem(await invoke(classifier, { dataframe_split: { columns: ["a", "a"], data: [[1, 2]] } }), 400, "dataframe_split.columns");
    problem(await invoke(classifier, { dataframe_split: { columns: ["a", "b"], data: [[1, 2]], index: [0, 1] } }), 400, "dataframe_split.index");
    problem(await invoke(classifier, { dataframe_split: { data: [[1, 2]] } }), 400, "dataframe_split.columns");
    problem(await invoke(classifier, { dataframe_records: [] }), 400, "dataframe_records");
    problem(await invoke(classifier, { dataframe_records: [[1, 2]] }), 400, "dataframe_records[0]");
    problem(await invoke(classifier, { inputs: { a: [1, 2], b: [3] } }), 400, "inputs.b");
    // The deployment guide's tensor-valued column: xigua models take one value per cell.
    problem(await invoke(classifier, { instances: [{ a: 1, b: 1, c: [1, 2, 3] }] }), 400, "instances[0].c");
  });

  test("lists of the wrong width → 422; an unknown column → 422", async () => {
    problem(await invoke(classifier, { inputs: [[1, 2, 3]] }), 422, "inputs[0]");
    problem(await invoke(classifier, { instances: [7] }), 422, "instances[0]");
    problem(await invoke(classifier, { dataframe_records: [{ a: 1, c: 2 }] }), 422);
  });

  test("more rows than XIGUA_PREDICT_MAX_ROWS → 413", async () => {
    problem(await invoke(classifier, { inputs: Array.from({ length: MAX_ROWS + 1 }, () => [1, 2]) }), 413);
    problem(await invoke(classifier, { inputs: { a: Array.from({ length: MAX_ROWS + 1 }, () => 1) } }), 413);
  });

  test("an unknown model → 404; a model that did not succeed → 409", async () => {
    problem(await invoke("md_0000000000000000", { dataframe_records: ROWS }), 404);
    problem(await invoke("no-such-name", { dataframe_records: ROWS }), 404);
    problem(await invoke(cancelled, { dataframe_records: ROWS }), 409);
  });
});

describe("ping", () => {
  test("200 for a servable model, 404 unknown, 409 not succeeded", async () => {
    const ok = await t.app.inject({ url: `/v1/models/${classifier}/ping` });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json(), { status: "ok", model_id: classifier });
    problem(await t.app.inject({ url: "/v1/models/md_0000000000000000/ping" }), 404);
    problem(await t.app.inject({ url: `/v1/models/${cancelled}/ping` }), 409);
  });
});

describe("any JSON", () => {
  test("answers 200 or a 4xx problem, never a 5xx", async () => {
    const format = fc.constantFrom("dataframe_split", "dataframe_records", "instances", "inputs", "params");
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.dictionary(format, fc.jsonValue(), { maxKeys: 2 })), async (payload) => {
        const res = await invoke(classifier, payload);
        assert.ok(res.statusCode === 200 || (res.statusCode >= 400 && res.statusCode < 500), `${res.statusCode} ${res.body}`);
        if (res.statusCode !== 200) assert.match(res.headers["content-type"] as string, /application\/problem\+json/);
      }),
      { numRuns: 60 },
    );
  });
});
