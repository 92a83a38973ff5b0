import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readCsv } from "../../../src/data/read-csv.js";
import { takeRows } from "../../../src/data/frame.js";
import { ordinal } from "../../../src/data/transforms/ordinal.js";
import { fixture, throwsDataError } from "../helpers.js";
import { assertSameFrame, throughArtifact, valuesOf } from "./sklearn.js";

const melons = readCsv(fixture("watermelon-2.0.csv"));

describe("ordinal", () => {
  test("an explicit order: 浅白 < 青绿 < 乌黑 → 0, 1, 2 (rows 1–3: 青绿, 乌黑, 乌黑)", () => {
    const fitted = ordinal.fit(melons, ordinal.spec.parse({ categories: { 色泽: ["浅白", "青绿", "乌黑"] } }));
    const out = ordinal.apply(fitted, melons);
    assert.deepEqual([...valuesOf(out, "色泽")].slice(0, 3), [1, 2, 2]);
    assert.equal(out.columns.find((c) => c.name === "根蒂")?.type, "numeric", "the other categorical columns by default, in sorted order");
  });

  test("default order: the sorted levels seen in the training rows; unseen and missing become NaN", () => {
    const f = readCsv("size\nM\nS\n-\nL\n");
    const fitted = ordinal.fit(takeRows(f, [0, 1]), ordinal.spec.parse({}));
    assert.deepEqual(fitted.columns[0].levels, ["M", "S"]);
    assert.deepEqual([...valuesOf(ordinal.apply(fitted, f), "size")], [0, 1, NaN, NaN]);
  });

  test("a training level missing from the order, or a numeric column, is a DataError at categories.<column>", () => {
    throwsDataError(() => ordinal.fit(melons, ordinal.spec.parse({ categories: { 色泽: ["浅白", "青绿"] } })), "categories.色泽", "乌黑");
    throwsDataError(() => ordinal.fit(readCsv("x\n1\n"), ordinal.spec.parse({ categories: { x: ["1"] } })), "categories.x", "numeric");
    throwsDataError(
      () => ordinal.plan!(ordinal.spec.parse({ categories: { c: ["a"] } }), [{ name: "c", type: "categorical", levels: ["a", "b"] }]),
      "categories.c",
      '"b"',
    );
    assert.equal(ordinal.spec.safeParse({ categories: { c: ["a", "a"] } }).success, false);
  });

  test("save → load → identical transform", () => {
    const fitted = ordinal.fit(melons, ordinal.spec.parse({ categories: { 色泽: ["浅白", "青绿", "乌黑"] } }));
    assertSameFrame(ordinal.apply(throughArtifact(ordinal.fitted, fitted), melons), ordinal.apply(fitted, melons));
  });
});
