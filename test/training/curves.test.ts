/**
 * Learning and validation curves (issue 18; seed 002's training error against generalisation
 * error): points in order with validation and training scores; the full-size point of a
 * learning curve is the k-fold evaluation of the same seed; each point of a validation curve
 * is the k-fold evaluation with that parameter value; the evaluation's metrics are the largest
 * size's / the best value's; a point a fit refuses reports why instead of failing the curve.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readCsv } from "../../src/data/read-csv.js";
import { resolveSpec, SpecError, type TrainRequest } from "../../src/training/spec.js";
import { evaluateSpec } from "../../src/training/train.js";
import { fixture } from "../data/helpers.js";
import { datasetColumns } from "./helpers-artifact.js";

const hooks = { progress: () => {} };
const iris = readCsv(fixture("iris.csv"));
const diabetes = readCsv(fixture("diabetes.csv"));
const target = (f: typeof iris) => f.columns.at(-1)!.name;

function evaluate(frame: typeof iris, request: Partial<TrainRequest> & { algorithm: string }) {
  return evaluateSpec(frame, resolveSpec({ seed: 9, target: target(frame), ...request }, datasetColumns(frame), "evaluate"), hooks).evaluation;
}

describe("learning_curve", () => {
  test("least squares on diabetes: sizes grow, the full size is the 5-fold evaluation, training r2 falls towards validation r2 as rows grow", () => {
    const e = evaluate(diabetes, { algorithm: "linear_regression", validation: { method: "learning_curve", train_sizes: [0.2, 0.5, 1], k: 5 } });
    const points = e.learning_curve!.points;
    assert.deepEqual(points.map((p) => p.fraction), [0.2, 0.5, 1]);
    const sizes = points.map((p) => p.train_size!);
    assert.ok(sizes[0] < sizes[1] && sizes[1] < sizes[2], JSON.stringify(sizes));
    assert.equal(sizes[2], (diabetes.rowCount * 4) / 5);
    const kfold = evaluate(diabetes, { algorithm: "linear_regression", validation: { method: "kfold", k: 5, stratify: false } });
    assert.ok(Math.abs(points[2].metrics.r2! - kfold.metrics.r2!) < 1e-9, `${points[2].metrics.r2} vs ${kfold.metrics.r2}`);
    assert.deepEqual(e.metrics, points[2].metrics);
    // Fewer rows: the fit follows its own rows more closely and generalises worse.
    assert.ok(points[0].train_metrics.r2! > points[2].train_metrics.r2!);
    assert.ok(points[0].metrics.r2! < points[2].metrics.r2!);
    for (const p of points) assert.ok(p.train_metrics.r2! >= p.metrics.r2!);
  });

  test("1-NN recalls every training subset: training accuracy 1 at every size", () => {
    const e = evaluate(iris, { algorithm: "knn", params: { n_neighbors: 1 }, validation: { method: "learning_curve", k: 3 } });
    const points = e.learning_curve!.points;
    assert.equal(points.length, 5, "scikit-learn's five default sizes");
    for (const p of points) assert.equal(p.train_metrics.accuracy, 1);
  });

  test("a size whose subsets a learner refuses reports why, and the curve goes on", () => {
    // lda needs more rows than classes: two rows of two classes are refused, all 16 are not.
    const lines = ["x,y", ...Array.from({ length: 20 }, (_, i) => `${i},${i < 10 ? "a" : "b"}`)];
    const e = evaluate(readCsv(Buffer.from(lines.join("\n"))), { algorithm: "lda", validation: { method: "learning_curve", train_sizes: [0.07, 1], k: 5 } });
    const [tiny, full] = e.learning_curve!.points;
    assert.equal(tiny.train_size, 2);
    assert.match(tiny.error ?? "", /more rows than classes/);
    assert.deepEqual(tiny.metrics, {});
    assert.equal(full.error, undefined);
    assert.equal(typeof full.metrics.accuracy, "number");
    assert.deepEqual(e.metrics, full.metrics);
  });
});

describe("validation_curve", () => {
  test("cart's max_depth: each point is the 5-fold evaluation with that depth; metrics are the best depth's", () => {
    const depths = [1, 2, 3, null];
    const e = evaluate(iris, { algorithm: "cart", validation: { method: "validation_curve", param: "max_depth", values: depths, k: 5 } });
    const curve = e.validation_curve!;
    assert.equal(curve.param, "max_depth");
    assert.equal(curve.scoring, "accuracy");
    assert.deepEqual(curve.points.map((p) => p.value), depths);
    curve.points.forEach((p, i) => {
      const single = evaluate(iris, { algorithm: "cart", params: { max_depth: depths[i] }, validation: { method: "kfold", k: 5, stratify: true } });
      assert.deepEqual(p.metrics, single.metrics, `max_depth ${depths[i]}`);
      assert.deepEqual(p.train_metrics, single.train_metrics);
    });
    assert.ok(Math.abs(curve.points[0].train_metrics.accuracy! - 2 / 3) < 1e-12, "a stump separates one species");
    assert.equal(curve.points[3].train_metrics.accuracy, 1, "a full tree recalls its rows");
    const best = Math.max(...curve.points.map((p) => p.metrics.accuracy!));
    assert.equal(e.metrics.accuracy, best);
  });

  test("the parameter and every value are validated; curves are evaluations only, with a target", () => {
    const columns = datasetColumns(iris);
    const cases: [Partial<TrainRequest>, string, "train" | "evaluate"][] = [
      [{ validation: { method: "validation_curve", param: "depth", values: [1] } }, "validation.param", "evaluate"],
      [{ validation: { method: "validation_curve", param: "max_depth", values: [1, -3] } }, "validation.values.1", "evaluate"],
      [{ validation: { method: "learning_curve" } }, "validation.method", "train"],
      [{ validation: { method: "learning_curve", train_sizes: [0, 1] } }, "validation.train_sizes.0", "evaluate"],
    ];
    for (const [request, path, purpose] of cases) {
      assert.throws(
        () => resolveSpec({ algorithm: "cart", target: "target", ...request }, columns, purpose),
        (e: unknown) => e instanceof SpecError && e.path === path,
        `${JSON.stringify(request)} → ${path}`,
      );
    }
    assert.throws(() => resolveSpec({ algorithm: "kmeans", features: ["sepal length (cm)"], validation: { method: "learning_curve" } }, columns, "evaluate"), SpecError);
  });
});
