/**
 * Many-level categorical columns (issue 20): binary cuts exact for two classes and
 * regression, ordered by the first principal component for more classes; multiway
 * splits branch only for the levels present, absent ones share one empty leaf;
 * max_categories_per_split pools the lightest levels; movies.csv end to end.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { cart } from "../../../src/models/tree/cart.js";
import { c45 } from "../../../src/models/tree/c45.js";
import { id3 } from "../../../src/models/tree/id3.js";
import type { TreeState } from "../../../src/models/tree/tree-state.js";
import { CATEGORICAL } from "../../../src/models/tree/tree-state.js";
import type { ExplainNode, TreeExplanation } from "../../../src/models/tree/explain.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { makeFrame, takeRows } from "../../../src/data/frame.js";
import type { CategoricalColumn, Frame } from "../../../src/data/frame.js";
import type { Target, TrainingSet } from "../../../src/models/contract.js";
import { readCsv } from "../../../src/data/read-csv.js";
import { createRng } from "../../../src/data/random.js";
import { accuracy, ctx, fixturePath } from "./fixtures.js";

const close = (actual: number, expected: number, tol = 1e-12): void => assert.ok(Math.abs(actual - expected) <= tol, `${actual} ≠ ${expected} ± ${tol}`);
const explainOf = (s: TreeState): TreeExplanation => cart.explain?.(s) as TreeExplanation;
const column = (name: string, levels: string[], values: (string | null)[]): CategoricalColumn => ({
  type: "categorical",
  name,
  levels,
  codes: Int32Array.from(values, (v) => (v === null ? -1 : levels.indexOf(v))),
});
const classification = (X: Frame, labels: string[], classes: string[]): TrainingSet => ({ X, target: { task: "classification", classes, y: Int32Array.from(labels, (l) => classes.indexOf(l)) } });
const groupsOf = (n: ExplainNode): string[][] =>
  n.children.map((c) => ("in" in c.when ? [...c.when.in] : "equals" in c.when ? [c.when.equals] : []).sort());

describe("binary cuts of a many-level column", () => {
  test("three classes: levels ordered along the first principal component, the cut between its halves", () => {
    // Class proportions (x, y, z) per level lie on one line from (1,0,0) to (0,0,1):
    // q = 3 x, s = 2 x + 1 z, p = 1 x + 2 z, r = 3 z. The component orders them q, s, p, r;
    // its three cuts have Gini 0.3333 ({q}), 0.2778 ({q,s}: 6·(1 − 26/36)·2/12) and 0.3333 ({q,s,p}).
    // A cut by level index (p, q, r, s) or one level against the rest cannot make {q,s} | {p,r}.
    const rows: [string, string][] = [
      ...Array(3).fill(["q", "x"]),
      ...Array(2).fill(["s", "x"]),
      ["s", "z"],
      ["p", "x"],
      ...Array(2).fill(["p", "z"]),
      ...Array(3).fill(["r", "z"]),
    ];
    const X = makeFrame([column("c", ["p", "q", "r", "s"], rows.map((r) => r[0]))]);
    const s = cart.fit(classification(X, rows.map((r) => r[1]), ["x", "y", "z"]), cart.params.parse({ max_depth: 1 }), ctx());
    const root = explainOf(s).tree;
    assert.deepEqual(groupsOf(root).sort(), [["p", "r"], ["q", "s"]]);
    close(root.split?.score as number, 10 / 36);
  });

  for (const task of ["two classes", "regression"] as const) {
    test(`${task}: the cut by mean target is the best of all 2^(L−1) − 1 partitions (Breiman's theorem)`, () => {
      const rng = createRng(7);
      const L = 7;
      const levels = Array.from({ length: L }, (_, l) => `v${l}`);
      for (let trial = 0; trial < 20; trial++) {
        const n = 60;
        const codes = Int32Array.from({ length: n }, () => rng.int(L));
        const X = makeFrame([{ type: "categorical", name: "c", levels, codes }]);
        const y = Float64Array.from(codes, (c) => (task === "regression" ? c * ((trial % 3) - 1) + 3 * rng.next() : rng.next() < (c + 1) / (L + 1) ? 1 : 0));
        const target: Target = task === "regression" ? { task: "regression", y } : { task: "classification", classes: ["a", "b"], y: Int32Array.from(y) };
        const s = cart.fit({ X, target }, cart.params.parse({ max_depth: 1 }), ctx());
        const best = bruteForce(codes, y, task === "regression" ? variance : gini2);
        if (s.kind.length === 1) {
          assert.ok(!(best < impurityOf(y, task === "regression" ? variance : gini2) - 1e-12), "a split helps but none was made");
          continue;
        }
        close(s.score[0], best, 1e-9);
      }
    });
  }
});

/** Lowest weighted impurity over every two-group partition of the levels present. */
function bruteForce(codes: Int32Array, y: Float64Array, imp: (ys: number[]) => number): number {
  const present = [...new Set(codes)].sort((a, b) => a - b);
  let best = Infinity;
  for (let mask = 1; mask < 1 << (present.length - 1); mask++) {
    const left: number[] = [];
    const right: number[] = [];
    codes.forEach((c, i) => ((mask >> present.indexOf(c)) & 1 ? left : right).push(y[i]));
    best = Math.min(best, (left.length * imp(left) + right.length * imp(right)) / codes.length);
  }
  return best;
}
function impurityOf(y: Float64Array, imp: (ys: number[]) => number): number {
  return imp(Array.from(y));
}
function variance(ys: number[]): number {
  const m = ys.reduce((a, b) => a + b, 0) / ys.length;
  return ys.reduce((a, b) => a + (b - m) ** 2, 0) / ys.length;
}
function gini2(ys: number[]): number {
  const p = ys.filter((v) => v === 1).length / ys.length;
  return 1 - p * p - (1 - p) * (1 - p);
}

