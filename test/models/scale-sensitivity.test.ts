/**
 * `scaleSensitive` is declared by every algorithm and kept honest: an algorithm that
 * declares itself insensitive gives the same predictions when its numeric columns are
 * given in other units (× 1024, ÷ 1024 in turn); one that declares itself sensitive gives the same
 * predictions once the automatic scale step is in front of it (the step takes the
 * units away), which is what the declaration buys it.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, takeRows, type Column, type Frame } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import { readCsv } from "../../src/data/read-csv.js";
import type { Algorithm, Prediction, Target } from "../../src/models/contract.js";
import { listAlgorithms } from "../../src/models/registry.js";
import { fitPipeline, predictPipeline } from "../../src/training/pipeline.js";
import { fixture } from "../data/helpers.js";

const supervised = listAlgorithms().filter((a) => a.tasks.includes("classification") || a.tasks.includes("regression"));

/** Fast to fit on 150–442 rows; the rest of the sensitive ones are covered by the same step. */
const SLOW = new Set(["mlp"]);
/** Two-class methods (tsvm) get iris's first two species. */
const TWO_CLASS = new Set(["tsvm"]);

function twoClasses(data: { X: Frame; target: Target }): { X: Frame; target: Target } {
  if (data.target.task !== "classification") return data;
  const y = data.target.y;
  const rows = Array.from(y.keys()).filter((i) => y[i] < 2);
  return { X: takeRows(data.X, rows), target: { task: "classification", y: Int32Array.from(rows, (i) => y[i]), classes: data.target.classes.slice(0, 2) } };
}

function table(task: "classification" | "regression"): { X: Frame; target: Target } {
  const frame = readCsv(fixture(task === "classification" ? "iris.csv" : "diabetes.csv"));
  const y = frame.columns.find((c) => c.name === "target")!;
  const X = makeFrame(frame.columns.filter((c) => c !== y));
  if (y.type === "categorical") return { X, target: { task: "classification", y: Int32Array.from(y.codes), classes: [...y.levels] } };
  return { X, target: { task: "regression", y: Float64Array.from((y as Extract<Column, { type: "numeric" }>).values) } };
}

/**
 * Every numeric column in other units (× 1024, then ÷ 1024, in turn). A power of two, not
 * 1000: × 1000 rounds, and merges values one ulp apart (diabetes has such pairs, e.g.
 * 0.030810829531384178 and 0.03081082953138418), so a tree on a bootstrap that cuts
 * between them in one unit cannot in the other — rounding in the data, not a dependence
 * on units. Scaling by 1024 is exact, and so are the midpoints between scaled values.
 */
function rescaled(X: Frame): Frame {
  return makeFrame(X.columns.map((c, j) => (c.type === "numeric" ? { ...c, values: c.values.map((v) => (j % 2 === 0 ? v * 1024 : v / 1024)) } : c)));
}

function fitPredict(algorithm: Algorithm, data: { X: Frame; target: Target }, autoScale: boolean): Prediction {
  const params = algorithm.params.parse({});
  const pipeline = fitPipeline(algorithm, params, [], data, { rng: createRng(3), progress: () => {} }, { autoScale });
  return predictPipeline(algorithm, pipeline, data.X);
}

function assertSamePredictions(a: Prediction, b: Prediction, name: string): void {
  if (a.task === "classification" && b.task === "classification") {
    const differ = a.labels.filter((l, i) => l !== b.labels[i]).length;
    assert.equal(differ, 0, `${name}: ${differ} of ${a.labels.length} labels change with the units of one column`);
  } else if ((a.task === "regression" && b.task === "regression") || (a.task === "projection" && b.task === "projection")) {
    a.values.forEach((v, i) => assert.ok(Math.abs(v - b.values[i]) <= 1e-6 * (1 + Math.abs(v)), `${name}: row ${i}: ${v} vs ${b.values[i]}`));
  } else {
    assert.fail(`${name}: ${a.task} vs ${b.task}`);
  }
}

test("every registered algorithm declares scaleSensitive", () => {
  for (const a of listAlgorithms()) assert.equal(typeof a.scaleSensitive, "boolean", a.name);
  const sensitive = listAlgorithms()
    .filter((a) => a.scaleSensitive)
    .map((a) => a.name)
    .sort();
  assert.deepEqual(sensitive, [
    "adaboost",
    "agnes",
    "art",
    "bagging",
    "bisecting_kmeans",
    "cascade_correlation",
    "constrained_kmeans",
    "dbscan",
    "diana",
    "easy_ensemble",
    "elastic_net",
    "gmm",
    "isomap",
    "kernel_pca",
    "kmeans",
    "kmedoids",
    "knn",
    "label_propagation",
    "label_spreading",
    "lasso",
    "lmnn_projection",
    "logistic_regression",
    "lvq",
    "mds",
    "mlp",
    "naive_bayes",
    "nca_projection",
    "optics",
    "pca",
    "perceptron",
    "rbf_network",
    "ridge",
    "seeded_kmeans",
    "self_training",
    "semi_supervised_gmm",
    "softmax_regression",
    "som",
    "som_projection",
    "stacking",
    "svm",
    "svr",
    "tsvm",
    "voting",
  ]);
});

