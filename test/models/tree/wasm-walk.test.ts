/**
 * The WebAssembly walk of batches (wasm-walk.ts) against the JavaScript walk single rows
 * take (predict.ts): the same labels, probabilities and values to the last bit, on rows
 * spanning several of its blocks, with missing values and a categorical column handing rows
 * over to the general walk, and with trees taking turns in its memory.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { cart } from "../../../src/models/tree/cart.js";
import { WASM_WALK } from "../../../src/models/tree/wasm-walk.js";
import type { Column, Frame } from "../../../src/data/frame.js";
import { makeFrame, takeRows } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import type { Prediction } from "../../../src/models/contract.js";
import type { TreeState } from "../../../src/models/tree/tree-state.js";
import { ctx } from "./fixtures.js";

const ROWS = 3000;
const FEATURES = 30;

function data(): { X: Frame; y: Int32Array; value: Float64Array } {
  const rng = createRng(11);
  const columns: Column[] = Array.from({ length: FEATURES }, (_, j) => ({
    type: "numeric" as const,
    name: `x${j}`,
    values: Float64Array.from({ length: ROWS }, () => (rng.next() < 0.03 ? NaN : rng.normal())),
  }));
  const codes = Int32Array.from({ length: ROWS }, () => (rng.next() < 0.05 ? -1 : rng.int(4)));
  columns.push({ type: "categorical", name: "c", levels: ["a", "b", "c", "d"], codes });
  const X = makeFrame(columns);
  const x = (j: number, i: number) => (columns[j] as { values: Float64Array }).values[i] || 0;
  const value = Float64Array.from({ length: ROWS }, (_, i) => x(0, i) + x(1, i) * x(2, i) + (codes[i] === 1 ? 1 : 0) + 0.3 * rng.normal());
  const y = Int32Array.from(value, (v) => (v < -0.5 ? 0 : v < 0.5 ? 1 : 2));
  return { X, y, value };
}

function sameAsRowByRow(s: TreeState, X: Frame): void {
  const batch = cart.predict(s, X);
  for (let i = 0; i < X.rowCount; i++) {
    const one = cart.predict(s, takeRows(X, [i]));
    if (batch.task === "classification" && one.task === "classification") {
      assert.equal(one.labels[0], batch.labels[i], `row ${i}`);
      const K = s.classes.length;
      assert.deepEqual(Array.from(one.proba as Float64Array), Array.from((batch.proba as Float64Array).subarray(K * i, K * i + K)), `row ${i}`);
    } else assert.ok(Object.is((one as Extract<Prediction, { task: "regression" }>).values[0], (batch as Extract<Prediction, { task: "regression" }>).values[i]), `row ${i}`);
  }
}

/** X with a third of its numeric values replaced by thresholds the tree tests on that feature: ties go left in both walks. */
function onThresholds(s: TreeState, X: Frame): Frame {
  const rng = createRng(5);
  const byFeature: number[][] = X.columns.map(() => []);
  for (let node = 0; node < s.kind.length; node++) if (s.kind[node] === 1) byFeature[s.feature[node]].push(s.threshold[node]);
  const columns = X.columns.map((c, j) => {
    const t = byFeature[j];
    if (c.type !== "numeric" || t.length === 0) return c;
    return { ...c, values: Float64Array.from(c.values, (v) => (rng.next() < 1 / 3 ? t[rng.int(t.length)] : v)) };
  });
  return makeFrame(columns);
}

describe("the WebAssembly walk of batches", () => {
  test("is available (so the comparisons below compare two walks)", () => {
    assert.ok(WASM_WALK);
  });

  test("equals the single-row walk: classification and regression, missing values, a categorical column, trees taking turns", () => {
    const { X, y, value } = data();
    const train = takeRows(X, Int32Array.from({ length: 2000 }, (_, i) => i));
    const classes = ["low", "mid", "high"];
    const classifier = cart.fit({ X: train, target: { task: "classification", y: y.subarray(0, 2000), classes } }, cart.params.parse({}), ctx());
    const regressor = cart.fit({ X: train, target: { task: "regression", y: value.subarray(0, 2000) } }, cart.params.parse({}), ctx());
    assert.ok(classifier.kind.length > 200 && regressor.kind.length > 200);
    assert.ok(Array.from(classifier.kind).includes(2), "the categorical column is tested somewhere");
    // A block holds 2^18 bytes of the tested columns and the NaN one: with 20 or more tested, the 3,000 rows span several blocks.
    for (const s of [classifier, regressor]) assert.ok(new Set(s.feature.filter((_, node) => s.kind[node] === 1)).size >= 20);
    sameAsRowByRow(classifier, onThresholds(classifier, X));
    sameAsRowByRow(regressor, onThresholds(regressor, X));
    sameAsRowByRow(classifier, X);
  });
});
