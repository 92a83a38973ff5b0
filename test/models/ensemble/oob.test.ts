/**
 * The out-of-bag estimate (seed 002): on a 10,000-row generated table it lies within
 * 0.03 of the score on 5,000 fresh rows from the same distribution, and each member
 * leaves out about 1/e of the rows (a row escapes n draws with probability (1 − 1/n)^n).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, type Frame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import type { Target, TrainingSet } from "../../../src/models/contract.js";
import { bagging, baggingParams } from "../../../src/models/ensemble/bagging.js";
import { randomForest, randomForestParams } from "../../../src/models/ensemble/random-forest.js";
import { accuracy, ctx, r2 } from "../tree/fixtures.js";

/** Five informative features and three noise ones; classes from a noisy nonlinear score, or the score itself. */
function generated(n: number, seed: number, task: "classification" | "regression"): { X: Frame; target: Target } {
  const rng = createRng(seed);
  const cols = Array.from({ length: 8 }, () => new Float64Array(n));
  const score = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (const c of cols) c[i] = rng.normal();
    score[i] = cols[0][i] + Math.sin(2 * cols[1][i]) + cols[2][i] * cols[3][i] - Math.abs(cols[4][i]) + 0.6 * rng.normal();
  }
  const X = makeFrame(cols.map((values, j) => ({ type: "numeric" as const, name: `x${j}`, values })));
  if (task === "regression") return { X, target: { task, y: score } };
  return { X, target: { task, y: Int32Array.from(score, (s) => (s > -0.8 ? (s > 0.8 ? 2 : 1) : 0)), classes: ["a", "b", "c"] } };
}

const E = Math.exp(-1);

function heldOut(task: "classification" | "regression", predict: (X: Frame) => Float64Array | Int32Array): number {
  const test = generated(5000, 99, task);
  const p = predict(test.X);
  return task === "classification" ? accuracy(p as Int32Array, test.target.y as Int32Array) : r2(p as Float64Array, test.target.y as Float64Array);
}

describe("out-of-bag estimates on 10,000 rows", () => {
  test("random_forest, classification", () => {
    const train: TrainingSet = generated(10_000, 1, "classification");
    const s = randomForest.fit(train, randomForestParams.parse({ n_estimators: 40 }), ctx(1));
    const oob = s.oob!;
    const held = heldOut("classification", (X) => (randomForest.predict(s, X) as { labels: Int32Array }).labels);
    assert.equal(oob.metric, "accuracy");
    assert.ok(Math.abs((oob.score as number) - held) < 0.03, `oob ${oob.score} vs held-out ${held}`);
    assert.ok(Math.abs(oob.share_out_of_bag - E) < 0.005, `share ${oob.share_out_of_bag} vs 1/e`);
    assert.equal(oob.rows_scored, 10_000);
  });

  test("random_forest, regression", () => {
    const train: TrainingSet = generated(10_000, 2, "regression");
    const s = randomForest.fit(train, randomForestParams.parse({ n_estimators: 80, max_features_fraction: 0.5, min_samples_leaf: 5 }), ctx(2));
    const held = heldOut("regression", (X) => (randomForest.predict(s, X) as { values: Float64Array }).values);
    assert.equal(s.oob!.metric, "r2");
    assert.ok(Math.abs((s.oob!.score as number) - held) < 0.03, `oob ${s.oob!.score} vs held-out ${held}`);
  });

  test("bagging of cart, classification", () => {
    const train: TrainingSet = generated(10_000, 3, "classification");
    const s = bagging.fit(train, baggingParams.parse({ n_estimators: 25 }), ctx(3));
    const held = heldOut("classification", (X) => (bagging.predict(s, X) as { labels: Int32Array }).labels);
    assert.ok(Math.abs((s.oob!.score as number) - held) < 0.03, `oob ${s.oob!.score} vs held-out ${held}`);
    assert.ok(Math.abs(s.oob!.share_out_of_bag - E) < 0.005, `share ${s.oob!.share_out_of_bag} vs 1/e`);
  });

  test("no bootstrap and no subsample: no out-of-bag estimate", () => {
    const train: TrainingSet = generated(300, 4, "classification");
    assert.equal(randomForest.fit(train, randomForestParams.parse({ n_estimators: 3, bootstrap: false }), ctx(1)).oob, null);
    const half = randomForest.fit(train, randomForestParams.parse({ n_estimators: 20, bootstrap: false, max_samples: 0.5 }), ctx(1)).oob!;
    assert.ok(Math.abs(half.share_out_of_bag - 0.5) < 1e-9, `${half.share_out_of_bag}`);
  });
});
