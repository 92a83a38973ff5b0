import { test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../src/data/random.js";
import { gridCandidates, randomCandidates, rankScores } from "../../src/evaluation/search-space.js";

test("grid candidates: every combination, last parameter fastest (sklearn's ParameterGrid order)", () => {
  assert.deepEqual(gridCandidates({ a: [1, 2], b: ["x", "y", "z"] }, 6), [
    { a: 1, b: "x" },
    { a: 1, b: "y" },
    { a: 1, b: "z" },
    { a: 2, b: "x" },
    { a: 2, b: "y" },
    { a: 2, b: "z" },
  ]);
});

test("random candidates: seeded, within their distributions, lists drawn without replacement", () => {
  const space = { depth: [1, 2, 3], lr: { distribution: "loguniform" as const, low: 1e-4, high: 1 }, n: { distribution: "randint" as const, low: 5, high: 8 } };
  const a = randomCandidates(space, 20, createRng(1));
  assert.deepEqual(a, randomCandidates(space, 20, createRng(1)));
  for (const c of a) {
    assert.ok([1, 2, 3].includes(c.depth as number));
    assert.ok((c.lr as number) >= 1e-4 && (c.lr as number) <= 1);
    assert.ok([5, 6, 7].includes(c.n as number));
  }
  const lists = randomCandidates({ a: [1, 2], b: [3, 4] }, 10, createRng(2));
  assert.equal(lists.length, 4, "only 4 distinct candidates exist");
  assert.equal(new Set(lists.map((c) => JSON.stringify(c))).size, 4);
});

test("ranks: 1 is best, ties share the lowest rank, null ranks last", () => {
  assert.deepEqual(rankScores([0.5, 0.9, 0.5, null, 0.7], true), [3, 1, 3, null, 2]);
  assert.deepEqual(rankScores([0.5, 0.9, 0.1], false), [2, 3, 1]);
});
