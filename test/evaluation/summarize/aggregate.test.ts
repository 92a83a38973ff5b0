import { test } from "node:test";
import assert from "node:assert/strict";
import { aggregateFolds } from "../../../src/evaluation/index.js";
import { assertClose } from "../helpers.js";

test("aggregateFolds: mean and population std per metric; nulls left out", () => {
  const r = aggregateFolds([
    { accuracy: 0.8, auc: 0.9, r2: null },
    { accuracy: 0.9, auc: null, r2: null },
    { accuracy: 0.7, auc: 0.7, r2: null },
  ]);
  assertClose(r.mean.accuracy, 0.8, 1e-15, "mean");
  assertClose(r.std.accuracy, Math.sqrt(0.02 / 3), 1e-15, "std divides by n (numpy's np.std)");
  assertClose(r.mean.auc, 0.8, 1e-15, "auc mean over the two folds that have it");
  assertClose(r.std.auc, 0.1, 1e-15, "auc std");
  assert.equal(r.mean.r2, null);
  assert.equal(r.std.r2, null);
  assert.deepEqual(Object.keys(r.mean), ["accuracy", "auc", "r2"]);
});

test("aggregateFolds of one fold: std 0", () => {
  assert.deepEqual(aggregateFolds([{ mse: 2 }]), { mean: { mse: 2 }, std: { mse: 0 } });
});
