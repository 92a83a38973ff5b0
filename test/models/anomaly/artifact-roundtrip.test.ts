/**
 * Every anomaly algorithm through the pipeline (automatic impute and one-hot in front) and the
 * artifact format: serialize → load gives the same state and identical scores and flags of raw
 * rows (categories, blanks, an unseen level); the same seed gives the same bytes; an artifact
 * whose state was tampered with is refused.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { frameSchema, selectColumns } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { readCsv } from "../../../src/data/read-csv.js";
import { encodeRows } from "../../../src/data/rows.js";
import { listAlgorithms } from "../../../src/models/registry.js";
import { loadArtifact, serializeArtifact, type FittedModel } from "../../../src/training/artifact.js";
import { fitPipeline, predictPipeline } from "../../../src/training/pipeline.js";
import { generatedTable } from "../../training/helpers-artifact.js";

const table = readCsv(generatedTable());
const X = selectColumns(table, ["x1", "x2", "g"]);
const rows = [{ x1: 1, x2: 0.5, g: "u" }, { x1: null, x2: 3 }, { g: "never seen" }, { x1: 1e6, x2: -2, g: "w" }];

for (const algorithm of listAlgorithms().filter((a) => a.tasks.includes("anomaly"))) {
  const params = algorithm.params.parse({ n_estimators: 25, contamination: 0.1 }) as Record<string, unknown>;
  const fit = (seed: number) => fitPipeline(algorithm, params, [], { X, target: null }, { rng: createRng(seed), progress: () => {} });
  const modelOf = (seed: number): FittedModel => ({ algorithm, params, task: "anomaly", features: frameSchema(X), target: null, classes: null, positiveClass: null, classCounts: null, pipeline: fit(seed), trainedAt: "2026-01-01T00:00:00Z" });

  test(`${algorithm.name}: serialize → load → same state, scores and flags; same seed → same bytes`, () => {
    const model = modelOf(5);
    const { bytes } = serializeArtifact(model);
    const loaded = loadArtifact(bytes);
    assert.deepEqual(loaded.pipeline, model.pipeline);
    const before = predictPipeline(algorithm, model.pipeline, encodeRows(rows, model.features));
    assert.equal(before.task, "anomaly");
    if (before.task !== "anomaly") return;
    assert.ok(before.scores.every((s) => s > 0 && s <= 1));
    assert.deepEqual(predictPipeline(loaded.algorithm, loaded.pipeline, encodeRows(rows, loaded.features)), before);
    assert.ok(serializeArtifact(modelOf(5)).bytes.equals(bytes), "same seed, same bytes");
    assert.ok(!serializeArtifact(modelOf(6)).bytes.equals(bytes), "another seed, another forest");
  });

  test(`${algorithm.name}: an artifact whose trees point outside the features is refused`, () => {
    const model = modelOf(5);
    const state = model.pipeline.state as { trees: { feature: Int32Array }[] };
    const tampered = { ...model, pipeline: { ...model.pipeline, state: { ...state, trees: state.trees.map((t) => ({ ...t, feature: Int32Array.from(t.feature, (f) => (f >= 0 ? 10_000 : f)) })) } } };
    assert.throws(() => loadArtifact(serializeArtifact(tampered).bytes), /splits on feature/);
  });
}