describe("multiway splits of a many-level column", () => {
  // Levels b4 and b5 have no training row (as when a fold misses them).
  const levels = ["b1", "b2", "b3", "b4", "b5"];
  const values = ["b1", "b1", "b1", "b2", "b2", "b3", "b3", "b3", "b3"];
  const labels = ["x", "x", "x", "y", "y", "x", "y", "y", "y"];
  const t = classification(makeFrame([column("b", levels, values)]), labels, ["x", "y"]);

  test("children only for the levels present; the absent ones share one empty leaf with the parent's distribution", () => {
    const s = id3.fit(t, id3.params.parse({}), ctx());
    const root = (id3.explain?.(s) as TreeExplanation).tree;
    assert.deepEqual(
      root.children.map((c) => c.when),
      [{ equals: "b1" }, { equals: "b2" }, { equals: "b3" }, { in: ["b4", "b5"] }],
    );
    const empty = root.children[3].node;
    assert.equal(empty.samples, 0);
    assert.equal(empty.prediction, "y"); // the root's majority: 5 y of 9
    const p = id3.predict(s, makeFrame([column("b", levels, ["b5", "b4", "b1"])])) as { labels: Int32Array; proba: Float64Array };
    close(p.proba[1], 5 / 9);
    close(p.proba[3], 5 / 9);
    assert.deepEqual(Array.from(p.labels), [1, 1, 0]);
  });

  test("max_categories_per_split: the lightest levels share a branch, which splits again on the same column below", () => {
    const s = id3.fit(t, id3.params.parse({ max_categories_per_split: 2 }), ctx());
    const root = (id3.explain?.(s) as TreeExplanation).tree;
    // At the root b3 (4 rows) and b1 (3) keep their branches; b2 (2) is pooled, alone here.
    assert.deepEqual(groupsOf(root), [["b1"], ["b2"], ["b3"], ["b4", "b5"]]);
    const wide = makeFrame([column("b", levels, [...values, "b4", "b4", "b5"])]);
    const s2 = id3.fit(classification(wide, [...labels, "x", "x", "y"], ["x", "y"]), id3.params.parse({ max_categories_per_split: 2 }), ctx());
    const root2 = (id3.explain?.(s2) as TreeExplanation).tree;
    // b3 (4) and b1 (3) keep theirs; b2, b4 (2 each) and b5 (1) share one, split again on b below.
    assert.deepEqual(groupsOf(root2), [["b1"], ["b2", "b4", "b5"], ["b3"]]);
    const pooled = root2.children.find((c) => "in" in c.when)?.node as ExplainNode;
    assert.equal(pooled.split?.feature, "b");
    assert.equal(id3.params.parse({}).max_categories_per_split, 32);
    assert.equal(cart.params.parse({}).max_categories_per_split, null);
    assert.throws(() => id3.params.parse({ max_categories_per_split: 1 }));
  });

  test("save → load → identical predictions for a tree with grouped branches; same seed → same tree", () => {
    const wide = makeFrame([column("b", levels, [...values, "b4", "b4", "b5"])]);
    const tw = classification(wide, [...labels, "x", "x", "y"], ["x", "y"]);
    for (const fit of [() => c45.fit(tw, c45.params.parse({ max_categories_per_split: 2 }), ctx(3)), () => id3.fit(t, id3.params.parse({}), ctx(3))]) {
      const s = fit();
      const back = c45.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s)))));
      const probe = makeFrame([column("b", levels, ["b1", "b2", "b3", "b4", "b5", null])]);
      assert.deepEqual(c45.predict(back, probe), c45.predict(s, probe));
      assert.deepEqual(encodeState(fit()), encodeState(s));
    }
  });
});

