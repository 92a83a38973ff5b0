import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { impute } from "../../../src/data/transforms/impute.js";
import { readCsv } from "../../../src/data/read-csv.js";
import { countMissing, takeRows } from "../../../src/data/frame.js";
import { encodeRows } from "../../../src/data/rows.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { fixture, numeric, texts, throwsDataError } from "../helpers.js";

const alpha = readCsv(fixture("watermelon-2.0-alpha.csv"));

describe("impute", () => {
  test("spec defaults and strictness", () => {
    assert.deepEqual(impute.spec.parse({}), {
      numeric_strategy: "mean",
      categorical_strategy: "most_frequent",
      numeric_fill_value: 0,
      categorical_fill_value: "missing",
      add_indicator: false,
    });
    assert.equal(impute.spec.safeParse({ strategy: "mean" }).success, false);
    assert.equal(impute.spec.safeParse({ numeric_strategy: "mode" }).success, false);
  });

  test("watermelon 2.0-alpha: each categorical column filled with its most frequent level", () => {
    const fitted = impute.fit(alpha, impute.spec.parse({}));
    const out = impute.apply(fitted, alpha);
    for (const c of out.columns) assert.equal(countMissing(c), 0, c.name);
    // 色泽: 乌黑 6, 青绿 4, 浅白 4 among the 14 known; rows 1, 5, 13 were missing.
    assert.deepEqual(texts(out, "色泽").slice(0, 5), ["乌黑", "乌黑", "乌黑", "青绿", "乌黑"]);
    assert.equal(texts(out, "色泽")[12], "乌黑");
    // 触感: 硬滑 10, 软粘 5.
    assert.equal(texts(out, "触感")[1], "硬滑");
    assert.deepEqual(out.columns.map((c) => c.name), alpha.columns.map((c) => c.name));
    const only = impute.apply(impute.fit(alpha, impute.spec.parse({ columns: ["色泽"] })), alpha);
    assert.equal(only.columns[2], alpha.columns[2], "a column not named is the same object");
  });

  test("numeric mean, median and constant, fitted on training rows only", () => {
    const f = readCsv("x,y\n1,a\n,b\n3,a\n10,\n");
    const train = takeRows(f, [0, 1, 2]);
    const mean = impute.fit(train, impute.spec.parse({}));
    assert.deepEqual(mean.columns[0], { name: "x", type: "numeric", value: 2, indicator: false });
    assert.deepEqual([...numeric(impute.apply(mean, f), "x")], [1, 2, 3, 10]);
    const median = impute.fit(f, impute.spec.parse({ numeric_strategy: "median" }));
    assert.deepEqual([...numeric(impute.apply(median, f), "x")], [1, 3, 3, 10]);
    const even = impute.fit(readCsv("x\n1\n2\n4\n10\n\n"), impute.spec.parse({ numeric_strategy: "median" }));
    assert.equal(even.columns[0].type === "numeric" && even.columns[0].value, 3);
    const constant = impute.fit(f, impute.spec.parse({ numeric_strategy: "constant", numeric_fill_value: -1, categorical_strategy: "constant" }));
    assert.deepEqual([...numeric(impute.apply(constant, f), "x")], [1, -1, 3, 10]);
    const filled = impute.apply(constant, f);
    assert.deepEqual(texts(filled, "y"), ["a", "b", "a", "missing"]);
    assert.deepEqual(filled.columns[1].type === "categorical" && filled.columns[1].levels, ["a", "b", "missing"]);
  });

  test("columns all missing in training: numeric → 0, categorical → first level, or the constant without levels", () => {
    const f = readCsv("x,y,z\n,a,\n,b,\n5,,\n", { columnTypes: { z: "categorical" } });
    const fitted = impute.fit(takeRows(f, [0, 1]), impute.spec.parse({ columns: ["x", "z"] }));
    assert.deepEqual(fitted.columns, [
      { name: "x", type: "numeric", value: 0, indicator: false },
      { name: "z", type: "categorical", levels: ["missing"], fill: 0, indicator: false },
    ]);
    const y = impute.fit(takeRows(f, [2]), impute.spec.parse({ columns: ["y"] }));
    assert.deepEqual(y.columns[0], { name: "y", type: "categorical", levels: ["a", "b"], fill: 0, indicator: false });
    const out = impute.apply(fitted, f);
    assert.deepEqual([...numeric(out, "x")], [0, 0, 5]);
    assert.deepEqual(texts(out, "y"), ["a", "b", null], "y was not named, so it is untouched");
  });

  test("at predict time an unseen category counts as missing and is filled", () => {
    const fitted = impute.fit(alpha, impute.spec.parse({ columns: ["纹理"] }));
    const schema = [{ name: "纹理", type: "categorical" as const, levels: ["模糊", "清晰", "稍糊"] }];
    const rows = encodeRows([{ 纹理: "光滑" }, { 纹理: null }, { 纹理: "模糊" }], schema);
    // 纹理 in alpha: 清晰 7, 稍糊 5, 模糊 3.
    assert.deepEqual(texts(impute.apply(fitted, rows), "纹理"), ["清晰", "清晰", "模糊"]);
  });

  test("translates by level text when the frame has other levels", () => {
    const fitted = impute.fit(readCsv("c\na\nb\nb\n"), impute.spec.parse({}));
    const other = readCsv("c\nz\nb\n-\n");
    assert.deepEqual(texts(impute.apply(fitted, other), "c"), ["b", "b", "b"]);
  });

  test("errors name the column", () => {
    throwsDataError(() => impute.fit(alpha, impute.spec.parse({ columns: ["色泽", "重量"] })), "columns[1]", '"重量"');
    const fitted = impute.fit(alpha, impute.spec.parse({ columns: ["色泽"] }));
    throwsDataError(() => impute.apply(fitted, readCsv("x\n1\n")), "色泽", "no column");
    throwsDataError(() => impute.apply(fitted, readCsv("色泽\n1\n")), "色泽", "numeric");
  });

  test("fitted state round-trips through the artifact codec and its schema", () => {
    const fitted = impute.fit(alpha, impute.spec.parse({}));
    const back = impute.fitted.parse(decodeState(JSON.parse(JSON.stringify(encodeState(fitted)))));
    assert.deepEqual(impute.apply(back, alpha), impute.apply(fitted, alpha));
    assert.equal(impute.fitted.safeParse({ columns: [{ name: "c", type: "categorical", levels: ["a"], fill: 1 }] }).success, false);
  });
});
