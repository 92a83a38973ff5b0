import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { baseline } from "../../../src/models/baseline/baseline.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { makeFrame } from "../../../src/data/frame.js";
import { ctx, realData, watermelon, accuracy } from "../tree/fixtures.js";

function roundTrip<S>(state: S): S {
  return baseline.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(state))))) as S;
}

describe("baseline", () => {
  test("params are a strict empty object", () => {
    assert.deepEqual(baseline.params.parse({}), {});
    assert.throws(() => baseline.params.parse({ max_depth: 3 }));
  });

  test("watermelon 2.0: most frequent class 否 (9 of 17), probabilities are the priors", () => {
    const t = watermelon("2.0");
    const s = baseline.fit(t, {}, ctx());
    const p = baseline.predict(s, t.X);
    assert.equal(p.task, "classification");
    if (p.task !== "classification") return;
    assert.deepEqual([...new Set(p.labels)], [0]);
    assert.ok(Math.abs((p.proba as Float64Array)[0] - 9 / 17) < 1e-12);
    assert.ok(Math.abs((p.proba as Float64Array)[1] - 8 / 17) < 1e-12);
  });

  test("weights move the majority and the priors", () => {
    const t = watermelon("2.0");
    const y = (t.target as { y: Int32Array }).y;
    const weights = Float64Array.from(y, (c) => (c === 1 ? 3 : 1)); // 8 good × 3 = 24 against 9 bad
    const s = baseline.fit({ ...t, weights }, {}, ctx());
    const p = baseline.predict(s, t.X);
    if (p.task !== "classification") throw new Error("classification expected");
    assert.equal(p.labels[0], 1);
    assert.ok(Math.abs((p.proba as Float64Array)[1] - 24 / 33) < 1e-12);
  });

  test("regression predicts the weighted mean", () => {
    const X = makeFrame([{ type: "numeric", name: "x", values: new Float64Array(4) }]);
    const target = { task: "regression" as const, y: Float64Array.from([1, 2, 3, 10]) };
    const s = baseline.fit({ X, target, weights: Float64Array.from([1, 1, 1, 0]) }, {}, ctx());
    const p = baseline.predict(s, X);
    assert.deepEqual(p.task === "regression" && [...p.values], [2, 2, 2, 2]);
  });

  test("iris: accuracy is the majority share of the test split (the floor every learner must beat)", () => {
    const d = realData("iris");
    const s = baseline.fit(d.train, {}, ctx());
    const p = baseline.predict(s, d.testX);
    if (p.task !== "classification" || d.testTarget.task !== "classification") throw new Error("classification expected");
    const acc = accuracy(p.labels, d.testTarget.y);
    assert.ok(acc > 0.3 && acc < 0.36, `accuracy ${acc}`);
  });

  test("save → load gives identical predictions; same data → same state", () => {
    const t = watermelon("3.0");
    const s = baseline.fit(t, {}, ctx(1));
    const back = roundTrip(s);
    assert.deepEqual(baseline.predict(back, t.X), baseline.predict(s, t.X));
    assert.deepEqual(encodeState(baseline.fit(t, {}, ctx(2))), encodeState(s));
  });
});
