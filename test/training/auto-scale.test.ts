/**
 * The automatic scale step (issue 20): svm and mlp with default parameters on a table
 * in mixed units (penguins: millimetres beside grams) do as well as after an explicit
 * `scale` step; auto_scale: false gives the unscaled fit; the step is on the model,
 * standardises the numeric inputs only, and stands aside for a scale step of the client's.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readCsv } from "../../src/data/read-csv.js";
import { summarizeColumn } from "../../src/data/summary.js";
import { describePipeline } from "../../src/training/pipeline.js";
import { resolveSpec, type TrainRequest } from "../../src/training/spec.js";
import { evaluateSpec, trainModel } from "../../src/training/train.js";
import { fixture } from "../data/helpers.js";

const penguins = readCsv(fixture("penguins.csv"));
const dataset = { row_count: penguins.rowCount, columns: penguins.columns.map(summarizeColumn) };
const NUMERIC = ["Beak Length (mm)", "Beak Depth (mm)", "Flipper Length (mm)", "Body Mass (g)"];
const hooks = { progress: () => {} };

function accuracy(request: Partial<TrainRequest>): number {
  const spec = resolveSpec({ target: "Species", seed: 20, validation: { method: "kfold", k: 10, stratify: true }, algorithm: "svm", ...request }, dataset, "evaluate");
  return evaluateSpec(penguins, spec, hooks).evaluation.metrics.accuracy!;
}

function pipelineOf(request: Partial<TrainRequest>) {
  const spec = resolveSpec({ target: "Species", seed: 20, validation: { method: "none" }, algorithm: "svm", ...request }, dataset);
  return describePipeline(trainModel(penguins, spec, hooks).model.pipeline);
}

describe("penguins, 10-fold CV: defaults reach ≥ 0.98 of the accuracy after an explicit scale step", () => {
  for (const algorithm of ["svm", "mlp"]) {
    test(algorithm, () => {
      const defaults = accuracy({ algorithm });
      const scaled = accuracy({ algorithm, preprocessing: [{ step: "scale" }] });
      assert.ok(defaults >= 0.98 * scaled, `${algorithm}: defaults ${defaults.toFixed(4)}, explicit scale ${scaled.toFixed(4)}`);
    });
  }
});

test("auto_scale: false fits on the raw units, as before the step existed", () => {
  const raw = accuracy({ algorithm: "svm", auto_scale: false });
  // Measured before issue 20 (0.7297 here; scikit-learn's SVC on the raw columns: 0.73).
  assert.ok(Math.abs(raw - 0.7297) < 0.005, `svm with auto_scale false: ${raw.toFixed(4)}`);
  assert.deepEqual(
    pipelineOf({ auto_scale: false }).map((s) => s.step),
    ["impute", "one_hot"],
  );
});

test("the step is listed on the model: automatic, after impute and one_hot, on the numeric inputs and not the indicators", () => {
  const steps = pipelineOf({});
  assert.deepEqual(
    steps.map((s) => [s.step, s.automatic]),
    [
      ["impute", true],
      ["one_hot", true],
      ["scale", true],
    ],
  );
  const scale = steps[2];
  assert.deepEqual((scale.options as { columns: string[] }).columns, NUMERIC);
  const fitted = scale.fitted as { method: string; mean: Record<string, number>; scale: Record<string, number> };
  assert.equal(fitted.method, "standard");
  assert.deepEqual(Object.keys(fitted.mean), NUMERIC);
  assert.ok(fitted.scale["Body Mass (g)"] > 100 && fitted.scale["Beak Depth (mm)"] < 10, JSON.stringify(fitted.scale));
});

test("a scale step of the client's replaces it; a learner that is not scale-sensitive never gets it", () => {
  const own = pipelineOf({ preprocessing: [{ step: "scale", method: "minmax" }] });
  assert.deepEqual(
    own.map((s) => [s.step, s.automatic]),
    [
      ["scale", false],
      ["impute", true],
      ["one_hot", true],
    ],
  );
  assert.deepEqual(
    pipelineOf({ algorithm: "cart" }).map((s) => s.step),
    [],
  );
  assert.deepEqual(
    pipelineOf({ algorithm: "linear_regression", target: "Body Mass (g)" }).map((s) => s.step),
    ["impute", "one_hot"],
  );
});
