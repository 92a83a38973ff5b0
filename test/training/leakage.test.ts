/**
 * No leakage: in k-fold validation each fold fits its own preprocessing on its own
 * training rows. A learner that records the (scaled) rows it is given lets us
 * read back each fold's fitted scaler and compare it with that fold's rows.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { readCsv } from "../../src/data/read-csv.js";
import type { Algorithm } from "../../src/models/contract.js";
import { learningData } from "../../src/training/dataset-view.js";
import { resolveSteps } from "../../src/training/pipeline.js";
import type { ResolvedSpec } from "../../src/training/train.js";
import { planSplits, runValidation } from "../../src/training/validate.js";
import type { Validation } from "../../src/training/validation.js";
import { fixture } from "../data/helpers.js";

const FEATURE = "sepal length (cm)";

const cases = [
  { label: "a scale step of the client's", scaleSensitive: false, steps: [{ step: "scale", method: "standard" }] },
  { label: "the automatic scale step of a scale-sensitive learner", scaleSensitive: true, steps: [] },
];

for (const { label, scaleSensitive, steps } of cases) test(`k-fold, ${label}: the scaler of fold i has the mean and standard deviation of fold i's training rows, not of all rows`, () => {
  const frame = readCsv(fixture("iris.csv"));
  const features = frame.columns.filter((c) => c.name !== "target").map((c) => c.name);
  const data = learningData(frame, features, "target", "classification");
  const fits: Float64Array[] = [];
  const predictions: Float64Array[] = [];
  const column = (X: { columns: readonly { name: string; type: string; values?: Float64Array }[] }) => X.columns.find((c) => c.name === FEATURE)!.values!;
  const recorder: Algorithm = {
    name: "recorder",
    family: "test",
    tasks: ["classification"],
    description: "remembers what it is given",
    params: z.object({}).strict(),
    state: z.object({}),
    accepts: { categorical: true, missing: true, weights: false },
    scaleSensitive,
    fit(train) {
      fits.push(Float64Array.from(column(train.X)));
      return {};
    },
    predict(_state, X) {
      predictions.push(Float64Array.from(column(X)));
      return { task: "classification", labels: new Int32Array(X.rowCount) };
    },
  };
  const validation: Validation = { method: "kfold", k: 5, stratify: true, repeats: 1 };
  const spec: ResolvedSpec = {
    algorithm: recorder,
    params: {},
    task: "classification",
    target: "target",
    features,
    steps: resolveSteps(steps),
    autoScale: true,
    leftOutIdentifiers: [],
    validation,
    seed: 17,
    positiveClass: null,
  };
  runValidation(spec, data, { progress: () => {} }, 0);

  // The splits runValidation drew (planSplits is how it draws them).
  const splits = planSplits(spec, data);
  const raw = column(data.X);
  const mean = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, b) => a + b, 0) / xs.length;
  const allMean = mean(raw);
  assert.equal(fits.length, 5);
  assert.equal(predictions.length, 10);
  splits.forEach((split, f) => {
    const trainRaw = Array.from(split.train, (i) => raw[i]);
    const testRaw = Array.from(split.test, (i) => raw[i]);
    const foldMean = mean(trainRaw);
    const foldStd = Math.sqrt(mean(trainRaw.map((x) => (x - foldMean) ** 2)));
    // z = (x − μ) / σ on two held-out rows with different values gives back the fitted μ and σ.
    // Each fold predicts its test rows, then its own training rows (train_metrics), both through the fold's scaler.
    const z = predictions[2 * f];
    assert.deepEqual(predictions[2 * f + 1], fits[f], "the training rows are scored as they were fitted");
    const a = 0;
    const b = testRaw.findIndex((x) => x !== testRaw[0]);
    const sigma = (testRaw[a] - testRaw[b]) / (z[a] - z[b]);
    const mu = testRaw[a] - sigma * z[a];
    assert.ok(Math.abs(mu - foldMean) < 1e-9, `fold ${f}: fitted mean ${mu}, training rows' mean ${foldMean}`);
    assert.ok(Math.abs(sigma - foldStd) < 1e-9, `fold ${f}: fitted std ${sigma}, training rows' std ${foldStd}`);
    assert.ok(Math.abs(foldMean - allMean) > 1e-6, `fold ${f}: its training mean should differ from the all-rows mean`);
    // And the rows the learner was fitted on are exactly the fold's training rows, scaled by those numbers.
    assert.equal(fits[f].length, split.train.length);
    fits[f].forEach((v, t) => assert.ok(Math.abs(v - (trainRaw[t] - foldMean) / foldStd) < 1e-9));
  });
});