describe("movies.csv (3,201 films, Director 550 levels, Distributor 174, missing cells)", () => {
  const frame = readCsv(readFileSync(fixturePath("movies.csv")), { maxCells: 1e8 });
  const genre = frame.columns.find((c) => c.name === "Major Genre") as CategoricalColumn;
  const features = ["US Gross", "Worldwide Gross", "US DVD Sales", "Production Budget", "MPAA Rating", "Running Time min", "Distributor", "Source", "Creative Type", "Director", "Rotten Tomatoes Rating", "IMDB Votes"];
  const X = makeFrame(frame.columns.filter((c) => features.includes(c.name)));
  const labelled = [...Array(frame.rowCount).keys()].filter((i) => genre.codes[i] >= 0);
  // Every fourth labelled film is held out.
  const trainRows = labelled.filter((_, j) => j % 4 !== 0);
  const testRows = labelled.filter((_, j) => j % 4 === 0);
  const y = (rows: number[]): Int32Array => Int32Array.from(rows, (r) => genre.codes[r]);
  const train: TrainingSet = { X: takeRows(X, trainRows), target: { task: "classification", classes: [...genre.levels], y: y(trainRows) } };
  const yTest = y(testRows);
  const majority = (() => {
    const counts = new Int32Array(genre.levels.length);
    for (const k of train.target?.y as Int32Array) counts[k]++;
    const top = counts.indexOf(Math.max(...counts));
    return accuracy(new Int32Array(yTest.length).fill(top), yTest);
  })();

  test("c45 on the 12-class genre completes, each split within the level cap, and beats the majority class by 0.05", () => {
    const s = c45.fit(train, c45.params.parse({}), ctx());
    for (let i = 0; i < s.kind.length; i++) if (s.kind[i] === CATEGORICAL) assert.ok(s.childCount[i] <= 32 + 2, `node ${i}: ${s.childCount[i]} branches`);
    const acc = accuracy((c45.predict(s, takeRows(X, testRows)) as { labels: Int32Array }).labels, yTest);
    assert.ok(acc >= majority + 0.05, `accuracy ${acc}, majority class ${majority}`);
  });

  test("cart on the genre beats the majority class by 0.05", () => {
    const s = cart.fit(train, cart.params.parse({}), ctx());
    const acc = accuracy((cart.predict(s, takeRows(X, testRows)) as { labels: Int32Array }).labels, yTest);
    assert.ok(acc >= majority + 0.05, `accuracy ${acc}, majority class ${majority}`);
  });
});
