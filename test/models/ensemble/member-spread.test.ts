/**
 * A random forest fitted with FitContext.members (its trees spread over threads) is the forest
 * fitted without it, bit for bit — trees, out-of-bag estimate, impurity and permutation
 * importances — whichever thread grew which tree and in whatever order they were grown. The
 * spreads here stand in for the training layer's (src/training/member-spread.ts): one grows
 * every other tree "elsewhere" from a structured clone of the work (what a helper thread
 * receives), in reverse order; one grows everything here.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { MemberSpread, MemberWork } from "../../../src/models/contract.js";
import { growerFor } from "../../../src/models/ensemble/member-work.js";
import { randomForest } from "../../../src/models/ensemble/random-forest.js";
import { encodeState } from "../../../src/models/state-codec.js";
import { ctx, realData } from "../tree/fixtures.js";

const json = (s: unknown) => JSON.stringify(encodeState(s));

/** Grows odd members from a clone of the work (another thread's copy), even ones here; in reverse index order. */
const scrambled = (log: string[]): MemberSpread => ({
  grow<T>(work: MemberWork, count: number, growHere: (i: number) => T): T[] {
    const copy = structuredClone(work);
    assert.ok(Array.isArray(copy.prepared), "the fit hands its presort over with the work");
    // As a helper thread grows them (src/training/worker.ts): from the work alone, the fit's presort included.
    const elsewhere = growerFor(copy, {});
    const out: T[] = new Array(count);
    for (let i = count - 1; i >= 0; i--) {
      out[i] = i % 2 ? (elsewhere(i) as T) : growHere(i);
      log.push(i % 2 ? "elsewhere" : "here");
    }
    return out;
  },
});

const everythingHere: MemberSpread = { grow: (_work, count, growHere) => Array.from({ length: count }, (_, i) => growHere(i)) };

for (const [name, data, raw] of [
  ["classification, out-of-bag and permutation importances", realData("wine").train, { n_estimators: 9, oob_score: true, permutation_n_repeats: 2 }],
  ["regression, subsamples without bootstrap", realData("diabetes").train, { n_estimators: 6, bootstrap: false, max_samples: 0.7 }],
  ["classification with sample weights", { ...realData("iris").train, weights: Float64Array.from({ length: realData("iris").train.X.rowCount }, (_, i) => 1 + (i % 3)) }, { n_estimators: 7, oob_score: true }],
] as const) {
  test(`random_forest (${name}): spread over threads in any order = grown in one loop`, () => {
    const params = randomForest.params.parse(raw);
    const plain = json(randomForest.fit(data, params, ctx(11)));
    const log: string[] = [];
    assert.equal(json(randomForest.fit(data, params, { ...ctx(11), members: scrambled(log) })), plain);
    assert.ok(log.includes("elsewhere") && log.includes("here"), "both kinds of thread grew trees");
    assert.equal(json(randomForest.fit(data, params, { ...ctx(11), members: everythingHere })), plain);
  });
}

test("a one-tree forest does not spread", () => {
  const refuse: MemberSpread = { grow: () => assert.fail("one tree is grown here") };
  randomForest.fit(realData("iris").train, randomForest.params.parse({ n_estimators: 1 }), { ...ctx(1), members: refuse });
});
