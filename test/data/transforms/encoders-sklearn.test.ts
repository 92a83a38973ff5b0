/** impute and one_hot against scikit-learn 1.2's SimpleImputer and OneHotEncoder(handle_unknown="ignore"). */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, sortLevels, type Column, type Frame } from "../../../src/data/frame.js";
import { impute, indicatorName } from "../../../src/data/transforms/impute.js";
import { oneHot } from "../../../src/data/transforms/one-hot.js";
import { throwsDataError, texts } from "../helpers.js";
import { assertClose, assertSameFrame, columnOf, frameOf, sklearnFixture, throughArtifact, valuesOf } from "./sklearn.js";

const fx = sklearnFixture("impute.json");
const names: string[] = fx.columns;

/** Categorical frame from rows of level texts (the fixture's nulls read as NaN: missing). */
function categorical(rows: unknown[][], columns: readonly string[]): Frame {
  return makeFrame(
    columns.map((name, j): Column => {
      const levels = sortLevels(rows.map((r) => r[j]).filter((v): v is string => typeof v === "string"));
      return { type: "categorical", name, levels, codes: Int32Array.from(rows, (r) => (typeof r[j] === "string" ? levels.indexOf(r[j] as string) : -1)) };
    }),
  );
}

describe("impute against SimpleImputer", () => {
  const train = frameOf(fx.train, names);
  const later = frameOf(fx.test, names);
  for (const [key, c] of Object.entries<{ strategy: string; add_indicator: boolean; statistics: number[]; train_out: number[][]; test_out: number[][] }>(fx.cases)) {
    test(`${key}: fill values, filled rows${c.add_indicator ? ", indicator columns after each column that had gaps" : ""}`, () => {
      const spec = impute.spec.parse({ numeric_strategy: c.strategy, numeric_fill_value: -1, add_indicator: c.add_indicator });
      const fitted = impute.fit(train, spec);
      assertClose(
        fitted.columns.map((col) => (col.type === "numeric" ? col.value : NaN)),
        c.statistics,
        1e-12,
        "statistics",
      );
      const outTrain = impute.apply(fitted, train);
      const outLater = impute.apply(fitted, later);
      // scikit-learn puts the indicators after all columns, for the columns with gaps in training (a and c).
      const expectedNames = c.add_indicator ? ["a", indicatorName("a"), "b", "c", indicatorName("c")] : names;
      assert.deepEqual(
        outTrain.columns.map((col) => col.name),
        expectedNames,
      );
      const sklearnOrder = c.add_indicator ? ["a", "b", "c", indicatorName("a"), indicatorName("c")] : names;
      sklearnOrder.forEach((name, j) => {
        assertClose(valuesOf(outTrain, name), columnOf(c.train_out, j), 1e-12, `${key} train ${name}`);
        assertClose(valuesOf(outLater, name), columnOf(c.test_out, j), 1e-12, `${key} test ${name}`);
      });
      assertSameFrame(impute.apply(throughArtifact(impute.fitted, fitted), later), outLater);
    });
  }

  test("categorical most_frequent: the same levels as scikit-learn", () => {
    const cat = fx.categorical;
    const train = categorical(cat.train, cat.columns);
    const fitted = impute.fit(train, impute.spec.parse({}));
    assert.deepEqual(
      fitted.columns.map((col) => (col.type === "categorical" ? col.levels[col.fill] : null)),
      cat.most_frequent,
    );
    const later = categorical(cat.test, cat.columns);
    // 中 and 紫 were never seen in training: they count as missing and are filled too.
    assert.deepEqual(texts(impute.apply(fitted, later), "colour"), ["绿", "红", "红"]);
    assert.deepEqual(texts(impute.apply(fitted, later), "size"), ["大", "小", "大"]);
    const withIndicator = impute.apply(impute.fit(train, impute.spec.parse({ add_indicator: true })), later);
    assert.deepEqual([...valuesOf(withIndicator, indicatorName("colour"))], [0, 1, 1]);
  });

  test("an indicator name that is already a column is a DataError at add_indicator", () => {
    const f = frameOf(
      [
        [1, 0],
        [NaN, 1],
      ],
      ["a", indicatorName("a")],
    );
    throwsDataError(() => impute.fit(f, impute.spec.parse({ add_indicator: true })), "add_indicator", indicatorName("a"));
  });
});

describe("one_hot against OneHotEncoder(handle_unknown='ignore')", () => {
  test("column names and rows; an unseen level is all zeros", () => {
    const oh = fx.one_hot;
    const train = categorical(oh.train, ["colour", "size"]);
    const later = categorical(oh.test, ["colour", "size"]);
    const fitted = oneHot.fit(train, oneHot.spec.parse({}));
    const out = oneHot.apply(fitted, later);
    // scikit-learn names them colour_红; xigua column=level.
    assert.deepEqual(
      out.columns.map((c) => c.name.replace("=", "_")),
      oh.names,
    );
    oh.names.forEach((_: string, j: number) => assert.deepEqual([...(out.columns[j].type === "numeric" ? out.columns[j].values : [])], columnOf(oh.test_out, j)));
    assertSameFrame(oneHot.apply(throughArtifact(oneHot.fitted, fitted), later), out);
  });
});
