/**
 * partial_fit of the SGD linear models (linear_regression, ridge, logistic_regression, softmax_regression with a gradient solver): one
 * epoch over the given rows from the coefficients. With plain gd (full batch or in-order mini-batches)
 * and normalize_features off, partial_fit after k epochs is the fit of k + 1 epochs (to rounding);
 * repeated passes of adam approach the least-squares answer; closed-form fits refuse.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { UnusableInputError } from "../../../src/models/contract.js";
import { linearRegression } from "../../../src/models/linear/linear-regression.js";
import { ridge } from "../../../src/models/linear/ridge.js";
import type { RegressorState } from "../../../src/models/linear/linear-state.js";
import { logisticRegression } from "../../../src/models/linear/logistic-regression.js";
import { softmaxRegression } from "../../../src/models/linear/softmax-regression.js";
import { isLogisticOvr, type LogisticState } from "../../../src/models/linear/logistic-ovr.js";
import { classificationSet, ctx, frame, regressionSet, roundTrip } from "./helpers.js";

function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string): void {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < expected.length; i++) assert.ok(Math.abs(actual[i] - expected[i]) <= 1e-9 * Math.max(1, Math.abs(expected[i])), `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
}

const flat = (s: RegressorState) => [...s.coef, s.intercept];

describe("SGD linear models: partial_fit", () => {
  test("gd: partial_fit after k epochs = the fit of k + 1 epochs (linear_regression, ridge; full batch or mini-batches)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true })), { minLength: 4, maxLength: 20 }),
        fc.constantFrom(linearRegression, ridge),
        fc.constantFrom(null, 3),
        fc.boolean(),
        fc.integer({ min: 1, max: 4 }),
        (rows, algorithm, batch, intercept, k) => {
          const set = regressionSet(frame(["a", "b"], rows.map((r) => [r[0], r[1]])), rows.map((r) => r[2]));
          const base = { solver: "gd", normalize_features: false, fit_intercept: intercept, learning_rate_init: 0.05, tol: 1e-12, batch_size: batch, ...(batch ? { shuffle: false } : {}) };
          const p = (max_iter: number) => (algorithm.params as typeof linearRegression.params).parse({ ...base, max_iter });
          const before = (algorithm as typeof linearRegression).fit(set, p(k), ctx(2));
          const continued = (algorithm as typeof linearRegression).partialFit!(roundTrip(linearRegression, before), set, p(k), ctx(7));
          const longer = (algorithm as typeof linearRegression).fit(set, p(k + 1), ctx(2));
          assertClose(flat(continued), flat(longer), "coefficients");
        },
      ),
      { numRuns: 80 },
    );
  });

  test("gd: the same for logistic_regression (binary, one-vs-rest, multinomial) and softmax_regression", () => {
    const flatLogistic = (s: LogisticState): number[] => (isLogisticOvr(s) ? s.model.models.flatMap((m) => [...m.coef, ...m.intercept]) : [...s.coef, ...s.intercept]);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true })), { minLength: 6, maxLength: 20 }),
        fc.integer({ min: 2, max: 3 }),
        fc.constantFrom("ovr", "multinomial", "softmax"),
        fc.constantFrom(null, 4),
        fc.integer({ min: 1, max: 4 }),
        (rows, k, variant, batch, epochs) => {
          const set = classificationSet(frame(["a", "b"], rows), rows.map((_, i) => i % k));
          const algorithm = (variant === "softmax" ? softmaxRegression : logisticRegression) as typeof logisticRegression;
          const base = { solver: "gd", normalize_features: false, learning_rate_init: 0.1, tol: 1e-12, batch_size: batch, ...(batch ? { shuffle: false } : {}), ...(variant === "softmax" ? {} : { multiclass: variant }) };
          const p = (max_iter: number) => algorithm.params.parse({ ...base, max_iter });
          const before = algorithm.fit(set, p(epochs), ctx(2));
          const continued = algorithm.partialFit!(roundTrip(algorithm, before), set, p(epochs), ctx(7));
          const longer = algorithm.fit(set, p(epochs + 1), ctx(2));
          assertClose(flatLogistic(continued), flatLogistic(longer), "coefficients");
        },
      ),
      { numRuns: 80 },
    );
  });

  test("adam: repeated passes over the rows approach the least-squares coefficients", () => {
    const rows = Array.from({ length: 30 }, (_, i) => [Math.sin(i), Math.cos(2 * i)]);
    const set = regressionSet(frame(["a", "b"], rows), rows.map((r) => 1 + 2 * r[0] - 3 * r[1]));
    const p = linearRegression.params.parse({ solver: "adam", max_iter: 1, learning_rate_init: 0.01, batch_size: 5, tol: 1e-12 });
    const first = linearRegression.fit(set, p, ctx());
    let state = first;
    for (let pass = 0; pass < 300; pass++) state = linearRegression.partialFit!(state, set, p, ctx(pass));
    const error = (s: RegressorState) => Math.hypot(s.coef[0] - 2, s.coef[1] + 3, s.intercept - 1);
    assert.ok(error(state) < 0.05 && error(state) < error(first), `error ${error(state)} (was ${error(first)})`);
    assert.equal(state.diagnostics.iterations, first.diagnostics.iterations + 300);
  });

  test("a closed-form fit has no epochs to continue", () => {
    const set = regressionSet(frame(["a"], [[0], [1], [2]]), [1, 2, 3]);
    const p = linearRegression.params.parse({});
    const s = linearRegression.fit(set, p, ctx());
    assert.throws(() => linearRegression.partialFit!(s, set, p, ctx()), UnusableInputError);
  });
});
