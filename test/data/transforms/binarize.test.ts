import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readCsv } from "../../../src/data/read-csv.js";
import { binarize } from "../../../src/data/transforms/binarize.js";
import { throwsDataError } from "../helpers.js";
import { assertSameFrame, columnOf, frameOf, sklearnFixture, throughArtifact, valuesOf } from "./sklearn.js";

const fx = sklearnFixture("scalers.json");

describe("binarize", () => {
  test("scikit-learn's Binarizer(threshold=1.5): strictly above → 1", () => {
    const frame = frameOf(fx.binarize.input, fx.columns);
    const out = binarize.apply(binarize.fit(frame, binarize.spec.parse({ threshold: 1.5 })), frame);
    fx.columns.forEach((name: string, j: number) => assert.deepEqual([...valuesOf(out, name)], columnOf(fx.binarize.out, j)));
  });

  test("per-column thresholds override the default; a missing cell stays missing; categorical columns pass through", () => {
    const f = readCsv("x,y,z\n1,5,a\n3,,b\n2,7,a\n");
    const fitted = binarize.fit(f, binarize.spec.parse({ threshold: 2, thresholds: { y: 6 } }));
    assert.deepEqual([...fitted.thresholds], [2, 6]);
    const out = binarize.apply(fitted, f);
    assert.deepEqual([...valuesOf(out, "x")], [0, 1, 0]);
    assert.deepEqual([...valuesOf(out, "y")], [0, NaN, 1]);
    assert.equal(out.columns[2], f.columns[2]);
    const only = binarize.fit(f, binarize.spec.parse({ columns: ["x"], thresholds: { y: 6 } }));
    assert.deepEqual(only.columns, ["x", "y"], "a column given a threshold is binarized even when columns does not name it");
  });

  test("errors name the field: an unknown or categorical column in thresholds", () => {
    const f = readCsv("x,z\n1,a\n3,b\n");
    throwsDataError(() => binarize.fit(f, binarize.spec.parse({ thresholds: { w: 1 } })), "thresholds.w", "not a column");
    throwsDataError(() => binarize.fit(f, binarize.spec.parse({ thresholds: { z: 1 } })), "thresholds.z", "categorical");
  });

  test("save → load → identical transform", () => {
    const frame = frameOf(fx.binarize.input, fx.columns);
    const fitted = binarize.fit(frame, binarize.spec.parse({ threshold: 0.5 }));
    assertSameFrame(binarize.apply(throughArtifact(binarize.fitted, fitted), frame), binarize.apply(fitted, frame));
  });
});
