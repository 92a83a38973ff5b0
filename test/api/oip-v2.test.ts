/**
 * Open Inference Protocol v2 (KServe V2 REST) under /v2. The inference payload is
 * KServe's documented scikit-learn iris example for the v2 protocol (one FP32 input
 * "input-0" of shape [2, 4], nested data); the others follow the protocol's required
 * API. Predictions must equal POST /v1/models/{id}/predict's; errors are { error }.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { INLINE_MAX_BODY_BYTES, INLINE_MAX_ROWS } from "../../src/server/predict.js";
import { fixture, testApp, uploadCsv, type TestApp } from "../helpers/app.js";
import { cancelledModel, predictRows, train } from "../helpers/interop.js";

let t: TestApp;
let iris: string;
let melon: string;
let regressor: string;
let clusters: string;
let cancelled: string;

const MAX_ROWS = 20_000;
const IRIS = ["sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"];
/** KServe's iris-input-v2.json. */
const KSERVE_IRIS = { inputs: [{ name: "input-0", shape: [2, 4], datatype: "FP32", data: [[6.8, 2.8, 4.8, 1.4], [6.0, 3.4, 4.5, 1.6]] }] };
const IRIS_ROWS = KSERVE_IRIS.inputs[0].data.map((values) => Object.fromEntries(IRIS.map((name, j) => [name, values[j]])));

before(async () => {
  t = await testApp({ predictMaxRows: MAX_ROWS });
  const irisDs = (await uploadCsv(t.app, "iris", fixture("iris.csv"))).id;
  const wm3 = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
  iris = await train(t.app, { dataset_id: irisDs, algorithm: "logistic_regression", target: "target", validation: { method: "none" } });
  melon = await train(t.app, { dataset_id: wm3, algorithm: "cart", target: "好瓜", features: ["纹理", "密度", "含糖率"], validation: { method: "none" } });
  regressor = await train(t.app, { dataset_id: irisDs, algorithm: "linear_regression", target: "petal width (cm)", features: IRIS.slice(0, 3), validation: { method: "none" } });
  clusters = await train(t.app, { dataset_id: irisDs, algorithm: "kmeans", features: IRIS, params: { n_clusters: 3 }, seed: 1 });
  cancelled = await cancelledModel(t.app);
});
after(() => t.close());

const infer = (ref: string, payload: unknown, version?: string) =>
  t.app.inject({
    method: "POST",
    url: `/v2/models/${encodeURIComponent(ref)}${version ? `/versions/${version}` : ""}/infer`,
    headers: { "content-type": "application/json" },
    payload: typeof payload === "string" ? payload : JSON.stringify(payload),
  });

function oipError(res: Awaited<ReturnType<typeof infer>>, status: number, pattern?: RegExp): string {
  assert.equal(res.statusCode, status, res.body);
  assert.match(res.headers["content-type"] as string, /^application\/json/);
  const body = res.json();
  assert.deepEqual(Object.keys(body), ["error"], res.body);
  assert.equal(typeof body.error, "string");
  if (pattern) assert.match(body.error, pattern);
  return body.error;
}

describe("server", () => {
  test("GET /v2: server metadata", async () => {
    const res = await t.app.inject({ url: "/v2" });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.name, "xigua");
    assert.equal(typeof body.version, "string");
    assert.deepEqual(body.extensions, []);
  });

  test("GET /v2/health/live and /v2/health/ready: 200", async () => {
    assert.deepEqual((await t.app.inject({ url: "/v2/health/live" })).json(), { live: true });
    const ready = await t.app.inject({ url: "/v2/health/ready" });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { ready: true });
  });

  test("an unknown /v2 route is a 404 { error }; a wrong method a 405 { error } with Allow", async () => {
    oipError(await t.app.inject({ url: "/v2/nothing" }), 404);
    const wrong = await t.app.inject({ method: "GET", url: `/v2/models/${iris}/infer` });
    oipError(wrong, 405);
    assert.equal(wrong.headers.allow, "POST");
  });
});

