/**
 * knn beyond the scikit-learn parity: the vote rules (distance weights with an
 * exact match, ties to the lowest class), VDM/HVDM by hand on a small table and on
 * watermelon, categorical columns taken natively equal to one_hot, the search
 * algorithm not changing predictions, save → load, same seed → same model.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { makeFrame, type Frame } from "../../../src/data/frame.js";
import { fitVdm, vdmMetric } from "../../../src/data/neighbors/vdm.js";
import { encodeRows as encodeWireRows } from "../../../src/data/rows.js";
import { oneHot } from "../../../src/data/transforms/one-hot.js";
import { knn } from "../../../src/models/neighbors/knn.js";
import { loadArtifact, serializeArtifact } from "../../../src/training/artifact.js";
import { predictPipeline } from "../../../src/training/pipeline.js";
import { trainOn } from "../../training/helpers-artifact.js";
import { ctx, fixturePath, realData, watermelon } from "../tree/fixtures.js";

const num = (name: string, values: number[]) => ({ type: "numeric" as const, name, values: Float64Array.from(values) });

describe("knn votes", () => {
  const X = makeFrame([num("x", [0, 1, 2, 10, 11])]);
  const classification = { task: "classification" as const, y: Int32Array.from([1, 0, 0, 1, 1]), classes: ["a", "b"] };

  test("uniform: majority of the k nearest, probabilities from the vote", () => {
    const s = knn.fit({ X, target: classification }, knn.params.parse({ n_neighbors: 3 }), ctx());
    const p = knn.predict(s, makeFrame([num("x", [0.4, 10.5])]));
    assert.equal(p.task, "classification");
    if (p.task !== "classification") return;
    assert.deepEqual(Array.from(p.labels), [0, 1]);
    // 10.5: rows 3 and 4 (b) and row 2 (a) at 8.5.
    assert.deepEqual(Array.from(p.proba!), [2 / 3, 1 / 3, 1 / 3, 2 / 3]);
  });

  test("a tied vote goes to the lower class", () => {
    const s = knn.fit({ X, target: classification }, knn.params.parse({ n_neighbors: 2 }), ctx());
    // x = 0.5: rows 0 (b) and 1 (a) at 0.5 each → one vote each → a.
    const p = knn.predict(s, makeFrame([num("x", [0.5])]));
    assert.equal(p.task === "classification" && p.labels[0], 0);
  });

  test("distance weights: 1/d, and a row at distance 0 decides alone", () => {
    const s = knn.fit({ X, target: classification }, knn.params.parse({ n_neighbors: 3, weights: "distance" }), ctx());
    const p = knn.predict(s, makeFrame([num("x", [0.25, 0])]));
    if (p.task !== "classification") return assert.fail();
    // 0.25: row 0 (b) at 0.25 → 4, row 1 (a) at 0.75 → 4/3, row 2 (a) at 1.75 → 4/7.
    const a = 4 / 3 + 4 / 7;
    assert.ok(Math.abs(p.proba![1] - 4 / (4 + a)) < 1e-12);
    assert.equal(p.labels[0], 1);
    assert.deepEqual([p.labels[1], p.proba![2], p.proba![3]], [1, 0, 1]);
  });

  test("regression: mean, or weighted mean with the exact match alone", () => {
    const target = { task: "regression" as const, y: Float64Array.from([1, 2, 3, 10, 20]) };
    const uniform = knn.fit({ X, target }, knn.params.parse({ n_neighbors: 2 }), ctx());
    const weighted = knn.fit({ X, target }, knn.params.parse({ n_neighbors: 2, weights: "distance" }), ctx());
    const Q = makeFrame([num("x", [0.25, 11])]);
    const u = knn.predict(uniform, Q);
    const w = knn.predict(weighted, Q);
    if (u.task !== "regression" || w.task !== "regression") return assert.fail();
    assert.deepEqual(Array.from(u.values), [1.5, 15]);
    assert.ok(Math.abs(w.values[0] - (4 * 1 + (4 / 3) * 2) / (4 + 4 / 3)) < 1e-12);
    assert.equal(w.values[1], 20);
  });

  test("more neighbours than training rows is refused at fit", () => {
    assert.throws(() => knn.fit({ X, target: classification }, knn.params.parse({ n_neighbors: 6 }), ctx()), /only 5 training rows/);
  });
});

describe("vdm and hvdm", () => {
  // Attribute u: a, a, a, b with classes 0, 0, 1, 1 → P(·|a) = (2/3, 1/3), P(·|b) = (0, 1).
  const levels = Int32Array.from([2, -1]);
  const X = Float64Array.from([0, 0, 0, 1, 0, 2, 1, 3]);
  const y = Int32Array.from([0, 0, 1, 1]);

  test("VDM_p between two levels is Σ_c |P(c|a) − P(c|b)|^p (the book's formula)", () => {
    const t2 = fitVdm("vdm", 2, X.filter((_, i) => i % 2 === 0), 4, 1, Int32Array.from([2]), y, 2);
    const m2 = vdmMetric(t2);
    const rows = Float64Array.from([0, 1]);
    assert.ok(Math.abs(m2.reduced(rows, 0, rows, 1, 1) - 8 / 9) < 1e-12);
    assert.ok(Math.abs(m2.toDistance(m2.reduced(rows, 0, rows, 1, 1)) - Math.sqrt(8 / 9)) < 1e-12);
    const m1 = vdmMetric(fitVdm("vdm", 1, X.filter((_, i) => i % 2 === 0), 4, 1, Int32Array.from([2]), y, 2));
    assert.ok(Math.abs(m1.reduced(rows, 0, rows, 1, 1) - 4 / 3) < 1e-12);
    assert.equal(m1.reduced(rows, 0, rows, 0, 1), 0);
  });

  test("hvdm adds numeric differences over 4σ (sample σ); a missing value counts 1", () => {
    const m = vdmMetric(fitVdm("hvdm", 2, X, 4, 2, levels, y, 2));
    const sigma = Math.sqrt(5 / 3); // values 0, 1, 2, 3
    const a = Float64Array.from([0, 0.5, 1, 2.5]);
    assert.ok(Math.abs(m.reduced(a, 0, a, 1, 2) - (8 / 9 + (2 / (4 * sigma)) ** 2)) < 1e-12);
    const missing = Float64Array.from([-1, NaN]);
    assert.equal(m.reduced(a, 0, missing, 0, 2), 2);
  });

  test("vdm on watermelon 2.0: a model on categorical columns alone, each training row its own nearest (k = 1)", () => {
    const train = watermelon("2.0");
    const s = knn.fit(train, knn.params.parse({ metric: "vdm", n_neighbors: 1 }), ctx());
    const p = knn.predict(s, train.X);
    if (p.task !== "classification" || train.target?.task !== "classification") return assert.fail();
    assert.deepEqual(Array.from(p.labels), Array.from(train.target.y));
    assert.equal((knn.explain!(s) as { algorithm: string }).algorithm, "brute");
  });

  test("hvdm on watermelon 3.0 (mixed) fits and predicts; vdm refuses numeric columns; both refuse a numeric target", () => {
    const train = watermelon("3.0");
    const s = knn.fit(train, knn.params.parse({ metric: "hvdm", n_neighbors: 3 }), ctx());
    const p = knn.predict(s, train.X);
    assert.equal(p.task, "classification");
    assert.throws(() => knn.fit(train, knn.params.parse({ metric: "vdm" }), ctx()), /use hvdm/);
    const numeric = { X: train.X, target: { task: "regression" as const, y: new Float64Array(train.X.rowCount) } };
    assert.throws(() => knn.fit(numeric, knn.params.parse({ metric: "hvdm" }), ctx()), /categorical target/);
  });

  test("a vdm model survives save → load with identical predictions", () => {
    const csv = readFileSync(fixturePath("watermelon-2.0.csv"), "utf8");
    const result = trainOn(csv, { algorithm: "knn", target: "好瓜", features: ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"], params: { metric: "vdm", n_neighbors: 3 } });
    const loaded = loadArtifact(serializeArtifact(result.model).bytes);
    const rows = [{ 色泽: "青绿", 根蒂: "蜷缩", 敲声: "浊响", 纹理: "清晰", 脐部: "凹陷", 触感: "硬滑" }, { 色泽: "浅白", 纹理: "模糊" }];
    const before = predictPipeline(result.model.algorithm, result.model.pipeline, encodeWireRows(rows, result.model.features));
    const after = predictPipeline(loaded.algorithm, loaded.pipeline, encodeWireRows(rows, loaded.features));
    assert.deepEqual(after, before);
  });
});

describe("knn models", () => {
  test("a categorical column taken natively gives the distances of its one_hot indicators", () => {
    const train = watermelon("3.0");
    const encoded = oneHot.apply(oneHot.fit(train.X, oneHot.spec.parse({})), train.X);
    const params = knn.params.parse({ n_neighbors: 4, weights: "distance", metric: "manhattan" });
    const native = knn.predict(knn.fit(train, params, ctx()), train.X);
    const viaOneHot = knn.predict(knn.fit({ X: encoded, target: train.target }, params, ctx()), encoded);
    assert.deepEqual(native, viaOneHot);
  });

  test("kd_tree, ball_tree and brute give the same predictions (breast cancer, 30 dimensions)", () => {
    const real = realData("breast-cancer");
    const out = (["kd_tree", "ball_tree", "brute"] as const).map((algorithm) => {
      const s = knn.fit(real.train, knn.params.parse({ n_neighbors: 5, algorithm, leaf_size: 7 }), ctx());
      return knn.predict(s, real.testX);
    });
    assert.deepEqual(out[1], out[0]);
    assert.deepEqual(out[2], out[0]);
  });

  test("same data, same params → the same state, whatever the seed (nothing is random)", () => {
    const real = realData("iris");
    const params = knn.params.parse({});
    assert.deepEqual(knn.fit(real.train, params, ctx(1)), knn.fit(real.train, params, ctx(2)));
  });

  test("predicting leaves the training state and the query frame as they were", () => {
    const real = realData("wine");
    const s = knn.fit(real.train, knn.params.parse({}), ctx());
    const before = structuredClone(s);
    const frame: Frame = real.testX;
    const copy = structuredClone(frame);
    knn.predict(s, frame);
    assert.deepEqual(s, before);
    assert.deepEqual(frame, copy);
  });
});
