/**
 * Incremental id3 (partial_fit, ITI's guarantee): after any sequence of increments the tree is
 * the one id3 grows in one batch on every row seen — the whole state compared, tests,
 * thresholds, leaves, class distributions and candidates, not just the predictions. Random small
 * tables of categorical and numeric attributes (tied values, levels absent from early rows),
 * several classes, fractional weights and the stopping parameters id3 can keep; some increments
 * go through the artifact codec first (save → load → partial_fit).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { id3, id3Options, type Id3Params } from "../../../src/models/tree/id3.js";
import { fitTree, type SubtreeReuse } from "../../../src/models/tree/grow.js";
import { previousTree } from "../../../src/models/tree/incremental.js";
import { withPruningPath } from "../../../src/models/tree/prune.js";
import { columnsForFit } from "../../../src/models/tree/tree-columns.js";
import type { TreeState } from "../../../src/models/tree/tree-state.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import type { Column } from "../../../src/data/frame.js";
import { makeFrame, takeRows } from "../../../src/data/frame.js";
import type { TrainingSet } from "../../../src/models/contract.js";
import { UnusableInputError } from "../../../src/models/contract.js";
import { ctx, realData, trainingSet, watermelon } from "./fixtures.js";

interface Table {
  readonly columns: Column[];
  readonly classes: string[];
  readonly y: number[];
  readonly weights: number[] | null;
}

const table: fc.Arbitrary<Table> = fc
  .record({
    levels: fc.array(fc.integer({ min: 2, max: 4 }), { maxLength: 3 }),
    numeric: fc.integer({ min: 0, max: 2 }),
    K: fc.integer({ min: 2, max: 4 }),
    n: fc.integer({ min: 2, max: 40 }),
    weighted: fc.boolean(),
  })
  .filter((s) => s.levels.length + s.numeric > 0)
  .chain((s) =>
    fc.record({
      cats: fc.tuple(...s.levels.map((L) => fc.array(fc.integer({ min: 0, max: L - 1 }), { minLength: s.n, maxLength: s.n }))),
      // Few distinct values: ties at thresholds, and a threshold that moves as rows arrive.
      nums: fc.array(fc.array(fc.oneof(fc.integer({ min: 0, max: 6 }), fc.double({ min: -3, max: 3, noNaN: true })), { minLength: s.n, maxLength: s.n }), { minLength: s.numeric, maxLength: s.numeric }),
      y: fc.array(fc.integer({ min: 0, max: s.K - 1 }), { minLength: s.n, maxLength: s.n }),
      weights: s.weighted ? fc.array(fc.double({ min: 0.1, max: 3, noNaN: true }), { minLength: s.n, maxLength: s.n }) : fc.constant(null),
    }).map(({ cats, nums, y, weights }): Table => {
      const columns: Column[] = [
        ...cats.map((codes, j): Column => ({ type: "categorical", name: `c${j}`, levels: Array.from({ length: s.levels[j] }, (_, l) => `l${l}`), codes: Int32Array.from(codes) })),
        ...nums.map((values, j): Column => ({ type: "numeric", name: `x${j}`, values: Float64Array.from(values) })),
      ];
      return { columns, classes: Array.from({ length: s.K }, (_, k) => `k${k}`), y, weights };
    }),
  );

const paramsArb: fc.Arbitrary<Id3Params> = fc
  .record({
    max_depth: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 4 })),
    min_samples_split: fc.integer({ min: 2, max: 4 }),
    min_samples_leaf: fc.integer({ min: 1, max: 3 }),
    min_impurity_decrease: fc.oneof(fc.constant(0), fc.double({ min: 0.001, max: 0.1, noNaN: true })),
    max_categories_per_split: fc.constantFrom(null, 2, 32),
    class_weight: fc.constantFrom(null, { k0: 2.5 }),
    entropy_base: fc.constantFrom(2 as const, "e" as const),
  })
  .map((p) => id3.params.parse({ ...p, incremental: true }));

function rowsOf(t: Table, from: number, to: number): TrainingSet {
  const rows = Array.from({ length: to - from }, (_, i) => from + i);
  return {
    X: takeRows(makeFrame(t.columns), rows),
    target: { task: "classification", classes: t.classes, y: Int32Array.from(rows, (r) => t.y[r]) },
    ...(t.weights ? { weights: Float64Array.from(rows, (r) => (t.weights as number[])[r]) } : {}),
  };
}

const roundTrip = (s: TreeState): TreeState => id3.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s))))) as TreeState;

describe("id3 partial_fit keeps the batch tree (ITI's guarantee)", () => {
  test("after every increment of any split of the rows, the state equals batch id3 on all rows seen", () => {
    fc.assert(
      fc.property(table, paramsArb, fc.array(fc.integer({ min: 1, max: 39 }), { maxLength: 5 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), (t, params, cuts, saves) => {
        const n = t.y.length;
        const bounds = [...new Set(cuts.filter((c) => c < n))].sort((a, b) => a - b);
        const ends = [...bounds, n];
        let state: TreeState | null = null;
        let seen = 0;
        ends.forEach((end, step) => {
          const part = rowsOf(t, seen, end);
          if (state === null) state = id3.fit(part, params, ctx());
          else state = id3.partialFit!(saves[step] ? roundTrip(state) : state, { X: part.X, target: part.target, ...(part.weights ? { weights: part.weights } : {}) }, params, ctx());
          seen = end;
          const batch = id3.fit(rowsOf(t, 0, seen), params, ctx());
          assert.deepStrictEqual(state, batch, `after rows 0..${seen - 1} (increments ending at ${ends.join(", ")})`);
        });
      }),
      { numRuns: 300 },
    );
  });

  test("watermelon 2.0 row by row: the book's tree at the end, restructured on the way", () => {
    const all = watermelon("2.0");
    const params = id3.params.parse({ incremental: true });
    const n = all.X.rowCount;
    const at = (from: number, to: number): TrainingSet => {
      const rows = Array.from({ length: to - from }, (_, i) => from + i);
      const y = all.target as { task: "classification"; y: Int32Array; classes: readonly string[] };
      return { X: takeRows(all.X, rows), target: { task: "classification", classes: y.classes, y: Int32Array.from(rows, (r) => y.y[r]) } };
    };
    let state = id3.fit(at(0, 2), params, ctx());
    const roots = new Set<number>();
    for (let r = 2; r < n; r++) {
      state = id3.partialFit!(state, at(r, r + 1), params, ctx());
      roots.add(state.feature[0]);
    }
    assert.deepStrictEqual(state, id3.fit(all, params, ctx()));
    assert.ok(roots.size > 1, "the root test changed along the way (a restructure, not only growth at the leaves)");
  });

  test("min_impurity_decrease: a subtree no new row reaches is cut once the root's weight has grown enough", () => {
    // c = a: x separates classes 0 and 1 (gain 1 bit on 4 of 8 rows, 0.5 ≥ 0.3); c = b: all class 2.
    const make = (c: number[], x: number[], y: number[]): TrainingSet => ({
      X: makeFrame([
        { type: "categorical", name: "c", levels: ["a", "b"], codes: Int32Array.from(c) },
        { type: "numeric", name: "x", values: Float64Array.from(x) },
      ]),
      target: { task: "classification", classes: ["k0", "k1", "k2"], y: Int32Array.from(y) },
    });
    const params = id3.params.parse({ incremental: true, min_impurity_decrease: 0.3 });
    const first = make([0, 0, 0, 0, 1, 1, 1, 1], [1, 2, 3, 4, 1, 2, 3, 4], [0, 0, 1, 1, 2, 2, 2, 2]);
    const more = make([1, 1, 1, 1, 1, 1, 1, 1], [1, 2, 3, 4, 5, 6, 7, 8], [2, 2, 2, 2, 2, 2, 2, 2]);
    const before = id3.fit(first, params, ctx());
    assert.equal(before.kind.length, 5, "root on c, then x under c = a");
    const after = id3.partialFit!(before, more, params, ctx());
    assert.equal(after.kind.length, 3, "under c = a the split on x now weighs (4/16)·1 < 0.3");
    const all = make([0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8], [0, 0, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    assert.deepStrictEqual(after, id3.fit(all, params, ctx()));
  });

  test("what cannot be kept equal to the batch tree is refused, at fit and at partial_fit", () => {
    const data = trainingSet(makeFrame([{ type: "numeric", name: "x", values: Float64Array.from([1, 2, 3, 4]) }, { type: "categorical", name: "y", levels: ["a", "b"], codes: Int32Array.from([0, 0, 1, 1]) }]), "y");
    for (const bad of [{ pruning: "pessimistic" }, { ccp_alpha: 0.1 }, { max_features: 1 }, { class_weight: "balanced" }, { pruning: "pre" }]) {
      const parsed = id3.params.safeParse({ ...bad, incremental: true });
      assert.equal(parsed.success, false, JSON.stringify(bad));
      assert.deepEqual(parsed.error?.issues.map((i) => i.path), [["incremental"]]);
      assert.ok(id3.params.safeParse(bad).success, "the same params without incremental are fine");
      // The learner holds the line too, for params that did not come through the schema.
      const unchecked = { ...id3.params.parse({}), ...bad, incremental: true } as Id3Params;
      assert.throws(() => id3.fit(data, unchecked, ctx()), UnusableInputError, JSON.stringify(bad));
    }
    const plain = id3.fit(data, id3.params.parse({}), ctx());
    assert.equal(plain.instances, undefined, "without incremental no rows are kept");
    assert.throws(() => id3.partialFit!(plain, data, id3.params.parse({}), ctx()), /keeps no training rows/);
  });
});

describe("id3 partial_fit updates, it does not regrow", () => {
  test("one new row on digits: most of the tree is copied from the previous one, and the result is the batch tree", () => {
    const { train } = realData("digits");
    const t = train.target as { task: "classification"; y: Int32Array; classes: readonly string[] };
    const n = train.X.rowCount;
    const part = (from: number, to: number): TrainingSet => {
      const rows = Array.from({ length: to - from }, (_, i) => from + i);
      return { X: takeRows(train.X, rows), target: { task: "classification", classes: t.classes, y: Int32Array.from(rows, (r) => t.y[r]) } };
    };
    const params = id3.params.parse({ incremental: true });
    const old = id3.fit(part(0, n - 1), params, ctx());
    const reuse = previousTree(old, columnsForFit(train.X), n - 1);
    let copied = 0;
    const counting: SubtreeReuse = {
      ...reuse,
      copy(o, builder, node, keep) {
        const size = builder.size;
        reuse.copy(o, builder, node, keep);
        copied += builder.size - size;
      },
    };
    const grown = withPruningPath(fitTree(train, id3Options(params), ctx(), { reuse: counting }));
    const batch = id3.fit(train, id3.params.parse({}), ctx());
    assert.deepStrictEqual(grown, batch);
    assert.ok(copied > batch.kind.length / 2, `${copied} of ${batch.kind.length} nodes copied`);
  });
});
