/**
 * Stacking's no-leakage rule: the meta-feature of a training row never comes from a
 * member fitted on it. Proved with members that remember their rows (fully grown trees,
 * which predict a training row's own label with certainty) on labels that are pure
 * noise: in-sample meta-features would match every label, out-of-fold ones match at chance.
 * And each row's meta-feature is reproduced by a member refitted on the other folds.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, takeRows } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import type { TrainingSet } from "../../../src/models/contract.js";
import { memberRng } from "../../../src/models/ensemble/bootstrap.js";
import { resolveLearner, subsetTarget } from "../../../src/models/ensemble/members.js";
import { outOfFold, stacking, stackingFolds, stackingParams, MAX_CV } from "../../../src/models/ensemble/stacking.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { ctx, realData } from "../tree/fixtures.js";

function noise(n: number, seed: number): TrainingSet {
  const rng = createRng(seed);
  const cols = Array.from({ length: 4 }, (_, j) => ({ type: "numeric" as const, name: `x${j}`, values: Float64Array.from({ length: n }, () => rng.normal()) }));
  return { X: makeFrame(cols), target: { task: "classification", y: Int32Array.from({ length: n }, () => (rng.next() < 0.5 ? 1 : 0)), classes: ["a", "b"] } };
}

describe("stacking: no leakage", () => {
  const data = noise(400, 1);
  const y = (data.target as { y: Int32Array }).y;
  const cart = resolveLearner({ algorithm: "cart", params: {} }, "classification");
  const folds = stackingFolds(data.target!, 5, createRng(2));

  test("memorising members: in-sample they match every noise label, out of fold only at chance", () => {
    const inSample = cart.algorithm.predict(cart.algorithm.fit(data, cart.params, ctx(0)), data.X) as { labels: Int32Array };
    assert.equal(inSample.labels.filter((l, i) => l === y[i]).length, 400, "a fully grown tree remembers its rows");
    const { columns } = outOfFold([cart], data, folds, 5, 9);
    // Two classes: one column, P(class b).
    const agree = columns[0].filter((p, i) => (p > 0.5 ? 1 : 0) === y[i]).length / 400;
    assert.ok(agree > 0.38 && agree < 0.62, `out-of-fold agreement ${agree}`);
  });

  test("each row's meta-feature is the prediction of the member fitted on the other folds", () => {
    const { columns } = outOfFold([cart], data, folds, 5, 9);
    for (let f = 0; f < 5; f++) {
      const inside = [...Array(400).keys()].filter((i) => folds[i] !== f);
      const outside = [...Array(400).keys()].filter((i) => folds[i] === f);
      const s = cart.algorithm.fit({ X: takeRows(data.X, inside), target: subsetTarget(data.target!, inside) }, cart.params, { rng: memberRng(9, 1 + f), progress: () => {} });
      const p = cart.algorithm.predict(s, takeRows(data.X, outside)) as { proba: Float64Array };
      outside.forEach((r, k) => assert.equal(columns[0][r], p.proba[2 * k + 1], `row ${r}`));
    }
  });

  test("folds are stratified: each class spread evenly", () => {
    for (let f = 0; f < 5; f++) {
      const ones = [...Array(400).keys()].filter((i) => folds[i] === f && y[i] === 1).length;
      const total = [...Array(400).keys()].filter((i) => folds[i] === f).length;
      assert.ok(Math.abs(total - 80) <= 1 && Math.abs(ones - y.reduce((a, b) => a + b, 0) / 5) <= 1, `fold ${f}: ${ones}/${total}`);
    }
    assert.ok(MAX_CV >= 5);
  });
});

describe("stacking", () => {
  test("same seed, same model; save → load, same predictions; passthrough adds the features", () => {
    const iris = realData("iris");
    for (const raw of [{}, { passthrough: true, cv: 3 }]) {
      const params = stackingParams.parse(raw);
      const a = stacking.fit(iris.train, params, ctx(4));
      assert.equal(JSON.stringify(encodeState(a)), JSON.stringify(encodeState(stacking.fit(iris.train, params, ctx(4)))));
      const loaded = stacking.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(a)))));
      assert.deepEqual(stacking.predict(loaded, iris.testX), stacking.predict(a, iris.testX));
      assert.equal(a.meta_features.length, 9 + ("passthrough" in raw ? 4 : 0));
    }
  });

  test("a bad final estimator param is an issue at final_estimator.params.<field>", () => {
    const r = stackingParams.safeParse({ final_estimator: { algorithm: "ridge", params: { alpha: -1 } } });
    assert.deepEqual(r.error?.issues[0].path, ["final_estimator", "params", "alpha"]);
  });
});
