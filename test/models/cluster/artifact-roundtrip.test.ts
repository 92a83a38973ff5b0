/**
 * Every clustering algorithm through the pipeline (automatic impute, one-hot and scale in
 * front) and the artifact format: serialize → load gives the same state, the same training
 * labels and, where the method predicts, identical predictions for raw rows (categories,
 * blanks). test/training/artifact-roundtrip.test.ts covers the supervised tasks only.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { frameSchema } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { readCsv } from "../../../src/data/read-csv.js";
import { encodeRows } from "../../../src/data/rows.js";
import { selectColumns } from "../../../src/data/frame.js";
import { listAlgorithms } from "../../../src/models/registry.js";
import { loadArtifact, serializeArtifact, type FittedModel } from "../../../src/training/artifact.js";
import { fitPipeline, predictPipeline } from "../../../src/training/pipeline.js";
import { generatedTable } from "../../training/helpers-artifact.js";

const table = readCsv(generatedTable());
const X = selectColumns(table, ["x1", "x2", "g"]);
const rows = [{ x1: 1, x2: 0.5, g: "u" }, { x1: null, x2: 3 }, { g: "never seen" }, { x1: 5.5, x2: -2, g: "w" }];
/** Small enough for 60 rows (kmeans' default 8 clusters fit too; gmm and agnes take 3). */
const PARAMS: Record<string, Record<string, unknown>> = { gmm: { n_components: 3 }, agnes: { cut: { kind: "n_clusters", n_clusters: 3 } }, dbscan: { eps: 0.9, min_samples: 3 } };

for (const algorithm of listAlgorithms().filter((a) => a.tasks.includes("clustering"))) {
  // A transductive method (agnes) has no predictions to compare: its artifact is checked by its steps and training labels.
  test(`${algorithm.name}: serialize → load → same state, training labels and predictions`, () => {
    const params = algorithm.params.parse(PARAMS[algorithm.name] ?? {}) as Record<string, unknown>;
    const pipeline = fitPipeline(algorithm, params, [], { X, target: null }, { rng: createRng(5), progress: () => {} });
    const model: FittedModel = { algorithm, params, task: "clustering", features: frameSchema(X), target: null, classes: null, positiveClass: null, classCounts: null, pipeline, trainedAt: "2026-01-01T00:00:00Z" };
    const loaded = loadArtifact(serializeArtifact(model).bytes);
    assert.deepEqual(loaded.pipeline, pipeline);
    assert.equal(algorithm.trainingLabels!(loaded.pipeline.state).length, 60);
    assert.deepEqual(algorithm.trainingLabels!(loaded.pipeline.state), algorithm.trainingLabels!(pipeline.state));
    if (algorithm.transductive) return;
    const before = predictPipeline(algorithm, pipeline, encodeRows(rows, model.features));
    assert.deepEqual(predictPipeline(loaded.algorithm, loaded.pipeline, encodeRows(rows, loaded.features)), before);
  });
}
