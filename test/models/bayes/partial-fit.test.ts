/**
 * naive_bayes partial_fit: a fit on the first rows followed by partial fits on the rest, in any
 * number of pieces and any row order, gives the state one fit on all rows gives (counts exactly,
 * Gaussian moments to rounding); the old state is left as it was; a KDE model refuses.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { makeFrame, takeRows, type Frame } from "../../../src/data/frame.js";
import type { TrainingSet } from "../../../src/models/contract.js";
import { naiveBayes, naiveBayesParams } from "../../../src/models/bayes/naive-bayes.js";
import type { NaiveBayesState } from "../../../src/models/bayes/naive-bayes-state.js";
import { ctx, watermelon } from "../tree/fixtures.js";
import { roundTrip } from "./helpers.js";

const wm3 = watermelon("3.0");
const n = wm3.X.rowCount;

/** watermelon 3.0 with the given cells (row × column + column) missing: naive_bayes counts a row only for the attributes it has. */
function withMissing(cells: readonly number[]): Frame {
  const d = wm3.X.columns.length;
  const blank = new Set(cells.map((c) => c % (n * d)));
  return makeFrame(
    wm3.X.columns.map((c, j) =>
      c.type === "numeric"
        ? { ...c, values: c.values.map((v, i) => (blank.has(i * d + j) ? NaN : v)) }
        : { ...c, codes: c.codes.map((v, i) => (blank.has(i * d + j) ? -1 : v)) },
    ),
  );
}

function subset(rows: number[], weights?: Float64Array, X: Frame = wm3.X): TrainingSet {
  const t = wm3.target as { task: "classification"; y: Int32Array; classes: readonly string[] };
  return {
    X: takeRows(X, rows),
    target: { task: "classification", classes: t.classes, y: Int32Array.from(rows, (i) => t.y[i]) },
    ...(weights ? { weights: Float64Array.from(rows, (i) => weights[i]) } : {}),
  };
}

function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string): void {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < expected.length; i++) {
    const tol = 1e-9 * Math.max(1, Math.abs(expected[i]));
    assert.ok(Math.abs(actual[i] - expected[i]) <= tol, `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
  }
}

function assertSameModel(a: NaiveBayesState, b: NaiveBayesState): void {
  for (const key of ["class_count", "single", "prior", "mean", "var", "moment_w", "moment_ss"] as const) assertClose(a[key]!, b[key]!, key);
}

const paramsArb = fc.record({
  alpha: fc.constantFrom(0, 1, 0.5),
  variance: fc.constantFrom("sample" as const, "population" as const),
  var_smoothing: fc.constantFrom(1e-9, 1e-3),
  class_prior: fc.constantFrom("laplace" as const, "empirical" as const, "uniform" as const),
});

describe("naive_bayes partial_fit", () => {
  test("any order of the rows (some cells missing) cut into any pieces: the batch fit's counts, prior, means and variances", () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
        fc.uniqueArray(fc.integer({ min: 1, max: n - 1 }), { maxLength: 5 }),
        paramsArb,
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        (order, cuts, raw, weighted, blanks) => {
          const p = naiveBayesParams.parse(raw);
          const weights = weighted ? Float64Array.from({ length: n }, (_, i) => 0.5 + (i % 3)) : undefined;
          const X = withMissing(blanks);
          const bounds = [0, ...[...cuts].sort((a, b) => a - b), n];
          let state = naiveBayes.fit(subset(order.slice(0, bounds[1]), weights, X), p, ctx());
          for (let b = 1; b + 1 < bounds.length; b++) {
            const before = structuredClone(state);
            const next = naiveBayes.partialFit!(state, subset(order.slice(bounds[b], bounds[b + 1]), weights, X), p, ctx());
            assertSameModel(state, before); // the old state is not modified
            state = roundTrip(naiveBayes, next);
          }
          assertSameModel(state, naiveBayes.fit(subset(order, weights, X), p, ctx()));
        },
      ),
      { numRuns: 60 },
    );
  });

  test("a KDE model refuses: its state keeps every training value", () => {
    const p = naiveBayesParams.parse({ numeric: "kde" });
    const s = naiveBayes.fit(subset([...Array(10).keys()]), p, ctx());
    assert.throws(() => naiveBayes.partialFit!(s, subset([10, 11]), p, ctx()), /kde/);
  });
});
