/**
 * oblique_tree's perceptron options: split "perceptron" (node tests learned by a pocket
 * perceptron) and leaf_model "perceptron" (Utgoff's perceptron tree: leaves hold a
 * perceptron, and a node is split only where its perceptron cannot fit its rows).
 */
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, type Frame } from "../../../src/data/frame.js";
import type { TrainingSet } from "../../../src/models/contract.js";
import { randomForest } from "../../../src/models/ensemble/random-forest.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import type { TreeExplanation } from "../../../src/models/tree/explain.js";
import { obliqueTree } from "../../../src/models/tree/oblique-tree.js";
import { LEAF, OBLIQUE, type TreeState } from "../../../src/models/tree/tree-state.js";
import { accuracy, ctx, realData } from "./fixtures.js";

const fit = (train: TrainingSet, params: object, seed = 1): TreeState => obliqueTree.fit(train, obliqueTree.params.parse(params), ctx(seed));
const predict = (s: TreeState, X: Frame) => obliqueTree.predict(s, X) as { labels: Int32Array; proba: Float64Array };
const explain = (s: TreeState) => obliqueTree.explain?.(s) as TreeExplanation;
const frame = (xs: number[], ys: number[]): Frame =>
  makeFrame([
    { type: "numeric", name: "x", values: Float64Array.from(xs) },
    { type: "numeric", name: "y", values: Float64Array.from(ys) },
  ]);
const sha256 = (s: TreeState) => createHash("sha256").update(JSON.stringify(encodeState(s))).digest("hex");

/**
 * Two regions side by side, x ∈ [0, 1] and x ∈ [2, 3], each split by its own diagonal:
 * the left is p except the corner x + y ≤ 0.3, the right is n except the corner x + y > 3.7.
 * The region test x ≤ 1.5 is the best single split (no line puts both corners right), so a
 * tree of depth 1 has it at the root; each region is linearly separable, the whole is not.
 */
function twoRegions(step = 11, offset = 0): { train: TrainingSet; y: Int32Array } {
  const xs: number[] = [];
  const ys: number[] = [];
  const cls: number[] = [];
  for (const [x0, isP] of [
    [0, (x: number, y: number) => x + y > 0.3],
    [2, (x: number, y: number) => x + y > 3.7],
  ] as const) {
    for (let i = 0; i <= step; i++) {
      for (let j = 0; j <= step; j++) {
        const x = x0 + Math.min(1, (i + offset) / step);
        const y = Math.min(1, (j + offset) / step);
        if (Math.abs(x + y - (x0 === 0 ? 0.3 : 3.7)) < 1e-9) continue; // on a boundary: either class would do
        xs.push(x);
        ys.push(y);
        cls.push(isP(x, y) ? 1 : 0);
      }
    }
  }
  const y = Int32Array.from(cls);
  return { train: { X: frame(xs, ys), target: { task: "classification", y, classes: ["n", "p"] } }, y };
}

