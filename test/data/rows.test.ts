import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { encodeRows } from "../../src/data/rows.js";
import { readCsv } from "../../src/data/read-csv.js";
import { frameSchema, selectColumns, type ColumnSchema } from "../../src/data/frame.js";
import { frameRows } from "../../src/data/codec.js";
import { fixture, numeric, onlyDataErrors, texts, throwsDataError } from "./helpers.js";

const training = readCsv(fixture("watermelon-3.0.csv"));
const features = ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率"];
const schema: ColumnSchema[] = frameSchema(selectColumns(training, features));

describe("encodeRows", () => {
  test("training rows sent back encode to the training columns", () => {
    const rows = frameRows(selectColumns(training, features), 0, training.rowCount);
    assert.deepEqual(encodeRows(rows, schema), selectColumns(training, features));
  });

  test("only schema columns, in schema order; absent and null are missing", () => {
    const f = encodeRows([{ 含糖率: 0.2, 色泽: "青绿" }, { 密度: null }], schema);
    assert.deepEqual(f.columns.map((c) => c.name), features);
    assert.deepEqual([...numeric(f, "含糖率")], [0.2, NaN]);
    assert.deepEqual([...numeric(f, "密度")], [NaN, NaN]);
    assert.deepEqual(texts(f, "色泽"), ["青绿", null]);
  });

  test("numeric strings are numbers, markers are missing, an unseen category is missing", () => {
    const f = encodeRows([{ 密度: " 0.5 ", 含糖率: "-", 纹理: "光滑" }], schema);
    assert.equal(numeric(f, "密度")[0], 0.5);
    assert.ok(Number.isNaN(numeric(f, "含糖率")[0]));
    assert.deepEqual(texts(f, "纹理"), [null]);
  });

  test("categorical values may be numbers or booleans, matched by their text", () => {
    const s: ColumnSchema[] = [
      { name: "grade", type: "categorical", levels: ["1", "2"] },
      { name: "flag", type: "categorical", levels: ["false", "true"] },
    ];
    const f = encodeRows([{ grade: 2, flag: true }, { grade: "1", flag: "false" }], s);
    assert.deepEqual(texts(f, "grade"), ["2", "1"]);
    assert.deepEqual(texts(f, "flag"), ["true", "false"]);
  });

  test("wrong kinds of value are DataErrors at rows[i].column", () => {
    throwsDataError(() => encodeRows([{ 密度: "abc" }], schema), "rows[0].密度", "numeric", '"abc"');
    throwsDataError(() => encodeRows([{}, { 密度: true }], schema), "rows[1].密度", "true");
    throwsDataError(() => encodeRows([{ 密度: { v: 1 } }], schema), "rows[0].密度", "an object");
    throwsDataError(() => encodeRows([{ 色泽: ["青绿"] }], schema), "rows[0].色泽", "an array");
    throwsDataError(() => encodeRows([{ 密度: Infinity }], schema), "rows[0].密度", "finite");
  });

  test("an unknown column is a DataError naming it", () => {
    throwsDataError(() => encodeRows([{ 色泽: "青绿" }, { 重量: 3 }], schema), "rows[1].重量", "unknown column", '"重量"');
    throwsDataError(() => encodeRows(JSON.parse('[{"__proto__": 1}]'), schema), "rows[0].__proto__", "unknown column");
  });

  test("ignoreColumns lets a row carry the target", () => {
    const f = encodeRows([{ 色泽: "青绿", 好瓜: "是" }], schema, { ignoreColumns: ["好瓜"] });
    assert.equal(f.columns.length, features.length);
  });

  test("rows must be a non-empty array of objects", () => {
    throwsDataError(() => encodeRows("x", schema), "rows", "array");
    throwsDataError(() => encodeRows([], schema), "rows", "empty");
    throwsDataError(() => encodeRows([{}, 3], schema), "rows[1]", "object");
    throwsDataError(() => encodeRows([null], schema), "rows[0]", "object");
  });

  test("missingValues replaces the markers", () => {
    const f = encodeRows([{ 密度: "-1", 色泽: "-" }], schema, { missingValues: ["-1"] });
    assert.ok(Number.isNaN(numeric(f, "密度")[0]));
    assert.deepEqual(texts(f, "色泽"), [null]); // "-" is no longer a marker, but is not a level either
  });
});

describe("encodeRows properties", () => {
  test("random rows never throw anything but DataError", () => {
    const key = fc.oneof(fc.constantFrom(...features, "好瓜", "__proto__", ""), fc.string());
    const value = fc.oneof(fc.constantFrom("青绿", "-", "", "0.5", " 1e3 "), fc.string(), fc.double(), fc.boolean(), fc.constant(null), fc.object(), fc.array(fc.integer()));
    const rows = fc.oneof(fc.array(fc.oneof(fc.dictionary(key, value), value), { maxLength: 5 }), fc.anything());
    fc.assert(fc.property(rows, (r) => onlyDataErrors(() => encodeRows(r, schema))), { numRuns: 500 });
  });
});
