import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { cart } from "../../../src/models/tree/cart.js";
import type { TreeState } from "../../../src/models/tree/tree-state.js";
import type { ExplainNode, TreeExplanation } from "../../../src/models/tree/explain.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { makeFrame, takeRows } from "../../../src/data/frame.js";
import type { Prediction } from "../../../src/models/contract.js";
import { accuracy, ctx, r2, realData, watermelon } from "./fixtures.js";

const close = (actual: number, expected: number, tol = 0.002): void => assert.ok(Math.abs(actual - expected) <= tol, `${actual} ≠ ${expected} ± ${tol}`);

function fit(version: "2.0" | "3.0" | "2.0-alpha", params: Record<string, unknown> = {}): TreeState {
  return cart.fit(watermelon(version), cart.params.parse(params), ctx());
}
function explain(s: TreeState): TreeExplanation {
  return cart.explain?.(s) as TreeExplanation;
}
function roundTrip(s: TreeState): TreeState {
  return cart.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s)))));
}
function classes(p: Prediction): Int32Array {
  if (p.task !== "classification") throw new Error("classification expected");
  return p.labels;
}

describe("cart on the watermelon tables", () => {
  test("params: scikit-learn names with defaults; unknown and out-of-range values are rejected", () => {
    const p = cart.params.parse({});
    assert.equal(p.max_depth, null);
    assert.equal(p.min_samples_split, 2);
    assert.equal(p.min_samples_leaf, 1);
    assert.equal(p.ccp_alpha, 0);
    assert.throws(() => cart.params.parse({ min_samples_split: 1 }));
    assert.throws(() => cart.params.parse({ min_samples_leaf: 0 }));
    assert.throws(() => cart.params.parse({ max_depth: 2.5 }));
    assert.throws(() => cart.params.parse({ maxDepth: 3 }));
  });

  test("2.0, multiway Gini (the seed's tree): root 纹理 with Gini index 0.277 and all six root indices", () => {
    const root = explain(fit("2.0", { categorical_split: "multiway" })).tree;
    assert.equal(root.split?.feature, "纹理");
    close(root.split?.score as number, 0.277);
    const expected: Record<string, number> = { 色泽: 0.427, 根蒂: 0.422, 敲声: 0.424, 纹理: 0.277, 脐部: 0.345, 触感: 0.494 };
    for (const c of root.split?.candidates ?? []) close(c.score, expected[c.feature]);
    assert.equal(root.split?.candidates.length, 6);
    assert.deepEqual(
      root.children.map((c) => c.when),
      [{ equals: "模糊" }, { equals: "清晰" }, { equals: "稍糊" }],
    );
  });

  test("2.0, binary CART: root 纹理 split {清晰} against the rest, Gini index (9·28/81 + 8·14/64)/17 = 0.2859", () => {
    const root = explain(fit("2.0")).tree;
    assert.equal(root.split?.feature, "纹理");
    assert.equal(root.split?.kind, "categorical");
    assert.equal(root.split?.criterion, "gini_index");
    close(root.split?.score as number, (9 * (28 / 81) + 8 * (14 / 64)) / 17, 1e-12);
    assert.deepEqual(root.children.map((c) => c.when), [{ not_equals: "清晰" }, { equals: "清晰" }]);
    assert.equal(root.samples, 17);
    assert.deepEqual(root.distribution, { 否: 9, 是: 8 });
    assert.equal(root.prediction, "否");
    assert.deepEqual(root.children.map((c) => c.node.samples), [8, 9]);
  });

  test("2.0: the fully grown tree fits its (consistent) training rows, probabilities sum to 1", () => {
    const t = watermelon("2.0");
    const s = cart.fit(t, cart.params.parse({}), ctx());
    const p = cart.predict(s, t.X);
    assert.equal(accuracy(classes(p), (t.target as { y: Int32Array }).y), 1);
    const proba = (p as { proba: Float64Array }).proba;
    for (let i = 0; i < t.X.rowCount; i++) close(proba[2 * i] + proba[2 * i + 1], 1, 1e-12);
  });

  test("3.0: root still 纹理; under 纹理=清晰 the density threshold 0.3815 (midpoint of 0.360 and 0.403)", () => {
    const root = explain(fit("3.0")).tree;
    assert.equal(root.split?.feature, "纹理");
    const clear = root.children.find((c) => "equals" in c.when && c.when.equals === "清晰")?.node as ExplainNode;
    assert.equal(clear.split?.feature, "密度");
    assert.equal(clear.split?.kind, "threshold");
    close(clear.split?.threshold as number, 0.3815, 1e-9);
    assert.deepEqual(clear.children.map((c) => c.when), [{ lte: clear.split?.threshold }, { gt: clear.split?.threshold }]);
    const sugar = clear.split?.candidates.find((c) => c.feature === "含糖率");
    assert.ok(sugar && typeof sugar.threshold === "number");
  });

  test("max_depth, min_samples_leaf and min_samples_split bound the tree", () => {
    const stump = explain(fit("3.0", { max_depth: 1 }));
    assert.equal(stump.depth, 1);
    assert.ok(stump.tree.children.every((c) => c.node.children.length === 0));
    const leafy = fit("3.0", { min_samples_leaf: 3 });
    for (let i = 0; i < leafy.kind.length; i++) if (leafy.kind[i] === 0) assert.ok(leafy.samples[i] >= 3);
    assert.equal(fit("3.0", { min_samples_split: 18 }).kind.length, 1);
  });

  test("2.0α: missing values are weighted, samples are weighted counts, a row missing the root attribute is spread over both branches", () => {
    const t = watermelon("2.0-alpha");
    const s = cart.fit(t, cart.params.parse({}), ctx());
    const root = explain(s).tree;
    assert.equal(root.split?.feature, "纹理");
    // Rows 8 and 10 miss 纹理: the 15 known rows go 7 + 8, the two others follow with 7/15 and 8/15.
    const [rest, clear] = root.children;
    close(clear.fraction, 7 / 15, 1e-12);
    close(rest.fraction, 8 / 15, 1e-12);
    close(clear.node.samples, 7 + 2 * (7 / 15), 1e-12);
    close(rest.node.samples, 8 + 2 * (8 / 15), 1e-12);
    // A row with nothing known gets the training distribution back.
    const blank = makeFrame(t.X.columns.map((c) => (c.type === "categorical" ? { ...c, codes: Int32Array.from([-1]) } : { ...c, values: Float64Array.from([NaN]) })));
    const p = cart.predict(s, blank) as { proba: Float64Array };
    close(p.proba[0] + p.proba[1], 1, 1e-12);
    assert.ok(p.proba[0] > 0 && p.proba[1] > 0);
  });

  test("explain: text rules and Graphviz", () => {
    const s = fit("3.0");
    const text = cart.explain?.(s, { format: "text" }) as string;
    assert.match(text, /^纹理 ≠ 清晰\n/);
    assert.match(text, /密度 ≤ 0\.3815: 否 \(samples 2\)/);
    const dot = cart.explain?.(s, { format: "dot" }) as string;
    assert.match(dot, /^digraph tree \{/);
    assert.match(dot, /n0 -> n1 \[label="≠ 清晰"\];/);
    const e = explain(s);
    const sum = Object.values(e.feature_importances).reduce((a, b) => a + b, 0);
    close(sum, 1, 1e-12);
    assert.ok(e.feature_importances["纹理"] > 0);
    assert.equal(e.feature_importances["脐部"], 0);
  });

  test("ccp_alpha never grows the tree as it rises; the pruning path ends at the root", () => {
    const t = watermelon("3.0");
    const path = explain(fit("3.0")).pruning_path;
    assert.equal(path.ccp_alphas[0], 0);
    for (let i = 1; i < path.ccp_alphas.length; i++) assert.ok(path.ccp_alphas[i] >= path.ccp_alphas[i - 1]);
    close(path.impurities[path.impurities.length - 1], 1 - (9 / 17) ** 2 - (8 / 17) ** 2, 1e-12);
    let last = Infinity;
    for (const alpha of [0, 0.01, 0.03, 0.05, 0.1, 0.2, 0.5]) {
      const n = cart.fit(t, cart.params.parse({ ccp_alpha: alpha }), ctx()).kind.length;
      assert.ok(n <= last, `alpha ${alpha}: ${n} nodes after ${last}`);
      last = n;
    }
    assert.equal(last, 1);
  });
});

describe("cart: weights, class weights, feature sampling, impurity decrease", () => {
  test("a row of weight 2 counts as that row twice", () => {
    const t = watermelon("3.0");
    const twice = [0, 3, 8, 11, 15];
    const weights = Float64Array.from({ length: 17 }, (_, i) => (twice.includes(i) ? 2 : 1));
    const weighted = explain(cart.fit({ ...t, weights }, cart.params.parse({}), ctx())).tree;
    const rows = [...Array(17).keys(), ...twice];
    const target = t.target as { classes: readonly string[]; y: Int32Array };
    const duplicated = explain(cart.fit({ X: takeRows(t.X, rows), target: { task: "classification", classes: target.classes, y: Int32Array.from(rows, (r) => target.y[r]) } }, cart.params.parse({}), ctx())).tree;
    assert.deepEqual(weighted, duplicated);
    assert.equal(weighted.samples, 22);
  });

  test('class_weight "balanced" and by label reweight the class distributions', () => {
    const t = watermelon("2.0");
    const balanced = explain(cart.fit(t, cart.params.parse({ class_weight: "balanced" }), ctx())).tree;
    // 17 / (2 × 9) per 否 and 17 / (2 × 8) per 是: both classes weigh 8.5.
    close((balanced.distribution as Record<string, number>)["否"], 8.5, 1e-12);
    close((balanced.distribution as Record<string, number>)["是"], 8.5, 1e-12);
    const byLabel = explain(cart.fit(t, cart.params.parse({ class_weight: { 是: 3 } }), ctx())).tree;
    assert.deepEqual(byLabel.distribution, { 否: 9, 是: 24 });
    assert.equal(byLabel.prediction, "是");
    assert.throws(() => cart.fit(t, cart.params.parse({ class_weight: { 甜: 2 } }), ctx()), /not a class/);
  });

  test("max_features draws features per node from the seed; with all features it changes nothing", () => {
    const d = realData("breast-cancer");
    const one = cart.fit(d.train, cart.params.parse({ max_features: 1 }), ctx(1));
    const all = cart.fit(d.train, cart.params.parse({ max_features: 30 }), ctx(1));
    assert.deepEqual(all, cart.fit(d.train, cart.params.parse({}), ctx(2)));
    // With one feature per node the root offers a single candidate.
    assert.equal(one.candOffset[1] - one.candOffset[0], 1);
  });

  test("min_impurity_decrease stops splits that gain too little", () => {
    const t = watermelon("3.0");
    const root = explain(fit("3.0")).tree;
    const rootGain = 1 - (9 / 17) ** 2 - (8 / 17) ** 2 - (root.split?.score as number);
    assert.equal(cart.fit(t, cart.params.parse({ min_impurity_decrease: rootGain + 1e-9 }), ctx()).kind.length, 1);
    assert.ok(cart.fit(t, cart.params.parse({ min_impurity_decrease: rootGain - 1e-9 }), ctx()).kind.length > 1);
  });

  test("regression: categorical levels ordered by mean, leaves carry means", () => {
    const levels = ["a", "b", "c", "d"];
    const codes = Int32Array.from([0, 0, 1, 1, 2, 2, 3, 3]);
    const X = makeFrame([{ type: "categorical", name: "g", levels, codes }]);
    const y = Float64Array.from([5, 5, 1, 1, 6, 6, 0, 0]); // means a 5, b 1, c 6, d 0: order d b a c
    const s = cart.fit({ X, target: { task: "regression", y } }, cart.params.parse({ max_depth: 1 }), ctx());
    const root = explain(s).tree;
    assert.equal(root.value, 3);
    assert.deepEqual(root.children.map((c) => c.when), [{ in: ["b", "d"] }, { in: ["a", "c"] }]);
    assert.deepEqual(root.children.map((c) => c.node.value), [0.5, 5.5]);
    close(root.split?.score as number, 0.25, 1e-12);
  });
});

describe("cart on real data", () => {
  for (const name of ["iris", "wine", "breast-cancer", "digits"] as const) {
    test(`${name}: accuracy at least scikit-learn's tree on the same split minus 0.03`, () => {
      const d = realData(name);
      const s = cart.fit(d.train, cart.params.parse({}), ctx());
      const acc = accuracy(classes(cart.predict(s, d.testX)), (d.testTarget as { y: Int32Array }).y);
      assert.ok(acc >= d.meta.floor, `${acc} < ${d.meta.floor}`);
    });
  }

  test("diabetes: regression tree R² at depth 4 at least scikit-learn's minus 0.03", () => {
    const d = realData("diabetes");
    const s = cart.fit(d.train, cart.params.parse({ max_depth: 4 }), ctx());
    assert.equal(s.criterion, "mse");
    const p = cart.predict(s, d.testX);
    const score = r2((p as { values: Float64Array }).values, (d.testTarget as { y: Float64Array }).y);
    assert.ok(score >= d.meta.floor_max_depth_4, `${score} < ${d.meta.floor_max_depth_4}`);
  });

  test("diabetes: the fully grown regression tree at least scikit-learn's minus 0.03; pruning on validation rows shrinks it and helps", () => {
    const d = realData("diabetes");
    const y = (d.testTarget as { y: Float64Array }).y;
    const score = (s: TreeState): number => r2((cart.predict(s, d.testX) as { values: Float64Array }).values, y);
    const full = cart.fit(d.train, cart.params.parse({}), ctx());
    assert.ok(score(full) >= d.meta.floor, `${score(full)} < ${d.meta.floor}`);
    for (const pruning of ["pre", "post"] as const) {
      const pruned = cart.fit(d.train, cart.params.parse({ pruning }), ctx());
      assert.ok(pruned.kind.length < full.kind.length / 5, `${pruning}: ${pruned.kind.length} nodes`);
      assert.ok(score(pruned) > score(full) + 0.1, `${pruning}: R² ${score(pruned)}`);
    }
  });

  test("save → load → identical predictions and explanation; same seed → same tree", () => {
    const d = realData("breast-cancer");
    const s = cart.fit(d.train, cart.params.parse({ max_features: "sqrt" }), ctx(7));
    const back = roundTrip(s);
    assert.deepEqual(cart.predict(back, d.testX), cart.predict(s, d.testX));
    assert.deepEqual(cart.explain?.(back), cart.explain?.(s));
    assert.deepEqual(encodeState(cart.fit(d.train, cart.params.parse({ max_features: "sqrt" }), ctx(7))), encodeState(s));
    assert.notDeepEqual(encodeState(cart.fit(d.train, cart.params.parse({ max_features: "sqrt" }), ctx(8))), encodeState(s));
  });

  test("predicting one row at a time equals predicting the batch", () => {
    const d = realData("iris");
    const s = cart.fit(d.train, cart.params.parse({}), ctx());
    const batch = cart.predict(s, d.testX) as { labels: Int32Array; proba: Float64Array };
    for (let i = 0; i < d.testX.rowCount; i++) {
      const one = cart.predict(s, takeRows(d.testX, [i])) as { labels: Int32Array; proba: Float64Array };
      assert.equal(one.labels[0], batch.labels[i]);
      assert.deepEqual([...one.proba], [...batch.proba.subarray(3 * i, 3 * i + 3)]);
    }
  });

  test("a missing numeric value is spread over both branches with the training shares", () => {
    const d = realData("breast-cancer");
    const s = cart.fit(d.train, cart.params.parse({}), ctx());
    const f = s.feature[0];
    const t = s.threshold[0];
    const row = (v: number): typeof d.testX => {
      const one = takeRows(d.testX, [5]);
      return makeFrame(one.columns.map((c, j) => (j === f ? { ...c, values: Float64Array.from([v]) } : c)) as typeof one.columns);
    };
    const proba = (v: number): Float64Array => (cart.predict(s, row(v)) as { proba: Float64Array }).proba;
    const [left, right] = [s.branchFraction[s.childStart[0]], s.branchFraction[s.childStart[0] + 1]];
    close(left + right, 1, 1e-12);
    const blend = proba(NaN);
    for (let k = 0; k < 2; k++) close(blend[k], left * proba(t - 1e-9)[k] + right * proba(t + 1e-9)[k], 1e-12);
  });

  test("a tampered state is rejected on load", () => {
    const s = fit("2.0");
    const bad = { ...s, childStart: Int32Array.from(s.childStart, (c, i) => (i === 0 ? 0 : c)) };
    assert.throws(() => cart.state.parse(bad));
    assert.throws(() => cart.state.parse({ ...s, extra: 1 }));
  });
});