describe("declared insensitive: the same predictions in other units", () => {
  for (const algorithm of supervised.filter((a) => !a.scaleSensitive)) {
    for (const task of (["classification", "regression"] as const).filter((t) => algorithm.tasks.includes(t))) {
      test(`${algorithm.name} (${task})`, () => {
        const data = table(task);
        const raw = fitPredict(algorithm, data, false);
        const other = fitPredict(algorithm, { X: rescaled(data.X), target: data.target }, false);
        assertSamePredictions(raw, other, algorithm.name);
      });
    }
  }
});

describe("declared sensitive: the automatic scale step takes the units away", () => {
  for (const algorithm of supervised.filter((a) => a.scaleSensitive && !SLOW.has(a.name))) {
    const task = algorithm.tasks.includes("classification") ? "classification" : "regression";
    test(`${algorithm.name} (${task})`, () => {
      const data = TWO_CLASS.has(algorithm.name) ? twoClasses(table(task)) : table(task);
      const raw = fitPredict(algorithm, data, true);
      const other = fitPredict(algorithm, { X: rescaled(data.X), target: data.target }, true);
      assertSamePredictions(raw, other, algorithm.name);
    });
  }
});

describe("clustering, declared sensitive: the automatic scale step takes the units away (training labels)", () => {
  for (const algorithm of listAlgorithms().filter((a) => a.tasks.includes("clustering"))) {
    test(algorithm.name, () => {
      assert.ok(algorithm.scaleSensitive, `${algorithm.name}: distances in input units`);
      const { X } = table("classification");
      const labels = (frame: Frame) => {
        const params = algorithm.params.parse(algorithm.name === "dbscan" ? { eps: 0.5 } : algorithm.name === "gmm" ? { n_components: 3 } : {});
        const pipeline = fitPipeline(algorithm, params, [], { X: frame, target: null }, { rng: createRng(3), progress: () => {} }, { autoScale: true });
        return algorithm.trainingLabels!(pipeline.state);
      };
      assert.deepEqual(labels(rescaled(X)), labels(X));
    });
  }
});

describe("projections, declared sensitive: the automatic scale step takes the units away (projections of the training rows)", () => {
  for (const algorithm of listAlgorithms().filter((a) => a.tasks.includes("projection") && a.scaleSensitive)) {
    test(algorithm.name, () => {
      const { X, target } = table("classification");
      const project = (frame: Frame) => {
        const pipeline = fitPipeline(algorithm, algorithm.params.parse({}), [], { X: frame, target: algorithm.accepts.classes ? target : null }, { rng: createRng(3), progress: () => {} }, { autoScale: true });
        return predictPipeline(algorithm, pipeline, frame);
      };
      assertSamePredictions(project(rescaled(X)), project(X), algorithm.name);
    });
  }
});

describe("projections, declared insensitive: the same projections in other units, without the scale step", () => {
  const insensitive = listAlgorithms().filter((a) => a.tasks.includes("projection") && !a.scaleSensitive);
  test("only the supervised lda_projection (the unsupervised ones follow variances and distances)", () => assert.deepEqual(insensitive.map((a) => a.name), ["lda_projection"]));
  for (const algorithm of insensitive) {
    test(algorithm.name, () => {
      const { X, target } = table("classification");
      const project = (frame: Frame) => {
        const pipeline = fitPipeline(algorithm, algorithm.params.parse({}), [], { X: frame, target }, { rng: createRng(3), progress: () => {} }, { autoScale: false });
        return predictPipeline(algorithm, pipeline, frame);
      };
      assertSamePredictions(project(rescaled(X)), project(X), algorithm.name);
    });
  }
});

describe("anomaly detectors, declared insensitive: the same scores and flags in other units, without the scale step", () => {
  for (const algorithm of listAlgorithms().filter((a) => a.tasks.includes("anomaly"))) {
    test(algorithm.name, () => {
      assert.equal(algorithm.scaleSensitive, false, `${algorithm.name}: thresholds between a node's minimum and maximum follow the units`);
      const { X } = table("classification");
      const score = (frame: Frame) => {
        const pipeline = fitPipeline(algorithm, algorithm.params.parse({ contamination: 0.1 }), [], { X: frame, target: null }, { rng: createRng(3), progress: () => {} }, { autoScale: false });
        const p = predictPipeline(algorithm, pipeline, frame);
        return p.task === "anomaly" ? p : assert.fail(p.task);
      };
      const a = score(rescaled(X));
      const b = score(X);
      assert.deepEqual(a.labels, b.labels);
      a.scores.forEach((v, i) => assert.ok(Math.abs(v - b.scores[i]) <= 1e-12, `${algorithm.name}: row ${i}: ${v} vs ${b.scores[i]}`));
    });
  }
});
