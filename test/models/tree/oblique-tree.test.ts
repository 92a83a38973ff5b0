import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { obliqueTree } from "../../../src/models/tree/oblique-tree.js";
import type { TreeState } from "../../../src/models/tree/tree-state.js";
import { OBLIQUE } from "../../../src/models/tree/tree-state.js";
import type { TreeExplanation } from "../../../src/models/tree/explain.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { makeFrame } from "../../../src/data/frame.js";
import { accuracy, ctx, realData, watermelon } from "./fixtures.js";

const explain = (s: TreeState): TreeExplanation => obliqueTree.explain?.(s) as TreeExplanation;

describe("oblique_tree", () => {
  test("a diagonal boundary: one oblique split where an axis-parallel tree needs a staircase", () => {
    // Class p iff x + y > 1 on a 12 × 12 grid.
    const xs: number[] = [];
    const ys: number[] = [];
    const cls: number[] = [];
    for (let i = 0; i < 12; i++) {
      for (let j = 0; j < 12; j++) {
        const x = i / 11 + 0.013 * ((i * 7 + j * 3) % 5);
        const y = j / 11;
        xs.push(x);
        ys.push(y);
        cls.push(x + y > 1 ? 1 : 0);
      }
    }
    const X = makeFrame([
      { type: "numeric", name: "x", values: Float64Array.from(xs) },
      { type: "numeric", name: "y", values: Float64Array.from(ys) },
    ]);
    const s = obliqueTree.fit({ X, target: { task: "classification", y: Int32Array.from(cls), classes: ["n", "p"] } }, obliqueTree.params.parse({}), ctx());
    const root = explain(s).tree;
    assert.equal(root.split?.kind, "oblique");
    assert.equal(s.kind[0], OBLIQUE);
    assert.equal(s.kind.length, 3, "one split separates the classes");
    const w = root.split?.weights as Record<string, number>;
    assert.ok(Math.abs(w.x / w.y - 1) < 0.15, `weights ${JSON.stringify(w)} should be ∝ (1, 1)`);
    assert.equal(accuracy((obliqueTree.predict(s, X) as { labels: Int32Array }).labels, Int32Array.from(cls)), 1);
    assert.match(obliqueTree.explain?.(s, { format: "text" }) as string, /·x \+ .*·y ≤ /);
  });

  test("watermelon 3.0 (密度, 含糖率): fits the 17 rows with a linear root test", () => {
    const t = watermelon("3.0");
    const X = makeFrame(t.X.columns.filter((c) => c.type === "numeric"));
    const s = obliqueTree.fit({ X, target: t.target }, obliqueTree.params.parse({}), ctx());
    assert.equal(s.kind[0], OBLIQUE);
    assert.equal(accuracy((obliqueTree.predict(s, X) as { labels: Int32Array }).labels, (t.target as { y: Int32Array }).y), 1);
    assert.ok(s.kind.length < 9, "fewer nodes than the axis-parallel ID3 tree on the same columns");
  });

  test("categorical and missing input are left to the pipeline", () => {
    assert.deepEqual(obliqueTree.accepts, { categorical: false, missing: false, weights: true });
    const t = watermelon("2.0-alpha");
    assert.throws(() => obliqueTree.fit(t, obliqueTree.params.parse({}), ctx()), /missing/);
  });

  for (const name of ["iris", "wine", "breast-cancer"] as const) {
    test(`${name}: accuracy at least scikit-learn's (axis-parallel) tree on the same split minus 0.03`, () => {
      const d = realData(name);
      const s = obliqueTree.fit(d.train, obliqueTree.params.parse({}), ctx());
      const acc = accuracy((obliqueTree.predict(s, d.testX) as { labels: Int32Array }).labels, (d.testTarget as { y: Int32Array }).y);
      assert.ok(acc >= d.meta.floor, `${acc} < ${d.meta.floor}`);
    });
  }

  test("save → load → identical predictions and explanation; same seed → same tree", () => {
    const d = realData("wine");
    const p = obliqueTree.params.parse({ n_restarts: 3 });
    const s = obliqueTree.fit(d.train, p, ctx(11));
    const back = obliqueTree.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s)))));
    assert.deepEqual(obliqueTree.predict(back, d.testX), obliqueTree.predict(s, d.testX));
    assert.deepEqual(obliqueTree.explain?.(back), obliqueTree.explain?.(s));
    assert.deepEqual(encodeState(obliqueTree.fit(d.train, p, ctx(11))), encodeState(s));
    const imp = explain(s).feature_importances;
    assert.ok(Math.abs(Object.values(imp).reduce((a, b) => a + b, 0) - 1) < 1e-9);
  });

  test("an aborted signal stops a fit inside a node's refinement, not only between nodes", () => {
    // max_depth 4: at most 31 node expansions, fewer than the 64 between the grower's own checkpoints.
    const d = realData("breast-cancer");
    const controller = new AbortController();
    controller.abort(new Error("stopped by the test"));
    const p = obliqueTree.params.parse({ max_depth: 4, n_restarts: 5 });
    assert.ok(obliqueTree.fit(d.train, p, ctx()).kind.length > 1, "without a signal the fit grows a tree");
    assert.throws(() => obliqueTree.fit(d.train, p, { ...ctx(), signal: controller.signal }), /stopped by the test/);
  });
});
