/**
 * train_metrics (issue 18: "training-set error beside the validation error on every
 * evaluation"): each fold also scores its fit on its own training rows, so over-fitting is
 * the gap between train_metrics and metrics. Checked where the training score is known: a
 * 1-nearest-neighbour classifier and a fully grown tree recall iris's training rows exactly,
 * least squares fits an exact line exactly; a stump's training score is what it is on each
 * fold; leave-one-out has none; a semi-supervised fold scores its labelled rows only.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readCsv } from "../../src/data/read-csv.js";
import { learningData } from "../../src/training/dataset-view.js";
import { resolveSpec, type TrainRequest } from "../../src/training/spec.js";
import { evaluateSpec } from "../../src/training/train.js";
import { TRAIN_SCORE_ROWS, trainingRowsToScore } from "../../src/training/validate.js";
import { fixture } from "../data/helpers.js";
import { datasetColumns } from "./helpers-artifact.js";

const hooks = { progress: () => {} };
const iris = readCsv(fixture("iris.csv"));

function evaluate(csv: ReturnType<typeof readCsv>, request: TrainRequest) {
  return evaluateSpec(csv, resolveSpec({ seed: 4, ...request }, datasetColumns(csv), "evaluate"), hooks).evaluation;
}

describe("train_metrics beside the validation metrics", () => {
  test("1-NN and a fully grown tree recall iris's training rows: train accuracy 1 in every fold, above the validation accuracy", () => {
    for (const request of [
      { algorithm: "knn", params: { n_neighbors: 1 } },
      { algorithm: "cart", params: {} },
    ]) {
      const e = evaluate(iris, { ...request, target: "target", validation: { method: "kfold", k: 5, stratify: true } });
      assert.equal(e.train_metrics?.accuracy, 1, request.algorithm);
      assert.ok(e.metrics.accuracy! < 1, `${request.algorithm}: validation ${e.metrics.accuracy}`);
      for (const fold of e.folds ?? []) {
        assert.equal(fold.train_metrics?.accuracy, 1);
        assert.deepEqual(Object.keys(fold.train_metrics ?? {}).sort(), Object.keys(fold.metrics).sort(), "the same metrics on both sides");
      }
    }
  });

  test("least squares on an exact line: train r2 1 and mse 0; holdout reports its one fit's", () => {
    const csv = readCsv(Buffer.from(["x,y", ...Array.from({ length: 40 }, (_, i) => `${i},${3 * i - 2}`)].join("\n")));
    for (const validation of [{ method: "kfold", k: 4 }, { method: "holdout", test_size: 0.25 }]) {
      const e = evaluate(csv, { algorithm: "linear_regression", target: "y", validation });
      assert.ok(Math.abs(e.train_metrics!.r2! - 1) < 1e-12, JSON.stringify(e.train_metrics));
      assert.ok(e.train_metrics!.mse! < 1e-18);
    }
  });

  test("a depth-1 stump's training accuracy is below 1 and the mean of its folds'", () => {
    const e = evaluate(iris, { algorithm: "cart", target: "target", params: { max_depth: 1 }, validation: { method: "kfold", k: 5, stratify: true } });
    const folds = (e.folds ?? []).map((f) => f.train_metrics!.accuracy!);
    assert.equal(folds.length, 5);
    // A stump separates one species from the other two: two thirds of any stratified training part.
    for (const a of folds) assert.ok(Math.abs(a - 2 / 3) < 1e-12, `fold training accuracy ${a}`);
    assert.ok(Math.abs(e.train_metrics!.accuracy! - folds.reduce((s, a) => s + a, 0) / 5) < 1e-12);
  });

  test("leave-one-out reports none (n fits each predicting n − 1 rows would be quadratic)", () => {
    const small = readCsv(Buffer.from(["x,y", ...Array.from({ length: 12 }, (_, i) => `${i},${i % 3 === 0 ? "a" : "b"}`)].join("\n")));
    const e = evaluate(small, { algorithm: "cart", target: "y", validation: { method: "loo" } });
    assert.equal(e.train_metrics, undefined);
    assert.ok((e.folds ?? []).every((f) => f.train_metrics === undefined));
  });

  test("a semi-supervised fold scores its labelled training rows only", () => {
    const lines = ["x1,x2,y"];
    for (let i = 0; i < 60; i++) lines.push(`${i % 2 ? 5 + (i % 7) * 0.1 : (i % 5) * 0.1},${i % 2 ? 5 : 0},${i % 4 === 3 ? "" : i % 2 ? "b" : "a"}`);
    const e = evaluate(readCsv(Buffer.from(lines.join("\n"))), { algorithm: "label_propagation", target: "y", validation: { method: "kfold", k: 3, stratify: true } });
    assert.equal(e.train_metrics?.accuracy, 1, JSON.stringify(e.train_metrics));
  });
});

describe("which training rows a fold scores", () => {
  const labelledData = (n: number) => learningData(readCsv(Buffer.from(["x,y", ...Array.from({ length: n }, (_, i) => `${i},${i % 2 ? "a" : "b"}`)].join("\n"))), ["x"], "y", "classification");
  test("all of them up to the cap; above it an evenly spaced sample of exactly the cap; bootstrap all; loo none", () => {
    const data = labelledData(30);
    const train = Int32Array.from({ length: 30 }, (_, i) => i);
    assert.equal(trainingRowsToScore("kfold", data, train), train);
    assert.equal(trainingRowsToScore("loo", data, train), null);
    const big = Int32Array.from({ length: 3 * TRAIN_SCORE_ROWS + 7 }, (_, i) => i % 30);
    const sample = trainingRowsToScore("kfold", data, big)!;
    assert.equal(sample.length, TRAIN_SCORE_ROWS);
    assert.equal(sample[0], big[0]);
    assert.equal(trainingRowsToScore("bootstrap", data, big), big);
  });
});
