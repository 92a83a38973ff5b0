/**
 * A large predict batch may be cut into row ranges predicted on separate threads and joined
 * (src/training/predict-chunks.ts, the compute pool's split). That is only sound if every
 * algorithm predicts a row from that row alone: for every registered algorithm and each of its
 * tasks, the joined predictions of three ranges equal the whole batch's, bit for bit (raw rows
 * with blanks and an unseen level, through the automatic steps).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { frameSchema, selectColumns } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import { readCsv } from "../../src/data/read-csv.js";
import { encodeRows } from "../../src/data/rows.js";
import type { Algorithm, Target, Task } from "../../src/models/contract.js";
import { listAlgorithms } from "../../src/models/registry.js";
import { fitPipeline, predictPipeline, type FittedPipeline } from "../../src/training/pipeline.js";
import { concatPredictions, rowRanges, sliceRows } from "../../src/training/predict-chunks.js";
import { generatedTable, trainOn } from "./helpers-artifact.js";

const csv = generatedTable();
const table = readCsv(csv);
const X = selectColumns(table, ["x1", "x2", "g"]);
const label = table.columns.find((c) => c.name === "label")!;
const classes: Target = label.type === "categorical" ? { task: "classification", y: Int32Array.from(label.codes), classes: [...label.levels] } : assert.fail("label is categorical");
/** 37 rows: the table's own cells shifted, every 7th blank, every 11th an unseen level. */
const rows = Array.from({ length: 37 }, (_, i) => ({ x1: i % 7 === 3 ? null : ((i * 13) % 29) / 4, x2: ((i * 5) % 19) / 3 - 2.5, g: i % 11 === 4 ? "never seen" : ["u", "v", "w"][i % 3] }));
const TWO_CLASS = new Set(["tsvm"]);
/** Unsupervised params small enough for 60 rows (as the artifact round-trip tests use). */
const PARAMS: Record<string, Record<string, unknown>> = { gmm: { n_components: 3 }, dbscan: { eps: 0.9, min_samples: 3 }, mds: { max_landmarks: 40 }, kernel_pca: { n_components: 3 }, isolation_forest: { n_estimators: 25 } };

function fitted(algorithm: Algorithm, task: Task): FittedPipeline {
  if (task === "classification" || task === "regression") {
    const target = task === "classification" ? (TWO_CLASS.has(algorithm.name) ? "pair" : "label") : "y";
    return trainOn(csv, { algorithm: algorithm.name, target, features: ["x1", "x2", "g"] }).model.pipeline;
  }
  const params = algorithm.params.parse(PARAMS[algorithm.name] ?? {}) as Record<string, unknown>;
  return fitPipeline(algorithm, params, [], { X, target: algorithm.accepts.classes ? classes : null }, { rng: createRng(5), progress: () => {} });
}

for (const algorithm of listAlgorithms()) {
  // A transductive method predicts no new rows at all (/predict answers 422 before any split).
  if (algorithm.transductive) continue;
  for (const task of algorithm.tasks) {
    test(`${algorithm.name} (${task}): three row ranges predicted apart and joined equal the whole batch`, () => {
      const pipeline = fitted(algorithm, task);
      const whole = encodeRows(rows, frameSchema(X));
      const expected = predictPipeline(algorithm, pipeline, whole);
      const parts = rowRanges(rows.length, 3).map(([from, to]) => predictPipeline(algorithm, pipeline, sliceRows(whole, from, to)));
      assert.deepEqual(concatPredictions(parts), expected);
    });
  }
}

test("rowRanges: contiguous ranges covering every row once, sizes within one of each other, never empty", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 64 }), (n, parts) => {
      const ranges = rowRanges(n, parts);
      assert.equal(ranges.length, Math.max(1, Math.min(parts, n)));
      assert.equal(ranges[0][0], 0);
      assert.equal(ranges[ranges.length - 1][1], n);
      for (let p = 1; p < ranges.length; p++) assert.equal(ranges[p][0], ranges[p - 1][1]);
      const sizes = ranges.map(([a, b]) => b - a);
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1);
      if (n > 0) assert.ok(sizes.every((s) => s > 0));
    }),
  );
});

test("concatPredictions refuses parts of different tasks and an empty list", () => {
  assert.throws(() => concatPredictions([]));
  assert.throws(() => concatPredictions([{ task: "regression", values: new Float64Array(1) }, { task: "classification", labels: new Int32Array(1) }]));
});
