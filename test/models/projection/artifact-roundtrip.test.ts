/**
 * Every projection algorithm through the pipeline (automatic impute, one-hot and scale in
 * front) and the artifact format: serialize → load gives the same state and identical
 * projections of raw rows (categories, blanks); the same seed gives the same model, bit for
 * bit; the state schema refuses a state whose shapes disagree; explain stays within max_values.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { frameSchema, selectColumns } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { readCsv } from "../../../src/data/read-csv.js";
import { encodeRows } from "../../../src/data/rows.js";
import type { Target } from "../../../src/models/contract.js";
import { listAlgorithms } from "../../../src/models/registry.js";
import { loadArtifact, serializeArtifact, type FittedModel } from "../../../src/training/artifact.js";
import { fitPipeline, predictPipeline } from "../../../src/training/pipeline.js";
import { generatedTable } from "../../training/helpers-artifact.js";

const table = readCsv(generatedTable());
const X = selectColumns(table, ["x1", "x2", "g"]);
/** The classes lda_projection and nca_projection are fitted against (accepts.classes). */
const label = table.columns.find((c) => c.name === "label")!;
const classes: Target = label.type === "categorical" ? { task: "classification", y: Int32Array.from(label.codes), classes: [...label.levels] } : assert.fail("label is categorical");
const rows = [{ x1: 1, x2: 0.5, g: "u" }, { x1: null, x2: 3 }, { g: "never seen" }, { x1: 5.5, x2: -2, g: "w" }];
/** mds with fewer landmarks than rows, so the seeded draw is exercised. */
const PARAMS: Record<string, Record<string, unknown>> = { mds: { max_landmarks: 40 }, kernel_pca: { n_components: 3 } };

const numbersIn = (value: unknown): number => (typeof value === "number" ? 1 : value && typeof value === "object" ? Object.values(value).reduce((s: number, v) => s + numbersIn(v), 0) : 0);

for (const algorithm of listAlgorithms().filter((a) => a.tasks.includes("projection"))) {
  const params = algorithm.params.parse(PARAMS[algorithm.name] ?? {}) as Record<string, unknown>;
  const fit = (seed: number) => fitPipeline(algorithm, params, [], { X, target: algorithm.accepts.classes ? classes : null }, { rng: createRng(seed), progress: () => {} });

  test(`${algorithm.name}: serialize → load → same state and projections; same seed → same artifact`, () => {
    const pipeline = fit(5);
    const model: FittedModel = { algorithm, params, task: "projection", features: frameSchema(X), target: null, classes: null, positiveClass: null, classCounts: null, pipeline, trainedAt: "2026-01-01T00:00:00Z" };
    const { bytes } = serializeArtifact(model);
    const loaded = loadArtifact(bytes);
    assert.deepEqual(loaded.pipeline, pipeline);
    const before = predictPipeline(algorithm, pipeline, encodeRows(rows, model.features));
    assert.equal(before.task, "projection");
    if (before.task !== "projection") return;
    assert.equal(before.dims, algorithm.outputNames!(pipeline.state).length);
    assert.ok(before.values.every(Number.isFinite));
    assert.deepEqual(predictPipeline(loaded.algorithm, loaded.pipeline, encodeRows(rows, loaded.features)), before);
    assert.ok(serializeArtifact({ ...model, pipeline: fit(5) }).bytes.equals(bytes), "same seed, same bytes");
  });

  test(`${algorithm.name}: a state whose arrays do not match its shapes is refused; explain is bounded by max_values`, () => {
    const state = fit(5).state as Record<string, unknown>;
    assert.ok(algorithm.state.safeParse(state).success);
    assert.equal(algorithm.state.safeParse({ ...state, features: [...(state.features as string[]), "extra"] }).success, false);
    const all = algorithm.explain!(state, { maxValues: 100_000 });
    const one = algorithm.explain!(state, { maxValues: 1 });
    // Every default fit here lists at least two eigenvalues (or variances), so one allowed value leaves some out.
    assert.ok(numbersIn(one) < numbersIn(all), `${numbersIn(one)} vs ${numbersIn(all)}`);
    assert.match(JSON.stringify(one), /truncated/, "what was left out is flagged");
  });
}