describe("model metadata and readiness", () => {
  test("inputs one per feature (FP64 numeric, BYTES categorical), outputs label and probabilities", async () => {
    const res = await t.app.inject({ url: `/v2/models/${melon}` });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      name: melon,
      platform: "xigua_cart",
      inputs: [
        { name: "纹理", datatype: "BYTES", shape: [-1] },
        { name: "密度", datatype: "FP64", shape: [-1] },
        { name: "含糖率", datatype: "FP64", shape: [-1] },
      ],
      outputs: [
        { name: "label", datatype: "BYTES", shape: [-1] },
        { name: "probabilities", datatype: "FP64", shape: [-1, 2] },
      ],
    });
    const reg = (await t.app.inject({ url: `/v2/models/${regressor}` })).json();
    assert.deepEqual(reg.outputs, [{ name: "label", datatype: "FP64", shape: [-1] }]);
    const km = (await t.app.inject({ url: `/v2/models/${clusters}` })).json();
    assert.deepEqual(km.outputs, [{ name: "label", datatype: "INT64", shape: [-1] }]);
  });

  test("ready: 200 for a servable model, 404 unknown, 409 not succeeded", async () => {
    const res = await t.app.inject({ url: `/v2/models/${iris}/ready` });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { name: iris, ready: true });
    oipError(await t.app.inject({ url: "/v2/models/md_0000000000000000/ready" }), 404);
    oipError(await t.app.inject({ url: `/v2/models/${cancelled}/ready` }), 409);
    oipError(await t.app.inject({ url: `/v2/models/${cancelled}` }), 409);
  });

  test("an unknown model or version → 404 { error }", async () => {
    oipError(await t.app.inject({ url: "/v2/models/no-such-model" }), 404, /no-such-model/);
    oipError(await t.app.inject({ url: "/v2/models/no-such-model/versions/3" }), 404, /no-such-model:3/);
    oipError(await t.app.inject({ url: "/v2/models/no-such-model/versions/production/ready" }), 404, /no-such-model@production/);
    oipError(await infer("no-such-model", KSERVE_IRIS, "2"), 404);
  });
});

