import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { c45 } from "../../../src/models/tree/c45.js";
import { chooseSplit } from "../../../src/models/tree/split-search.js";
import type { Candidate } from "../../../src/models/tree/split-search.js";
import { addErrs } from "../../../src/models/tree/prune.js";
import type { TreeState } from "../../../src/models/tree/tree-state.js";
import type { TreeExplanation } from "../../../src/models/tree/explain.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { makeFrame } from "../../../src/data/frame.js";
import type { CategoricalColumn, Frame } from "../../../src/data/frame.js";
import { accuracy, ctx, realData, watermelon } from "./fixtures.js";

const close = (actual: number, expected: number, tol = 0.002): void => assert.ok(Math.abs(actual - expected) <= tol, `${actual} ≠ ${expected} ± ${tol}`);
const explain = (s: TreeState): TreeExplanation => c45.explain?.(s) as TreeExplanation;

describe("c45: gain ratio with C4.5's heuristic", () => {
  test("watermelon 2.0 root: gains above the mean (0.178) are 纹理 and 脐部; the better ratio, 纹理 0.263, wins", () => {
    const tree = explain(c45.fit(watermelon("2.0"), c45.params.parse({}), ctx())).tree;
    assert.equal(tree.split?.feature, "纹理");
    assert.equal(tree.split?.criterion, "gain_ratio");
    close(tree.split?.score as number, 0.263);
    const ratios = Object.fromEntries((tree.split?.candidates ?? []).map((c) => [c.feature, c.score]));
    close(ratios["脐部"], 0.187);
  });

  test("the heuristic passes over a high ratio whose gain is below the mean", () => {
    const cand = (feature: number, gain: number, ratio: number): Candidate => ({ feature, gain, ratio, score: ratio, threshold: NaN, rule: { kind: 1, feature, threshold: 0, nBranches: 2, levelMap: null, weights: null } });
    // Mean gain 0.25: feature 1 (ratio 0.5) is below it; of 0 and 2, feature 2 has the better ratio.
    assert.equal(chooseSplit([cand(0, 0.4, 0.2), cand(1, 0.05, 0.5), cand(2, 0.3, 0.25)], "gain_ratio")?.feature, 2);
    assert.equal(chooseSplit([cand(0, 0.4, 0.2), cand(1, 0.05, 0.5), cand(2, 0.3, 0.25)], "info_gain")?.feature, 0);
  });

  test("watermelon 3.0: continuous attributes compete by their best threshold; 含糖率 ≤ 0.126 (ratio 0.400) takes the root, 密度 ≤ 0.3815 follows", () => {
    const tree = explain(c45.fit(watermelon("3.0"), c45.params.parse({}), ctx())).tree;
    assert.equal(tree.split?.feature, "含糖率");
    close(tree.split?.threshold as number, 0.126, 1e-9);
    close(tree.split?.score as number, 0.3997);
    const right = tree.children[1].node;
    assert.equal(right.split?.feature, "密度");
    close(right.split?.threshold as number, 0.3815, 1e-9);
  });
});

describe("c45 on watermelon 2.0α: missing values by C4.5's weighting", () => {
  const t = watermelon("2.0-alpha");
  const s = c45.fit(t, c45.params.parse({}), ctx());
  const tree = explain(s).tree;

  test("root 纹理; rows 8 and 10 (纹理 missing) enter 清晰, 稍糊, 模糊 with weights 7/15, 5/15, 3/15", () => {
    assert.equal(tree.split?.feature, "纹理");
    const by = Object.fromEntries(tree.children.map((c) => [(c.when as { equals: string }).equals, c]));
    close(by["清晰"].fraction, 7 / 15, 1e-12);
    close(by["稍糊"].fraction, 5 / 15, 1e-12);
    close(by["模糊"].fraction, 3 / 15, 1e-12);
    // Rows 8 (good) and 10 (bad) add 7/15 each to 清晰, whose known rows are 1–6 (是) and 15 (否).
    const clear = by["清晰"].node;
    close(clear.samples, 7 + 14 / 15, 1e-12);
    close((clear.distribution as Record<string, number>)["是"], 6 + 7 / 15, 1e-12);
    close((clear.distribution as Record<string, number>)["否"], 1 + 7 / 15, 1e-12);
    close(by["模糊"].node.samples, 3 + 6 / 15, 1e-12);
    assert.equal(tree.samples, 17);
  });

  test("a row missing 纹理 is predicted as the 7/15 · 5/15 · 3/15 blend of the three branches", () => {
    const texture = t.X.columns.find((c) => c.name === "纹理") as CategoricalColumn;
    const row = (code: number): Frame => makeFrame(t.X.columns.map((c) => (c.name === "纹理" ? { ...texture, codes: Int32Array.from([code]) } : { ...(c as CategoricalColumn), codes: Int32Array.from([(c as CategoricalColumn).codes[0] < 0 ? 0 : (c as CategoricalColumn).codes[0]]) })));
    const proba = (X: Frame): Float64Array => (c45.predict(s, X) as { proba: Float64Array }).proba;
    const blend = proba(row(-1));
    const f = [texture.levels.indexOf("清晰"), texture.levels.indexOf("稍糊"), texture.levels.indexOf("模糊")];
    const parts = f.map((code) => proba(row(code)));
    for (let k = 0; k < 2; k++) close(blend[k], (7 / 15) * parts[0][k] + (5 / 15) * parts[1][k] + (3 / 15) * parts[2][k], 1e-12);
    close(blend[0] + blend[1], 1, 1e-12);
  });

  test("rows 8 and 10 of the table are predicted from their known attributes", () => {
    const p = c45.predict(s, t.X) as { labels: Int32Array; proba: Float64Array };
    // Row 8 (是) and row 10 (否) miss 纹理; the tree still gets both right.
    assert.equal(p.labels[7], 1);
    assert.equal(p.labels[9], 0);
    assert.ok(p.proba[2 * 7 + 1] > 0.5);
  });
});

