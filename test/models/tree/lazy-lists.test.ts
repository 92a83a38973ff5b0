/**
 * Sorted lists brought up to date only where a node reads them (src/models/tree/lazy-lists.ts)
 * grow the tree that partitioning every list at every split grows, bit for bit: cart and c45
 * with max_features below the feature count, on random tables with missing values, weights,
 * categorical columns (c45's multiway splits leave hundreds of siblings waiting, past the 256
 * segments one pass tells apart) and both tasks.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Column } from "../../../src/data/frame.js";
import { makeFrame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import type { TrainingSet } from "../../../src/models/contract.js";
import { engineOptions } from "../../../src/models/tree/params.js";
import { cart } from "../../../src/models/tree/cart.js";
import { c45 } from "../../../src/models/tree/c45.js";
import { fitTree } from "../../../src/models/tree/grow.js";
import { encodeState } from "../../../src/models/state-codec.js";
import { ctx } from "./fixtures.js";

function table(seed: number, n: number, opts: { missing: number; levels: number; regression: boolean; weights: boolean }): TrainingSet {
  const rng = createRng(seed);
  const columns: Column[] = [];
  for (let j = 0; j < 7; j++) {
    // Some columns with few distinct values, so ties are common.
    const distinct = j % 3 === 0 ? 5 : 0;
    columns.push({ type: "numeric", name: `x${j}`, values: Float64Array.from({ length: n }, () => (rng.next() < opts.missing ? NaN : distinct ? rng.int(distinct) : rng.next() * 10 - 5)) });
  }
  const levels = Array.from({ length: opts.levels }, (_, l) => `l${l}`);
  columns.push({ type: "categorical", name: "c", levels, codes: Int32Array.from({ length: n }, () => (rng.next() < opts.missing ? -1 : rng.int(opts.levels))) });
  const x = (j: number, i: number) => (columns[j] as { values: Float64Array }).values[i];
  const score = (i: number) => (x(1, i) || 0) + 2 * (x(2, i) || 0) - (x(4, i) || 0) + rng.next() * 3;
  const target: TrainingSet["target"] = opts.regression
    ? { task: "regression", y: Float64Array.from({ length: n }, (_, i) => score(i)) }
    : { task: "classification", y: Int32Array.from({ length: n }, (_, i) => (score(i) > 2 ? 2 : score(i) > -1 ? 1 : 0)), classes: ["a", "b", "c"] };
  const weights = opts.weights ? Float64Array.from({ length: n }, () => 0.25 + rng.next() * 2) : undefined;
  return { X: makeFrame(columns), target, weights };
}

const state = (s: unknown) => JSON.stringify(encodeState(s));

test("lists partitioned where read grow the tree eager partitioning grows (cart, c45; missing values, weights, both tasks)", () => {
  let cases = 0;
  for (let seed = 1; seed <= 6; seed++) {
    const regression = seed % 3 === 0;
    const train = table(seed, 600, { missing: seed % 2 ? 0.08 : 0, levels: 6, regression, weights: seed % 4 < 2 });
    for (const maxFeatures of [1, 3, 6]) {
      const presets = regression ? [{ alg: cart, criterion: "mse" as const, split: "binary" as const }] : [{ alg: cart, criterion: "gini_index" as const, split: "binary" as const }, { alg: c45, criterion: "gain_ratio" as const, split: "multiway" as const }];
      for (const { alg, criterion, split } of presets) {
        const opts = engineOptions(alg.params.parse({ max_features: maxFeatures, min_samples_leaf: 1 + (seed % 2) }), { criterion, categoricalSplit: split });
        const lazy = fitTree(train, opts, ctx(seed));
        const eager = fitTree(train, opts, ctx(seed), { eagerLists: true });
        assert.equal(state(lazy), state(eager), `seed ${seed}, ${alg.name}, max_features ${maxFeatures}`);
        cases++;
      }
    }
  }
  assert.equal(cases, 30);
});

test("past 256 waiting nodes inside one base, the lists are distributed in several passes to the same tree", () => {
  // A 300-level column split multiway by c45 leaves ~300 siblings waiting in one arena (no missing values: no copies).
  const base = table(11, 3000, { missing: 0, levels: 300, regression: false, weights: false });
  // The class follows the level (mostly), so a node that draws the column splits on it.
  const codes = (base.X.columns[7] as { codes: Int32Array }).codes;
  const y = Int32Array.from(codes, (c, i) => (c < 0 || i % 10 === 0 ? i % 3 : c % 3));
  const train: TrainingSet = { X: base.X, target: { task: "classification", y, classes: ["a", "b", "c"] } };
  const opts = engineOptions(c45.params.parse({ max_features: 3, max_categories_per_split: null }), { criterion: "info_gain", categoricalSplit: "multiway" });
  const lazy = fitTree(train, opts, ctx(2));
  assert.ok(lazy.childCount.some((c) => c > 256), "a split with more than 256 branches");
  assert.equal(state(lazy), state(fitTree(train, opts, ctx(2), { eagerLists: true })));
});
