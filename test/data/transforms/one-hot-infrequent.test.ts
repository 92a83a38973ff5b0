/** one_hot's rare-level grouping against scikit-learn's OneHotEncoder(min_frequency, max_categories, handle_unknown). */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, sortLevels, type Column, type Frame } from "../../../src/data/frame.js";
import { infrequentName, oneHot } from "../../../src/data/transforms/one-hot.js";
import { assertClose, assertSameFrame, columnOf, sklearnFixture, throughArtifact, valuesOf } from "./sklearn.js";

const fx = sklearnFixture("one_hot_infrequent.json");
const names: string[] = fx.columns;

function categorical(rows: string[][]): Frame {
  return makeFrame(
    names.map((name, j): Column => {
      const levels = sortLevels(rows.map((r) => r[j]));
      return { type: "categorical", name, levels, codes: Int32Array.from(rows, (r) => levels.indexOf(r[j])) };
    }),
  );
}

/** scikit-learn's a_apple / a_infrequent_sklearn as one_hot names them. */
function ourName(sklearnName: string): string {
  const cut = sklearnName.indexOf("_");
  const column = sklearnName.slice(0, cut);
  const level = sklearnName.slice(cut + 1);
  return level === "infrequent_sklearn" ? infrequentName(column) : `${column}=${level}`;
}

describe("one_hot: rare levels grouped as scikit-learn's OneHotEncoder groups them", () => {
  const train = categorical(fx.train);
  const later = categorical(fx.test);
  for (const [key, c] of Object.entries<{ options: Record<string, unknown>; infrequent: string[][]; feature_names: string[]; train_out: number[][]; test_out: number[][] }>(fx.cases)) {
    test(`${key}: the same infrequent levels, columns and rows`, () => {
      const { min_frequency, ...rest } = c.options as { min_frequency?: number };
      const fraction = typeof min_frequency === "number" && !Number.isInteger(min_frequency);
      const spec = oneHot.spec.parse({ ...rest, ...(min_frequency === undefined ? {} : fraction ? { min_frequency_fraction: min_frequency } : { min_frequency }) });
      const fitted = oneHot.fit(train, spec);
      assert.deepEqual(
        fitted.columns.map((col) => col.infrequent),
        c.infrequent,
      );
      const outTrain = oneHot.apply(fitted, train);
      const outLater = oneHot.apply(fitted, later);
      assert.deepEqual(
        outTrain.columns.map((col) => col.name),
        c.feature_names.map(ourName),
      );
      c.feature_names.forEach((name, j) => {
        assertClose(valuesOf(outTrain, ourName(name)), columnOf(c.train_out, j), 0, `${key} train ${name}`);
        assertClose(valuesOf(outLater, ourName(name)), columnOf(c.test_out, j), 0, `${key} test ${name}`);
      });
      assertSameFrame(oneHot.apply(throughArtifact(oneHot.fitted, fitted), later), outLater);
    });
  }

  test("a count and a share of the rows are two options, not both at once; bounds are enforced", () => {
    assert.equal(oneHot.spec.safeParse({ min_frequency: 2, min_frequency_fraction: 0.1 }).success, false);
    assert.equal(oneHot.spec.safeParse({ min_frequency: 0.5 }).success, false);
    assert.equal(oneHot.spec.safeParse({ min_frequency_fraction: 1 }).success, false);
    assert.equal(oneHot.spec.safeParse({ max_categories: 0 }).success, false);
    assert.equal(oneHot.spec.safeParse({ handle_unknown: "error" }).success, false);
  });

  test("artifacts saved before the options load with no infrequent group and unknown levels ignored", () => {
    const old = oneHot.fitted.parse({ columns: [{ name: "a", levels: ["kiwi"] }] });
    assert.deepEqual(old, { columns: [{ name: "a", levels: ["kiwi"], infrequent: [] }], handle_unknown: "ignore" });
  });
});