describe("c45: pessimistic (error-based) pruning", () => {
  test("C4.5's upper error bounds at CF 0.25: U(0,6) = 0.206, U(0,9) = 0.143, U(0,1) = 0.750, U(1,16) ≈ 0.157", () => {
    close(addErrs(6, 0, 0.25) / 6, 0.206);
    close(addErrs(9, 0, 0.25) / 9, 0.143);
    close(addErrs(1, 0, 0.25), 0.75);
    close((1 + addErrs(16, 1, 0.25)) / 16, 0.157);
  });

  test("Quinlan's example: leaves of 6, 9 and 1 pure rows (3.27 predicted errors) collapse into one leaf of 16 with 1 error (2.51)", () => {
    const levels = ["x1", "x2", "x3"];
    const codes = Int32Array.from([...Array(6).fill(0), ...Array(9).fill(1), 2]);
    const X = makeFrame([{ type: "categorical", name: "x", levels, codes }]);
    const target = { task: "classification" as const, classes: ["A", "B"], y: Int32Array.from([...Array(15).fill(0), 1]) };
    assert.equal(c45.fit({ X, target }, c45.params.parse({}), ctx()).kind.length, 4);
    const pruned = c45.fit({ X, target }, c45.params.parse({ pruning: "pessimistic" }), ctx());
    assert.equal(pruned.kind.length, 1);
    assert.equal(explain(pruned).tree.prediction, "A");
    // A lower confidence factor prunes at least as much; a high one keeps this tree.
    assert.equal(c45.fit({ X, target }, c45.params.parse({ pruning: "pessimistic", confidence_factor: 0.9 }), ctx()).kind.length, 4);
  });

  test("pessimistic pruning shrinks the breast-cancer tree without losing accuracy", () => {
    const d = realData("breast-cancer");
    const full = c45.fit(d.train, c45.params.parse({}), ctx());
    const pruned = c45.fit(d.train, c45.params.parse({ pruning: "pessimistic" }), ctx());
    assert.ok(pruned.kind.length < full.kind.length);
    const acc = (s: TreeState): number => accuracy((c45.predict(s, d.testX) as { labels: Int32Array }).labels, (d.testTarget as { y: Int32Array }).y);
    assert.ok(acc(pruned) >= acc(full) - 0.02);
  });
});

describe("c45 on real data", () => {
  for (const name of ["iris", "wine", "breast-cancer", "digits"] as const) {
    test(`${name}: accuracy at least scikit-learn's entropy tree on the same split minus 0.03`, () => {
      const d = realData(name);
      const s = c45.fit(d.train, c45.params.parse({}), ctx());
      const acc = accuracy((c45.predict(s, d.testX) as { labels: Int32Array }).labels, (d.testTarget as { y: Int32Array }).y);
      assert.ok(acc >= (d.meta as unknown as { floor_entropy: number }).floor_entropy, `${acc}`);
    });
  }

  test("save → load → identical predictions and explanation; same seed → same tree", () => {
    const t = watermelon("2.0-alpha");
    const s = c45.fit(t, c45.params.parse({ pruning: "pessimistic" }), ctx(5));
    const back = c45.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s)))));
    assert.deepEqual(c45.predict(back, t.X), c45.predict(s, t.X));
    assert.deepEqual(c45.explain?.(back), c45.explain?.(s));
    assert.equal(c45.explain?.(back, { format: "dot" }), c45.explain?.(s, { format: "dot" }));
    assert.deepEqual(encodeState(c45.fit(t, c45.params.parse({ pruning: "pessimistic" }), ctx(5))), encodeState(s));
  });
});
