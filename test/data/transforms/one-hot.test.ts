import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { oneHot } from "../../../src/data/transforms/one-hot.js";
import { getTransform } from "../../../src/data/transforms/index.js";
import { readCsv } from "../../../src/data/read-csv.js";
import { takeRows } from "../../../src/data/frame.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { fixture, numeric, throwsDataError } from "../helpers.js";

const w3 = readCsv(fixture("watermelon-3.0.csv"));

describe("one_hot", () => {
  test("is registered by name with a strict spec", () => {
    assert.equal(getTransform("one_hot"), oneHot);
    assert.deepEqual(oneHot.spec.parse({}), { min_frequency: null, min_frequency_fraction: null, max_categories: null, handle_unknown: "ignore" });
    assert.equal(oneHot.spec.safeParse({ drop: "first" }).success, false);
  });

  test("watermelon 3.0: each categorical column becomes col=level indicators in its place", () => {
    const fitted = oneHot.fit(w3, oneHot.spec.parse({ columns: ["色泽", "好瓜"] }));
    const out = oneHot.apply(fitted, w3);
    assert.deepEqual(
      out.columns.map((c) => c.name),
      ["编号", "色泽=乌黑", "色泽=浅白", "色泽=青绿", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率", "好瓜=否", "好瓜=是"],
    );
    // Rows 1-3 of the table: 青绿, 乌黑, 乌黑.
    assert.deepEqual([...numeric(out, "色泽=青绿").slice(0, 3)], [1, 0, 0]);
    assert.deepEqual([...numeric(out, "色泽=乌黑").slice(0, 3)], [0, 1, 1]);
    assert.equal(numeric(out, "好瓜=是").reduce((a, b) => a + b), 8);
    assert.equal(out.columns[9], w3.columns[7], "untouched columns are the same objects");
  });

  test("default: every categorical column; numeric ones stay", () => {
    const out = oneHot.apply(oneHot.fit(w3, oneHot.spec.parse({})), w3);
    assert.ok(out.columns.every((c) => c.type === "numeric"));
    // Five attributes of 3 levels, 触感 and 好瓜 of 2, and 编号 密度 含糖率.
    assert.equal(out.columns.length, 5 * 3 + 2 + 2 + 3);
  });

  test("missing and unseen levels are all zeros; only levels seen in training get a column", () => {
    const f = readCsv("c\na\nb\n-\nz\n");
    const fitted = oneHot.fit(takeRows(f, [0, 2]), oneHot.spec.parse({}));
    assert.deepEqual(fitted, { columns: [{ name: "c", levels: ["a"], infrequent: [] }], handle_unknown: "ignore" });
    const out = oneHot.apply(fitted, f);
    assert.deepEqual(out.columns.map((c) => c.name), ["c=a"]);
    assert.deepEqual([...numeric(out, "c=a")], [1, 0, 0, 0]);
  });

  test("refuses numeric columns, unknown columns and name clashes", () => {
    throwsDataError(() => oneHot.fit(w3, oneHot.spec.parse({ columns: ["密度"] })), "columns[0]", "numeric");
    throwsDataError(() => oneHot.fit(w3, oneHot.spec.parse({ columns: ["重量"] })), "columns[0]", '"重量"');
    throwsDataError(() => oneHot.fit(readCsv("c,c=a\na,1\n"), oneHot.spec.parse({})), "columns", '"c=a"');
  });

  test("fitted state round-trips through the artifact codec and its schema", () => {
    const fitted = oneHot.fit(w3, oneHot.spec.parse({}));
    const back = oneHot.fitted.parse(decodeState(JSON.parse(JSON.stringify(encodeState(fitted)))));
    assert.deepEqual(oneHot.apply(back, w3), oneHot.apply(fitted, w3));
  });
});