describe("inference", () => {
  test("KServe's iris example: label and probabilities, equal to /predict", async () => {
    const res = await infer(iris, { id: "42", ...KSERVE_IRIS });
    assert.equal(res.statusCode, 200, res.body);
    const expected = await predictRows(t.app, iris, IRIS_ROWS, true);
    const classes = Object.keys(expected.probabilities![0]);
    assert.deepEqual(res.json(), {
      model_name: iris,
      model_version: iris,
      id: "42",
      outputs: [
        { name: "label", datatype: "BYTES", shape: [2], data: expected.predictions },
        { name: "probabilities", datatype: "FP64", shape: [2, 3], data: expected.probabilities!.flatMap((p) => classes.map((c) => p[c])) },
      ],
    });
  });

  test("flat data, one tensor per feature, and [n, 1] columns give the same answer", async () => {
    const nested = (await infer(iris, KSERVE_IRIS)).json();
    const flat = await infer(iris, { inputs: [{ ...KSERVE_IRIS.inputs[0], data: KSERVE_IRIS.inputs[0].data.flat() }] });
    assert.deepEqual(flat.json(), nested);
    const columns = IRIS.map((name, j) => ({ name, shape: [2], datatype: "FP64", data: KSERVE_IRIS.inputs[0].data.map((r) => r[j]) }));
    assert.deepEqual((await infer(iris, { inputs: columns })).json(), nested);
    const tall = columns.map((c) => ({ ...c, shape: [2, 1], data: c.data.map((v) => [v]) }));
    assert.deepEqual((await infer(iris, { inputs: tall })).json(), nested);
  });

  test("outputs selection: only the outputs asked for", async () => {
    const res = await infer(iris, { ...KSERVE_IRIS, outputs: [{ name: "probabilities" }] });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().outputs.map((o: { name: string }) => o.name), ["probabilities"]);
    const label = await infer(iris, { ...KSERVE_IRIS, outputs: [{ name: "label" }] });
    assert.deepEqual(label.json().outputs.map((o: { name: string }) => o.name), ["label"]);
    oipError(await infer(iris, { ...KSERVE_IRIS, outputs: [{ name: "scores" }] }), 400, /scores/);
  });

  test("categorical features as BYTES, a missing feature and a null element are missing values", async () => {
    const inputs = [
      { name: "纹理", shape: [3], datatype: "BYTES", data: ["清晰", "模糊", null] },
      { name: "密度", shape: [3], datatype: "FP64", data: [0.697, 0.243, 0.5] },
    ];
    const res = await infer(melon, { inputs });
    assert.equal(res.statusCode, 200, res.body);
    const expected = await predictRows(t.app, melon, [{ 纹理: "清晰", 密度: 0.697 }, { 纹理: "模糊", 密度: 0.243 }, { 纹理: null, 密度: 0.5 }], true);
    assert.deepEqual(res.json().outputs[0].data, expected.predictions);
    assert.deepEqual(res.json().outputs[1].data, expected.probabilities!.flatMap((p) => ["否", "是"].map((c) => p[c])));
  });

  test("regression: label FP64; clustering: label INT64 cluster index", async () => {
    const rows = IRIS_ROWS.map((r) => Object.fromEntries(IRIS.slice(0, 3).map((k) => [k, r[k]])));
    const reg = await infer(regressor, { inputs: [{ name: "x", shape: [2, 3], datatype: "FP64", data: KSERVE_IRIS.inputs[0].data.map((r) => r.slice(0, 3)) }] });
    assert.equal(reg.statusCode, 200, reg.body);
    assert.deepEqual(reg.json().outputs, [{ name: "label", datatype: "FP64", shape: [2], data: (await predictRows(t.app, regressor, rows)).predictions }]);
    const km = await infer(clusters, KSERVE_IRIS);
    assert.deepEqual(km.json().outputs, [{ name: "label", datatype: "INT64", shape: [2], data: (await predictRows(t.app, clusters, IRIS_ROWS)).predictions }]);
  });

  test("malformed requests → 400 { error } naming the field", async () => {
    const input = KSERVE_IRIS.inputs[0];
    oipError(await infer(iris, "{not json"), 400);
    oipError(await infer(iris, {}), 400, /inputs/);
    oipError(await infer(iris, { inputs: [] }), 400, /inputs/);
    oipError(await infer(iris, { ...KSERVE_IRIS, extra: true }), 400, /extra/);
    oipError(await infer(iris, { inputs: [{ ...input, shape: [2, 3] }] }), 400, /shape/);
    oipError(await infer(iris, { inputs: [{ ...input, shape: [3, 4] }] }), 400, /data/);
    oipError(await infer(iris, { inputs: [{ ...input, datatype: "BYTES" }] }), 400, /BYTES/);
    oipError(await infer(iris, { inputs: [{ ...input, datatype: "FLOAT" }] }), 400, /datatype/);
    oipError(await infer(iris, { inputs: [{ ...input, shape: [-1, 4] }] }), 400, /shape/);
    oipError(await infer(iris, { inputs: [{ name: "petal", shape: [1], datatype: "FP64", data: [1] }] }), 400, /petal/);
    oipError(await infer(iris, { inputs: [{ name: IRIS[0], shape: [1], datatype: "FP64", data: [1] }, { name: IRIS[1], shape: [2], datatype: "FP64", data: [1, 2] }] }), 400, /rows/);
    oipError(await infer(iris, { inputs: [{ name: IRIS[0], shape: [1], datatype: "INT32", data: [1.5] }] }), 400, /INT32/);
    oipError(await infer(iris, { ...KSERVE_IRIS, id: 42 }), 400, /id/);
    oipError(await t.app.inject({ method: "POST", url: `/v2/models/${iris}/infer`, headers: { "content-type": "text/csv" }, payload: "a\n1\n" }), 415);
    oipError(await t.app.inject({ method: "POST", url: `/v2/models/${iris}/infer`, headers: { "content-type": "text/plain" }, payload: "hello" }), 415);
  });

  test("more rows than run inline, and a body too large to parse on the request thread: the same as /predict", async () => {
    for (const n of [INLINE_MAX_ROWS * 3, 19_000]) {
      const data = Array.from({ length: n }, (_, i) => [4 + ((i * 37) % 40) / 10, 2 + ((i * 53) % 25) / 10, 1 + ((i * 7) % 60) / 10, ((i * 11) % 25) / 10]);
      const payload = { inputs: [{ name: "x", shape: [n, 4], datatype: "FP64", data }] };
      if (n === 19_000) assert.ok(JSON.stringify(payload).length > INLINE_MAX_BODY_BYTES);
      const res = await infer(iris, payload);
      assert.equal(res.statusCode, 200, res.body.slice(0, 300));
      const expected = await predictRows(t.app, iris, data.map((r) => Object.fromEntries(IRIS.map((name, j) => [name, r[j]]))));
      assert.deepEqual(res.json().outputs[0].data, expected.predictions);
      assert.equal(res.json().outputs[1].data.length, n * 3);
      // The same mistake in a large body gets the small body's answer.
      oipError(await infer(iris, { ...payload, inputs: [{ ...payload.inputs[0], datatype: "BYTES" }] }), 400, /BYTES/);
    }
  });

  test("more rows than XIGUA_PREDICT_MAX_ROWS → 413; unknown model → 404; not succeeded → 409", async () => {
    oipError(await infer(iris, { inputs: [{ name: "m", shape: [MAX_ROWS + 1, 4], datatype: "FP64", data: Array.from({ length: 4 * (MAX_ROWS + 1) }, () => 1) }] }), 413);
    oipError(await infer("md_0000000000000000", KSERVE_IRIS), 404);
    oipError(await infer(cancelled, KSERVE_IRIS), 409);
  });
});

describe("any JSON", () => {
  test("answers 200 or a 4xx { error }, never a 5xx", async () => {
    const input = fc.record({ name: fc.constantFrom("input-0", ...IRIS), shape: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 2 }), datatype: fc.constantFrom("FP64", "BYTES", "INT64"), data: fc.jsonValue() });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.record({ inputs: fc.array(input, { maxLength: 3 }) })), async (payload) => {
        const res = await infer(iris, payload);
        if (res.statusCode !== 200) oipError(res, res.statusCode);
        assert.ok(res.statusCode < 500, res.body);
      }),
      { numRuns: 60 },
    );
  });
});
