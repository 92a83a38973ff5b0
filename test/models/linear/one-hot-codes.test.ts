/**
 * one_hot's columns read from their block's codes (data/indicator-columns.ts) against the
 * same cells as plain arrays the registry does not know (the scanning path, the reference):
 * the layout, moments, fits of ridge and logistic regression and their predictions must be
 * the same bits, on random tables with random level counts, missing cells, unseen levels at
 * prediction and rare levels grouped by min_frequency / max_categories. one_hot's columns are
 * lazy (their cells written only when read): ridge and logistic regression fit and predict
 * without writing those of the blocks they keep as codes.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, type Column, type Frame } from "../../../src/data/frame.js";
import { indicatorRows, indicatorWritten, isIndicatorColumn } from "../../../src/data/indicator-columns.js";
import { createRng, type Rng } from "../../../src/data/random.js";
import { oneHot } from "../../../src/data/transforms/one-hot.js";
import { moments, numericDesign } from "../../../src/models/linear/design.js";
import { indicatorLayout } from "../../../src/models/linear/indicators.js";
import { logisticRegression } from "../../../src/models/linear/logistic-regression.js";
import { ridge } from "../../../src/models/linear/ridge.js";
import { classificationSet, ctx, regressionSet } from "./helpers.js";

/** Two numeric columns around a categorical column of `levels` levels (some missing) and a second one of 3–8. */
function table(rng: Rng, n: number, levels: number): { X: Frame; y: Float64Array; labels: Int32Array } {
  const numeric = (name: string): Column => ({ type: "numeric", name, values: Float64Array.from({ length: n }, () => 50 * rng.normal() + 7) });
  // Skewed level frequencies, so min_frequency / max_categories group a real tail.
  const categorical = (name: string, k: number, missing: number): Column => ({
    type: "categorical",
    name,
    levels: Array.from({ length: k }, (_, l) => `${name}${String(l).padStart(3, "0")}`),
    codes: Int32Array.from({ length: n }, () => (rng.next() < missing ? -1 : Math.floor(k * rng.next() ** 2))),
  });
  const a = numeric("a");
  const c1 = categorical("c", levels, 0.1);
  const b = numeric("b");
  const c2 = categorical("d", 3 + Math.floor(6 * rng.next()), 0.05);
  const X = makeFrame([a, c1, b, c2]);
  const codes = (c: Column) => (c.type === "categorical" ? c.codes : new Int32Array(0));
  const va = (a as { values: Float64Array }).values;
  const y = Float64Array.from({ length: n }, (_, i) => 0.02 * va[i] + (codes(c1)[i] % 5) - 0.5 * codes(c2)[i] + rng.normal());
  const labels = Int32Array.from(y, (v) => (v < 0 ? 0 : v < 2 ? 1 : 2));
  return { X, y, labels };
}

/** The same cells in fresh arrays: not in the registry, so every consumer scans them. */
function unregistered(X: Frame): Frame {
  return makeFrame(X.columns.map((c) => (c.type === "numeric" ? { ...c, values: Float64Array.from(c.values) } : c)));
}

function encode(train: Frame, later: Frame, options: Record<string, unknown>): { fitTo: Frame; predictOn: Frame } {
  const spec = oneHot.spec.parse(options);
  const fitted = oneHot.fit(train, spec);
  return { fitTo: oneHot.apply(fitted, train), predictOn: oneHot.apply(fitted, later) };
}

const CASES: Record<string, unknown>[] = [{}, { min_frequency: 4 }, { max_categories: 12 }, { min_frequency: 3, handle_unknown: "infrequent_if_exist" }];

describe("one_hot columns read from their codes give what scanning their cells gives", () => {
  for (let trial = 0; trial < 4; trial++) {
    const rng = createRng(100 + trial);
    const n = 150 + Math.floor(300 * rng.next());
    const levels = 5 + Math.floor(60 * rng.next());
    const { X, y, labels } = table(rng, n, levels);
    const cut = Math.floor(0.8 * n);
    const rows = (from: number, to: number): Frame =>
      makeFrame(X.columns.map((c) => (c.type === "numeric" ? { ...c, values: c.values.slice(from, to) } : { ...c, codes: c.codes.slice(from, to) })));
    const train = rows(0, cut);
    const later = rows(cut, n);
    for (const options of CASES) {
      test(`table ${trial} (${n} rows, ${levels} levels), one_hot ${JSON.stringify(options)}`, () => {
        const { fitTo, predictOn } = encode(train, later, options);
        // Copies from a second encoding: reading the cells of fitTo's own columns would write them.
        const copies = encode(train, later, options);
        const plainFit = unregistered(copies.fitTo);
        const plainPredict = unregistered(copies.predictOn);
        const registered = fitTo.columns.filter((c) => c.type === "numeric" && isIndicatorColumn(c));
        assert.ok(registered.length >= 6, "the one_hot outputs are known by their codes");
        assert.ok(plainFit.columns.every((c) => c.type !== "numeric" || indicatorRows(c.values) === null), "copies are not");

        const design = numericDesign(fitTo, "test");
        const plain = numericDesign(plainFit, "test");
        const layout = indicatorLayout(design.sources, design.n);
        assert.deepEqual(layout, indicatorLayout(plain.columns, plain.n));
        assert.deepEqual(moments(design.sources, design.n), moments(plain.columns, plain.n));
        // The columns of the blocks kept as codes, whose cells no fit or prediction below may write.
        const coded = new Set(layout.groups.flatMap((g) => Array.from(g.columns, (j) => design.names[j])));
        const unwritten = (F: Frame) => F.columns.filter((c) => coded.has(c.name)).every((c) => c.type === "numeric" && !indicatorWritten(c));

        const yTrain = y.slice(0, cut);
        for (const alpha of [0, 1]) {
          const params = ridge.params.parse({ alpha });
          const a = ridge.fit(regressionSet(fitTo, yTrain), params, ctx());
          const b = ridge.fit(regressionSet(plainFit, yTrain), params, ctx());
          assert.deepEqual(a, b, `ridge alpha ${alpha}`);
          assert.deepEqual(ridge.predict(a, predictOn), ridge.predict(b, plainPredict));
        }
        const set = (F: Frame) => classificationSet(F, labels.slice(0, cut), ["0", "1", "2"]);
        const params = logisticRegression.params.parse({ max_iter: 30 });
        const a = logisticRegression.fit(set(fitTo), params, ctx());
        const b = logisticRegression.fit(set(plainFit), params, ctx());
        assert.deepEqual(a, b, "logistic_regression");
        assert.deepEqual(logisticRegression.predict(a, predictOn), logisticRegression.predict(b, plainPredict));
        assert.deepEqual(logisticRegression.predict(a, fitTo), logisticRegression.predict(b, plainFit));
        assert.ok(coded.size > 0 && unwritten(fitTo) && unwritten(predictOn), "no one-hot block kept as codes was written");
        // Reading the cells writes exactly the 0/1 column (the copies' cells are the reference).
        const cells = (c: Column | undefined) => (c?.type === "numeric" ? c.values : null);
        for (const c of registered) assert.deepEqual(cells(c), cells(plainFit.columns.find((d) => d.name === c.name)));
      });
    }
  }
});
