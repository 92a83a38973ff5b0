import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { readJsonRows } from "../../src/data/read-json.js";
import { readCsv } from "../../src/data/read-csv.js";
import { frameRows } from "../../src/data/codec.js";
import { fixture, numeric, onlyDataErrors, texts, throwsDataError } from "./helpers.js";

describe("readJsonRows", () => {
  test("watermelon 3.0 as JSON rows gives the same frame as the CSV", () => {
    const fromCsv = readCsv(fixture("watermelon-3.0.csv"));
    const rows = frameRows(fromCsv, 0, fromCsv.rowCount);
    assert.equal(rows[0].密度, 0.697);
    assert.deepEqual(readJsonRows(rows), fromCsv);
  });

  test("column set is the union of keys in first-seen order; an absent key is missing", () => {
    const f = readJsonRows([{ a: 1 }, { b: "x", a: 2 }, { c: true }]);
    assert.deepEqual(f.columns.map((c) => c.name), ["a", "b", "c"]);
    assert.deepEqual([...numeric(f, "a")], [1, 2, NaN]);
    assert.deepEqual(texts(f, "b"), [null, "x", null]);
    assert.deepEqual(texts(f, "c"), [null, null, "true"]);
  });

  test("numeric strings and numbers make a numeric column; markers and null are missing", () => {
    const f = readJsonRows([{ x: "1.5" }, { x: 2 }, { x: null }, { x: "NA" }, { x: " 3 " }]);
    assert.deepEqual([...numeric(f, "x")], [1.5, 2, NaN, NaN, 3]);
  });

  test("a late non-number turns the column categorical with every earlier value as text", () => {
    const f = readJsonRows([{ x: 10 }, { x: "2.50" }, { x: null }, { x: "b" }, { x: false }]);
    assert.deepEqual(texts(f, "x"), ["10", "2.50", null, "b", "false"]);
  });

  test("missing markers are replaced by missingValues, and apply to numbers by their text", () => {
    const f = readJsonRows([{ x: -999 }, { x: 1 }, { x: "-" }], { missingValues: ["-999"] });
    assert.deepEqual(texts(f, "x"), [null, "1", "-"]);
    const g = readJsonRows([{ x: -999 }, { x: 1 }], { missingValues: ["-999"] });
    assert.deepEqual([...numeric(g, "x")], [NaN, 1]);
  });

  test("column_types", () => {
    const f = readJsonRows([{ zip: 1001 }, { zip: 2002 }], { columnTypes: { zip: "categorical" } });
    assert.deepEqual(texts(f, "zip"), ["1001", "2002"]);
    throwsDataError(() => readJsonRows([{ a: 1 }, { a: "x" }], { columnTypes: { a: "numeric" } }), "column_types.a", '"x"', "rows[1]");
    throwsDataError(() => readJsonRows([{ a: true }], { columnTypes: { a: "numeric" } }), "column_types.a", '"true"', "rows[0]");
    throwsDataError(() => readJsonRows([{ a: 1 }], { columnTypes: { b: "numeric" } }), "column_types.b");
  });

  test("refuses malformed rows with a path", () => {
    throwsDataError(() => readJsonRows({ a: 1 }), "rows", "array");
    throwsDataError(() => readJsonRows([]), "rows", "empty");
    throwsDataError(() => readJsonRows([{ a: 1 }, null]), "rows[1]", "object");
    throwsDataError(() => readJsonRows([{ a: 1 }, [1, 2]]), "rows[1]", "object");
    throwsDataError(() => readJsonRows([{ a: 1 }, { a: { b: 2 } }]), "rows[1].a", "an object");
    throwsDataError(() => readJsonRows([{ 密度: [1] }]), "rows[0].密度", "an array");
    throwsDataError(() => readJsonRows([{ a: Infinity }]), "rows[0].a", "finite");
    throwsDataError(() => readJsonRows([{ a: NaN }]), "rows[0].a", "finite");
    throwsDataError(() => readJsonRows([{ "": 1 }]), "rows[0]", "empty");
  });

  test("refuses prototype-polluting keys", () => {
    throwsDataError(() => readJsonRows(JSON.parse('[{"a":1},{"__proto__":{"x":1}}]')), "rows[1].__proto__", "__proto__");
    throwsDataError(() => readJsonRows([{ constructor: 1 }]), "rows[0].constructor");
    throwsDataError(() => readJsonRows([{ prototype: "x" }]), "rows[0].prototype");
  });

  test("too many cells", () => {
    throwsDataError(() => readJsonRows([{ a: 1, b: 2 }, { a: 3 }], { maxCells: 3 }), "rows", "3 cells");
  });
});

describe("readJsonRows properties", () => {
  test("random bodies and options never throw anything but DataError", () => {
    const value = fc.oneof(fc.string(), fc.double(), fc.boolean(), fc.constant(null), fc.integer(), fc.object(), fc.array(fc.integer()));
    const key = fc.oneof(fc.string(), fc.constantFrom("__proto__", "constructor", "a", "b", ""));
    const row = fc.oneof(fc.dictionary(key, value), value);
    const body = fc.oneof(fc.array(row, { maxLength: 6 }), fc.jsonValue(), fc.anything());
    const options = fc.record(
      {
        missingValues: fc.array(fc.constantFrom("", "-", "1", "a", "true")),
        columnTypes: fc.dictionary(fc.constantFrom("a", "b"), fc.constantFrom("numeric" as const, "categorical" as const)),
      },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(body, options, (rows, opts) => onlyDataErrors(() => readJsonRows(rows, opts))), { numRuns: 500 });
  });
});
