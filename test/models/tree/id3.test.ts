import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { id3 } from "../../../src/models/tree/id3.js";
import { fitTree } from "../../../src/models/tree/grow.js";
import { engineOptions } from "../../../src/models/tree/params.js";
import type { TreeState } from "../../../src/models/tree/tree-state.js";
import type { ExplainNode, TreeExplanation } from "../../../src/models/tree/explain.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { makeFrame, takeRows } from "../../../src/data/frame.js";
import type { CategoricalColumn, Frame } from "../../../src/data/frame.js";
import type { TrainingSet } from "../../../src/models/contract.js";
import { accuracy, ctx, readCsv, realData, trainingSet, watermelon } from "./fixtures.js";

const close = (actual: number, expected: number, tol = 0.002): void => assert.ok(Math.abs(actual - expected) <= tol, `${actual} ≠ ${expected} ± ${tol}`);
const explain = (s: TreeState): TreeExplanation => id3.explain?.(s) as TreeExplanation;
const text = (s: TreeState): string => id3.explain?.(s, { format: "text" }) as string;
const child = (n: ExplainNode, level: string): ExplainNode => {
  const c = n.children.find((e) => "equals" in e.when && e.when.equals === level);
  if (!c) throw new Error(`no branch ${level}`);
  return c.node;
};
const cat = (name: string, levels: string[], values: string[]) => ({ type: "categorical" as const, name, levels, codes: Int32Array.from(values, (v) => levels.indexOf(v)) });

describe("id3 on watermelon 2.0 (the book's figure 4.4)", () => {
  const s = id3.fit(watermelon("2.0"), id3.params.parse({}), ctx());
  const tree = explain(s).tree;

  test("root 纹理 by information gain 0.381, one branch per level", () => {
    assert.equal(tree.split?.feature, "纹理");
    assert.equal(tree.split?.criterion, "info_gain");
    close(tree.split?.score as number, 0.381);
    assert.equal(tree.children.length, 3);
  });

  test("under 纹理=清晰 (rows 1,2,3,4,5,6,8,10,15): gains 色泽 0.043, 根蒂 0.458, 敲声 0.331, 脐部 0.458, 触感 0.458; 纹理 is not offered again", () => {
    const clear = child(tree, "清晰");
    assert.equal(clear.samples, 9);
    const scores = Object.fromEntries((clear.split?.candidates ?? []).map((c) => [c.feature, c.score]));
    assert.deepEqual(Object.keys(scores), ["色泽", "根蒂", "敲声", "脐部", "触感"]);
    close(scores["色泽"], 0.043);
    close(scores["根蒂"], 0.458);
    close(scores["敲声"], 0.331);
    close(scores["脐部"], 0.458);
    close(scores["触感"], 0.458);
    // The documented tie rule: equal gains (within 1e-12) go to the earlier column, as the book picks 根蒂.
    assert.equal(clear.split?.feature, "根蒂");
  });

  test("the whole tree, rule by rule", () => {
    assert.equal(
      text(s),
      [
        "纹理 = 模糊: 否 (samples 3)",
        "纹理 = 清晰",
        "|   根蒂 = 硬挺: 否 (samples 1)",
        "|   根蒂 = 稍蜷",
        "|   |   色泽 = 乌黑",
        "|   |   |   触感 = 硬滑: 是 (samples 1)",
        "|   |   |   触感 = 软粘: 否 (samples 1)",
        "|   |   色泽 = 浅白: 是 (samples 0)",
        "|   |   色泽 = 青绿: 是 (samples 1)",
        "|   根蒂 = 蜷缩: 是 (samples 5)",
        "纹理 = 稍糊",
        "|   触感 = 硬滑: 否 (samples 4)",
        "|   触感 = 软粘: 是 (samples 1)",
        "",
      ].join("\n"),
    );
  });

  test("stopping case 3: the empty branch 色泽=浅白 under 根蒂=稍蜷 is a leaf with its parent's majority", () => {
    const light = child(child(child(tree, "清晰"), "稍蜷"), "浅白");
    assert.equal(light.samples, 0);
    assert.equal(light.prediction, "是");
    assert.deepEqual(light.distribution, { 否: 0, 是: 0 });
    // A row reaching it is predicted with the parent's distribution (2 是 of 3).
    const X = makeFrame(
      watermelon("2.0").X.columns.map((c) => {
        const at: Record<string, string> = { 色泽: "浅白", 根蒂: "稍蜷", 敲声: "浊响", 纹理: "清晰", 脐部: "稍凹", 触感: "硬滑" };
        const levels = (c as { levels: readonly string[] }).levels;
        return { ...c, codes: Int32Array.from([levels.indexOf(at[c.name])]) } as typeof c;
      }),
    );
    const p = id3.predict(s, X) as { labels: Int32Array; proba: Float64Array };
    close(p.proba[1], 2 / 3, 1e-12);
  });

  test("fits its training rows; save → load → same predictions and explanation; same seed → same tree", () => {
    const t = watermelon("2.0");
    assert.equal(accuracy((id3.predict(s, t.X) as { labels: Int32Array }).labels, (t.target as { y: Int32Array }).y), 1);
    const back = id3.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s)))));
    assert.deepEqual(id3.predict(back, t.X), id3.predict(s, t.X));
    assert.deepEqual(id3.explain?.(back), id3.explain?.(s));
    assert.deepEqual(encodeState(id3.fit(t, id3.params.parse({}), ctx())), encodeState(s));
  });
});