describe("oblique_tree with perceptron leaves (Utgoff's perceptron tree)", () => {
  test("depth 1: perceptron leaves classify two diagonally split regions exactly; majority leaves cannot", () => {
    const { train, y } = twoRegions();
    for (const split of ["oc1", "perceptron"]) {
      const majority = fit(train, { max_depth: 1, split });
      const perceptron = fit(train, { max_depth: 1, split, leaf_model: "perceptron" });
      assert.equal(majority.kind.length, 3);
      assert.equal(perceptron.kind.length, 3);
      // Majority leaves get the two corners wrong: 10 rows each (i + j ≤ 3 of the 12 × 12 grid).
      assert.ok(Math.abs(accuracy(predict(majority, train.X).labels, y) - (1 - 20 / y.length)) < 1e-12, split);
      assert.equal(accuracy(predict(perceptron, train.X).labels, y), 1, split);
      // The root is the region test; both leaves hold a perceptron, which also classifies unseen points of the regions.
      const root = explain(perceptron).tree;
      for (const child of root.children) assert.equal(child.node.leaf_model?.kind, "perceptron");
      const fresh = twoRegions(7, 0.5);
      assert.ok(accuracy(predict(perceptron, fresh.train.X).labels, fresh.y) >= 0.95, split);
    }
  });

  test("a node whose perceptron fits its rows is not split: wine's three classes stop at a root perceptron leaf", () => {
    const d = realData("wine");
    const s = fit(d.train, { leaf_model: "perceptron" });
    assert.equal(s.kind.length, 1, "the perceptrons separate the training rows, so the root stays a leaf");
    assert.equal(accuracy(predict(s, d.train.X).labels, (d.train.target as { y: Int32Array }).y), 1);
    const model = explain(s).tree.leaf_model;
    assert.deepEqual(model?.classes, d.train.target?.task === "classification" ? d.train.target.classes : []);
    assert.equal(model?.planes.length, 3, "one plane per class against the rest");
    assert.ok(accuracy(predict(s, d.testX).labels, (d.testTarget as { y: Int32Array }).y) >= d.meta.floor);
    // The memory estimate's bound (memory-estimate.ts): rows × (features + 1 + classes) numbers at most.
    assert.ok((s.leafModels?.length ?? 0) <= d.train.X.rowCount * (s.features.length + 1 + s.classes.length));
    // Without leaf models the same data needs splits.
    assert.ok(fit(d.train, {}).kind.length > 1);
  });

  test("probabilities: the class mix of the leaf's training rows the perceptron assigns to the same class", () => {
    // One leaf (min_samples_split keeps the root whole) over two points, each with both classes 3 : 1.
    const X = frame([0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 0, 1, 1, 1, 1]);
    const train: TrainingSet = { X, target: { task: "classification", y: Int32Array.from([0, 0, 0, 1, 1, 1, 1, 0]), classes: ["a", "b"] } };
    const s = fit(train, { leaf_model: "perceptron", min_samples_split: 100 });
    assert.equal(s.kind[0], LEAF);
    const out = predict(s, frame([0, 1, 2, -1], [0, 1, 2, -1]));
    assert.deepEqual(Array.from(out.proba), [0.75, 0.25, 0.25, 0.75, 0.25, 0.75, 0.75, 0.25]);
    assert.deepEqual(Array.from(out.labels), [0, 1, 1, 0]);
    assert.deepEqual(explain(s).tree.leaf_model?.assigned, { a: { a: 3, b: 1 }, b: { a: 1, b: 3 } });
    // A majority leaf says 1 : 1 everywhere.
    assert.deepEqual(Array.from(predict(fit(train, { min_samples_split: 100 }), frame([0], [0])).proba), [0.5, 0.5]);
    assert.match(obliqueTree.explain?.(s, { format: "text" }) as string, /^perceptron: b if .*·x \+ .*·y ≥ .*, else a \(samples 8\)\n$/);
    assert.match(obliqueTree.explain?.(s, { format: "dot" }) as string, /perceptron: b if/);
  });

  test("a row missing a value the perceptron reads gets the leaf's class distribution", () => {
    const X = frame([0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 0, 1, 1, 1, 1]);
    const train: TrainingSet = { X, target: { task: "classification", y: Int32Array.from([0, 0, 0, 1, 1, 1, 1, 0]), classes: ["a", "b"] } };
    const s = fit(train, { leaf_model: "perceptron", min_samples_split: 100 });
    assert.deepEqual(Array.from(predict(s, frame([NaN], [0])).proba), [0.5, 0.5]);
  });

  for (const params of [{ leaf_model: "perceptron" }, { split: "perceptron" }, { split: "perceptron", leaf_model: "perceptron", max_depth: 3, pruning: "pessimistic" }]) {
    test(`${JSON.stringify(params)}: save → load → identical predictions and explanation; same seed → same tree`, () => {
      const d = realData("breast-cancer");
      const s = fit(d.train, params, 11);
      const back = obliqueTree.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s)))));
      assert.deepEqual(predict(back, d.testX), predict(s, d.testX));
      assert.deepEqual(obliqueTree.explain?.(back), obliqueTree.explain?.(s));
      assert.deepEqual(encodeState(fit(d.train, params, 11)), encodeState(s));
      // Batch = row by row, through both walks of predict.
      const batch = predict(s, d.testX);
      for (const i of [0, 1, 7, 30]) {
        const one = predict(s, makeFrame(d.testX.columns.map((c) => ({ ...c, values: (c as { values: Float64Array }).values.slice(i, i + 1) }) as typeof c)));
        assert.deepEqual(Array.from(one.proba), Array.from(batch.proba.subarray(2 * i, 2 * i + 2)));
      }
      const acc = accuracy(batch.labels, (d.testTarget as { y: Int32Array }).y);
      assert.ok(acc >= d.meta.floor, `${acc} < ${d.meta.floor}`);
    });
  }

  test("split perceptron: node tests are oblique where a perceptron's plane beats every single attribute", () => {
    const d = realData("breast-cancer");
    const s = fit(d.train, { split: "perceptron" });
    assert.equal(s.kind[0], OBLIQUE);
    assert.equal(s.leafModelOffset, undefined, "majority leaves carry no leaf models");
    const acc = accuracy(predict(s, d.testX).labels, (d.testTarget as { y: Int32Array }).y);
    assert.ok(acc >= d.meta.floor, `${acc} < ${d.meta.floor}`);
  });

  test("the default parameters give the very trees they gave before the perceptron options (sha-256 of the encoded state)", () => {
    // Computed on the commit before the options existed (35cc988) with this fit: a change here changes every default oblique_tree.
    const pinned: [string, object, string][] = [
      ["wine", {}, "1bd8b4fab57bcc132b36f6683d6322c04eb494a82f07a3f4d8197b14415bd512"],
      ["breast-cancer", {}, "61417a0b315c9ad040abc7443924136bb3ebac3a4f870ac8f4962e1df0319a6c"],
      ["iris", { class_weight: "balanced", pruning: "post", n_restarts: 2 }, "ec7e1ae3ec43afe698fe362ab7d338f6e1fe153412800ddd3d304e599856eaea"],
    ];
    for (const [name, params, hash] of pinned) {
      const d = realData(name as "wine");
      assert.equal(sha256(obliqueTree.fit(d.train, obliqueTree.params.parse(params), ctx(7))), hash, `${name} ${JSON.stringify(params)}`);
    }
  });

  test("options that would do nothing are refused", () => {
    assert.throws(() => obliqueTree.params.parse({ split: "perceptron", max_iter: 7 }), /max_iter/);
    assert.throws(() => obliqueTree.params.parse({ split: "perceptron", n_restarts: 1 }), /n_restarts/);
    assert.throws(() => obliqueTree.params.parse({ perceptron_max_iter: 10 }), /perceptron_max_iter/);
    assert.doesNotThrow(() => obliqueTree.params.parse({ leaf_model: "perceptron", perceptron_max_iter: 10 }));
    assert.doesNotThrow(() => obliqueTree.params.parse({ split: "perceptron", perceptron_max_iter: 10 }));
  });

  test("a crafted artifact's leaf models are checked: layout, leaves only, finite numbers, non-negative cells; forests refuse them", () => {
    const { train } = twoRegions();
    const s = fit(train, { max_depth: 1, leaf_model: "perceptron" });
    const offsets = s.leafModelOffset as Int32Array;
    const models = s.leafModels as Float64Array;
    const refused = (patch: Partial<TreeState>, pattern: RegExp) => {
      const r = obliqueTree.state.safeParse({ ...s, ...patch });
      assert.equal(r.success, false, JSON.stringify(Object.keys(patch)));
      assert.match(JSON.stringify(r.error?.issues), pattern);
    };
    assert.equal(obliqueTree.state.safeParse(s).success, true);
    refused({ leafModels: undefined }, /both/);
    refused({ leafModelOffset: Int32Array.from(offsets, (o, i) => (i === 0 ? 0 : o)) }, /not a leaf/);
    refused({ leafModelOffset: Int32Array.from(offsets, (o) => (o > 0 ? o + 1 : o)) }, /offset/);
    refused({ leafModels: Float64Array.from([...models, 0]) }, /no leaf uses/);
    refused({ leafModels: Float64Array.from(models, (v, q) => (q === 0 ? NaN : v)) }, /not a finite number/);
    refused({ leafModels: Float64Array.from(models, (v, q) => (q === models.length - 1 ? -1 : v)) }, /negative cell/);

    const forest = randomForest.fit(train, randomForest.params.parse({ n_estimators: 2 }), ctx());
    assert.equal(randomForest.state.safeParse(forest).success, true);
    const bad = { ...forest, trees: [{ ...forest.trees[0], leafModelOffset: new Int32Array(forest.trees[0].kind.length).fill(-1), leafModels: new Float64Array(0) }, forest.trees[1]] };
    assert.match(JSON.stringify(randomForest.state.safeParse(bad).error?.issues), /perceptron leaves/);
  });
});
