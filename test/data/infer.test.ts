import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ColumnBuilder, DEFAULT_MISSING_VALUES, checkColumnTypes, missingMarkers, parseNumber } from "../../src/data/infer.js";
import { throwsDataError } from "./helpers.js";

describe("parseNumber", () => {
  test("reads decimal numbers after trimming", () => {
    assert.equal(parseNumber("0.697"), 0.697);
    assert.equal(parseNumber("  -12 "), -12);
    assert.equal(parseNumber("+.5"), 0.5);
    assert.equal(parseNumber("5."), 5);
    assert.equal(parseNumber("1e3"), 1000);
    assert.equal(parseNumber("2.5E-2"), 0.025);
    assert.equal(parseNumber("007"), 7);
    assert.ok(Object.is(parseNumber("-0"), -0));
  });

  test("refuses what is not a finite decimal number", () => {
    for (const text of ["", " ", ".", "abc", "1,5", "0x10", "0b1", "Infinity", "-Infinity", "NaN", "1e", "1e+", "--1", "1.2.3", "1e400", "１２"]) {
      assert.ok(Number.isNaN(parseNumber(text)), text);
    }
  });
});

describe("missing markers", () => {
  test("defaults are the API's list", () => {
    assert.deepEqual([...DEFAULT_MISSING_VALUES], ["", "?", "-", "NA", "NaN"]);
    assert.deepEqual([...missingMarkers(undefined)], ["", "?", "-", "NA", "NaN"]);
  });

  test("a given list replaces the defaults and is trimmed", () => {
    assert.deepEqual([...missingMarkers([" n/a ", "-999"])], ["n/a", "-999"]);
    assert.equal(missingMarkers([]).size, 0);
  });
});

describe("ColumnBuilder", () => {
  const markers = missingMarkers(undefined);
  const at = (row: number) => `rows[${row}]`;

  test("stays numeric through numbers and missing markers", () => {
    const b = new ColumnBuilder("x", 4, markers, undefined, at);
    b.setText(0, " 1.5 ");
    b.setNumber(1, 2);
    b.setText(2, "NA");
    const c = b.finish(4);
    assert.equal(c.type, "numeric");
    assert.deepEqual(c.type === "numeric" && [...c.values], [1.5, 2, NaN, NaN]);
  });

  test("turns categorical at the first non-number and asks for the earlier rows again", () => {
    const b = new ColumnBuilder("x", 3, markers, undefined, at);
    b.setText(0, "10");
    b.setText(1, "2");
    b.setText(2, "b");
    assert.equal(b.numeric, false);
    assert.equal(b.replayBefore, 2);
    b.setText(0, "10");
    b.setText(1, "2");
    const c = b.finish(3);
    assert.equal(c.type, "categorical");
    if (c.type !== "categorical") return;
    assert.deepEqual(c.levels, ["10", "2", "b"]);
    assert.deepEqual([...c.codes], [0, 1, 2]);
  });

  test("numeric-looking levels sort as numbers", () => {
    const b = new ColumnBuilder("x", 3, markers, "categorical", at);
    ["10", "9", "-"].forEach((t, i) => b.setText(i, t));
    const c = b.finish(3);
    assert.deepEqual(c.type === "categorical" && c.levels, ["9", "10"]);
    assert.deepEqual(c.type === "categorical" && [...c.codes], [1, 0, -1]);
  });

  test("an all-missing column is numeric, all NaN", () => {
    const b = new ColumnBuilder("x", 2, markers, undefined, at);
    b.setText(0, "?");
    const c = b.finish(2);
    assert.equal(c.type, "numeric");
    assert.ok(c.type === "numeric" && c.values.every(Number.isNaN));
  });

  test("forcing numeric on a non-number names the column, value and row", () => {
    const b = new ColumnBuilder("密度", 2, markers, "numeric", at);
    b.setText(0, "0.5");
    throwsDataError(() => b.setText(1, "heavy"), "column_types.密度", '"heavy"', "rows[1]", "密度");
  });

  test("checkColumnTypes refuses unknown columns and unknown types", () => {
    checkColumnTypes({ a: "numeric" }, ["a", "b"]);
    throwsDataError(() => checkColumnTypes({ c: "numeric" }, ["a"]), "column_types.c", '"c"');
    throwsDataError(() => checkColumnTypes({ a: "text" }, ["a"]), "column_types.a", "numeric");
  });
});