describe("id3: the stopping cases of TreeGenerate (seed 001)", () => {
  test("case 1: all rows one class → one leaf", () => {
    const X = makeFrame([cat("a", ["x", "y"], ["x", "y", "x"])]);
    const s = id3.fit({ X, target: { task: "classification", y: Int32Array.from([1, 1, 1]), classes: ["n", "p"] } }, id3.params.parse({}), ctx());
    assert.equal(s.kind.length, 1);
    assert.equal(explain(s).tree.prediction, "p");
  });

  test("case 2: rows equal on every attribute → majority leaf; attributes used up → majority leaf", () => {
    const X = makeFrame([cat("a", ["x", "y"], ["x", "x", "x", "x"])]);
    const s = id3.fit({ X, target: { task: "classification", y: Int32Array.from([1, 0, 1, 1]), classes: ["n", "p"] } }, id3.params.parse({}), ctx());
    assert.equal(s.kind.length, 1);
    assert.deepEqual(explain(s).tree.distribution, { n: 1, p: 3 });
    // After A and B are both used (a1, b2 still mixed: 1 p, 2 n) the leaf takes the majority n.
    const tree = explain(id3.fit(pruningFixture({ growOnly: true }).train, id3.params.parse({}), ctx())).tree;
    const leaf = child(child(tree, "a1"), "b2");
    assert.equal(leaf.children.length, 0);
    assert.deepEqual(leaf.distribution, { n: 2, p: 1 });
    assert.equal(leaf.prediction, "n");
  });

  test("a numeric attribute can be split again below (watermelon 3.0's 密度 and 含糖率, the book's figure 4.10)", () => {
    const w = watermelon("3.0");
    const X = makeFrame(w.X.columns.filter((c) => c.type === "numeric"));
    const s = id3.fit({ X, target: w.target }, id3.params.parse({}), ctx());
    assert.equal(
      text(s),
      [
        "含糖率 ≤ 0.126: 否 (samples 5)",
        "含糖率 > 0.126",
        "|   密度 ≤ 0.3815: 否 (samples 2)",
        "|   密度 > 0.3815",
        "|   |   含糖率 ≤ 0.2045",
        "|   |   |   密度 ≤ 0.56: 是 (samples 1)",
        "|   |   |   密度 > 0.56: 否 (samples 2)",
        "|   |   含糖率 > 0.2045: 是 (samples 7)",
        "",
      ].join("\n"),
    );
  });

  test("missing values are refused (the pipeline imputes in front of id3)", () => {
    const t = watermelon("2.0-alpha");
    assert.equal(id3.accepts.missing, false);
    assert.throws(() => id3.fit(t, id3.params.parse({}), ctx()), /missing/);
  });
});

describe("seed 004's A/B table, as weighted rows (natural log)", () => {
  // 50 × (A=0,B=0,−), 50 × (A=0,B=1,−), 3 × (A=1,B=0,−), 100 × (A=1,B=1,+)
  const X = makeFrame([cat("A", ["0", "1"], ["0", "0", "1", "1"]), cat("B", ["0", "1"], ["0", "1", "0", "1"])]);
  const train: TrainingSet = { X, target: { task: "classification", y: Int32Array.from([0, 0, 0, 1]), classes: ["-", "+"] }, weights: Float64Array.from([50, 50, 3, 100]) };

  test("Gain(S,A) = 0.626 and Gain(S,B) = 0.222 nats; ID3 splits on A first", () => {
    const tree = explain(id3.fit(train, id3.params.parse({}), ctx())).tree;
    assert.equal(tree.samples, 203);
    const gain = Object.fromEntries((tree.split?.candidates ?? []).map((c) => [c.feature, c.score * Math.LN2]));
    close(gain.A, 0.626);
    close(gain.B, 0.222);
    assert.equal(tree.split?.feature, "A");
    assert.deepEqual(child(tree, "1").distribution, { "-": 3, "+": 100 });
  });
  test('entropy_base "e" reads seed 004 directly: gains in nats, the same tree, min_impurity_decrease in nats', () => {
    const inNats = explain(id3.fit(train, id3.params.parse({ entropy_base: "e" }), ctx())).tree;
    const gain = Object.fromEntries((inNats.split?.candidates ?? []).map((c) => [c.feature, c.score]));
    close(gain.A, 0.626);
    close(gain.B, 0.222);
    const inBits = explain(id3.fit(train, id3.params.parse({}), ctx())).tree;
    assert.equal(inNats.split?.feature, inBits.split?.feature);
    assert.equal(inNats.split?.score, (inBits.split?.score ?? 0) * Math.LN2);
    // The root's gain is 0.626 nats (weight share 1): a threshold just below keeps the split, just above refuses it.
    const at = (t: number) => explain(id3.fit(train, id3.params.parse({ entropy_base: "e", min_impurity_decrease: t }), ctx())).tree.split?.feature ?? null;
    assert.equal(at(0.62), "A");
    assert.equal(at(0.63), null);
  });
});

