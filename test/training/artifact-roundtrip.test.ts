/**
 * A model's own artifact always loads again, and predicts exactly as the fitted
 * model did: every registered algorithm, on a generated table with categorical
 * and missing cells (three classes, so the multiclass wrappers are exercised; two for the
 * two-class tsvm), with and without a user preprocessing step.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeRows } from "../../src/data/rows.js";
import { listAlgorithms } from "../../src/models/registry.js";
import { loadArtifact, serializeArtifact } from "../../src/training/artifact.js";
import { predictPipeline } from "../../src/training/pipeline.js";
import { generatedTable, trainOn } from "./helpers-artifact.js";

const table = generatedTable();
const TWO_CLASS = new Set(["tsvm"]);
const rows = [{ x1: 1, x2: 0.5, g: "u" }, { x1: null, x2: 3 }, { g: "never seen" }, { x1: 5.5, x2: -2, g: "w" }];

for (const algorithm of listAlgorithms()) {
  for (const task of ["classification", "regression"] as const) {
    if (!algorithm.tasks.includes(task)) continue;
    for (const preprocessing of [[], [{ step: "scale", columns: ["x1", "x2"] }]]) {
      const label = `${algorithm.name} (${task}${preprocessing.length ? ", scaled" : ""})`;
      test(`${label}: serialize → load → identical predictions`, () => {
        const target = task === "classification" ? (TWO_CLASS.has(algorithm.name) ? "pair" : "label") : "y";
        const result = trainOn(table, { algorithm: algorithm.name, target, features: ["x1", "x2", "g"], preprocessing });
        const { bytes, sha256 } = serializeArtifact(result.model);
        const loaded = loadArtifact(bytes);
        assert.equal(loaded.sha256, sha256);
        const X = encodeRows(rows, result.model.features);
        const before = predictPipeline(result.model.algorithm, result.model.pipeline, X);
        const after = predictPipeline(loaded.algorithm, loaded.pipeline, encodeRows(rows, loaded.features));
        assert.deepEqual(after, before);
        // Saving what was loaded and loading it again gives the same state: nothing is lost or added by a round trip.
        assert.deepEqual(loadArtifact(serializeArtifact(loaded).bytes).pipeline, loaded.pipeline);
      });
    }
  }
}

// Parameters the loop above leaves at their defaults: perceptron node tests and leaves keep extra state (tree-state.ts leafModels).
test("oblique_tree with perceptron splits and leaves (classification, through one-hot and imputation): serialize → load → identical predictions", () => {
  const result = trainOn(table, { algorithm: "oblique_tree", target: "label", features: ["x1", "x2", "g"], params: { split: "perceptron", leaf_model: "perceptron", max_depth: 2 } });
  const state = result.model.pipeline.state as { leafModels?: Float64Array };
  assert.ok(state.leafModels && state.leafModels.length > 0, "the fitted tree has perceptron leaves");
  const loaded = loadArtifact(serializeArtifact(result.model).bytes);
  const before = predictPipeline(result.model.algorithm, result.model.pipeline, encodeRows(rows, result.model.features));
  assert.deepEqual(predictPipeline(loaded.algorithm, loaded.pipeline, encodeRows(rows, loaded.features)), before);
});