/**
 * The pruning fixture, worked by hand. Grow rows: a1b1 p p p · a1b2 p n n · a2b1 n n · a2b2 n p p.
 * Root gain: A 0.052 bits against B 0.007, so A; under a1 and a2, B (the only attribute left).
 * Full tree: A → a1: B{b1 p, b2 n}, a2: B{b1 n, b2 p}; the root alone says p (6 of 11).
 * Validation rows V1 a1b1 p · V2 a1b2 p · V3 a2b2 p · V4 a2b1 n · V5 a2b1 n.
 * Pre-pruning: root as a leaf gets V1 V2 V3 right (3/5), split on A (a1 → p, a2 → n) V1 V2 V4 V5 (4/5): kept.
 *   a1 as a leaf (p) gets V1 V2 right, split on B gets only V1: the split lowers accuracy and is refused.
 *   a2 as a leaf (n) gets V4 V5, split on B gets V3 V4 V5: kept.
 * Post-pruning on the full tree, bottom-up: a1's subtree errs on V2, a leaf p on nothing → collapsed;
 *   a2's subtree errs on nothing, a leaf n on V3 → kept; the root's subtree now errs on nothing → kept.
 * Without V2, a1's split neither helps nor hurts (V1 right either way): pre-pruning refuses it (no gain),
 *   post-pruning collapses it (removal keeps accuracy).
 */
function pruningFixture(options: { withoutV2?: boolean; growOnly?: boolean } = {}): { train: TrainingSet; validation: Int32Array } {
  const all = readCsv("tree-pruning.csv");
  const keep = [...Array(all.rowCount).keys()].filter((i) => !(options.withoutV2 && i === 12) && !(options.growOnly && i >= 11));
  const frame: Frame = takeRows(all, keep);
  const role = frame.columns.find((c) => c.name === "role") as CategoricalColumn;
  const validation = Int32Array.from([...role.codes.keys()].filter((i) => role.levels[role.codes[i]] === "validation"));
  return { train: trainingSet(frame, "y", ["role"]), validation };
}

describe("pre- and post-pruning on validation rows (hand-worked fixture)", () => {
  const { train, validation } = pruningFixture();
  const fitWith = (pruning: "none" | "pre" | "post", rows: Int32Array, set: TrainingSet = train): string =>
    text(fitTree(set, engineOptions(id3.params.parse({ pruning }), { criterion: "info_gain", categoricalSplit: "multiway", allowMissing: false }), ctx(), { validationRows: rows }));
  const PRUNED = ["A = a1: p (samples 6)", "A = a2", "|   B = b1: n (samples 2)", "|   B = b2: p (samples 3)", ""].join("\n");

  test("the unpruned tree (grown on the grow rows only)", () => {
    const full = pruningFixture({ growOnly: true }).train;
    assert.equal(
      fitWith("none", new Int32Array(0), full),
      ["A = a1", "|   B = b1: p (samples 3)", "|   B = b2: n (samples 3)", "A = a2", "|   B = b1: n (samples 2)", "|   B = b2: p (samples 3)", ""].join("\n"),
    );
  });

  test("pre-pruning refuses a1's split (it lowers validation accuracy from 2/2 to 1/2) and keeps a2's", () => {
    assert.equal(fitWith("pre", validation), PRUNED);
  });

  test("post-pruning collapses a1's subtree and keeps a2's", () => {
    assert.equal(fitWith("post", validation), PRUNED);
  });

  test("without V2: a split that leaves validation accuracy unchanged is refused by pre- and collapsed by post-pruning", () => {
    const f = pruningFixture({ withoutV2: true });
    assert.equal(f.validation.length, 4);
    assert.equal(fitWith("pre", f.validation, f.train), PRUNED);
    assert.equal(fitWith("post", f.validation, f.train), PRUNED);
  });

  test("with a seeded hold-out (validation_fraction) pruning is reproducible", () => {
    const t = watermelon("2.0");
    const p = id3.params.parse({ pruning: "post", validation_fraction: 0.4 });
    assert.deepEqual(encodeState(id3.fit(t, p, ctx(3))), encodeState(id3.fit(t, p, ctx(3))));
    assert.ok(id3.fit(t, p, ctx(3)).kind.length < id3.fit(t, id3.params.parse({}), ctx()).kind.length);
  });
});

describe("id3 on real data", () => {
  for (const name of ["iris", "wine", "breast-cancer"] as const) {
    test(`${name}: accuracy at least scikit-learn's entropy tree on the same split minus 0.03`, () => {
      const d = realData(name);
      const s = id3.fit(d.train, id3.params.parse({}), ctx());
      const acc = accuracy((id3.predict(s, d.testX) as { labels: Int32Array }).labels, (d.testTarget as { y: Int32Array }).y);
      assert.ok(acc >= (d.meta as unknown as { floor_entropy: number }).floor_entropy, `${acc}`);
    });
  }
});
