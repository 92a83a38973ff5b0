/**
 * Inputs at the ends of the double range (issue 10, item 18): a Gram matrix that overflows is the
 * input's fault (UnusableInputError → 422), and one whose entries are near the subnormal range is
 * still solved — ml-matrix's tql2 used to crash with a TypeError on both.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { UnusableInputError } from "../../../src/models/contract.js";
import { symmetricEigen } from "../../../src/models/linear/fisher.js";
import { linearRegression } from "../../../src/models/linear/linear-regression.js";
import { lda } from "../../../src/models/linear/lda.js";
import { classificationSet, ctx, frame, names, regressionSet } from "./helpers.js";

test("symmetricEigen: eigenvalues of matrices with tiny and subnormal entries, scaled back", () => {
  const cases: [number[], number[]][] = [
    [[1e-320, 1e-321, 1e-321, 1], [0, 1]],
    [[1e-300, 0, 0, 2e-300], [1e-300, 2e-300]],
    [[0, 0, 0, 0], [0, 0]],
  ];
  for (const [a, expected] of cases) {
    const got = [...symmetricEigen(Float64Array.from(a), 2).values].sort((x, y) => x - y);
    got.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) <= 1e-12 * Math.max(1e-300, Math.abs(expected[i])), `${a}: ${got} vs ${expected}`));
  }
});

test("symmetricEigen refuses a matrix that is not finite with UnusableInputError", () => {
  assert.throws(() => symmetricEigen(Float64Array.from([Infinity, 0, 0, 1]), 2), UnusableInputError);
  assert.throws(() => symmetricEigen(Float64Array.from([NaN, 0, 0, 1]), 2), UnusableInputError);
});

const rowsOf = (f: (i: number) => [number, number]) => Array.from({ length: 12 }, (_, i) => f(i));

test("lda: values near ±1e307 are unusable input; linear_regression does not crash on them and fits values near 1e-300", () => {
  const huge = rowsOf((i) => [(i % 2 ? 1 : -1) * 1e307 * (1 + i / 10), 1e307 * ((i * 7) % 5)]);
  const tiny = rowsOf((i) => [1e-300 * (i + 1), -1e-310 * i]);
  const y = huge.map((_, i) => i);
  const labels = huge.map((_, i) => i % 2);
  const lr = linearRegression.params.parse({});
  const ldaParams = lda.params.parse({});
  // linear_regression's overflowed Gram matrix falls back to QR, whose non-finite result the artifact
  // check refuses (test/training/artifact-nonfinite.test.ts); here it must only not crash.
  linearRegression.fit(regressionSet(frame(names(2), huge), y), lr, ctx());
  assert.throws(() => lda.fit(classificationSet(frame(names(2), huge), labels), ldaParams, ctx()), UnusableInputError);
  const fitted = linearRegression.fit(regressionSet(frame(names(2), tiny), y), lr, ctx());
  const out = linearRegression.predict(fitted, frame(names(2), tiny));
  assert.equal(out.task, "regression");
  if (out.task === "regression") assert.ok(out.values.every(Number.isFinite));
  // At 1e-300 every within-class direction is under lda's tol: a clear unusable-input error, not a crash.
  assert.throws(() => lda.fit(classificationSet(frame(names(2), tiny), labels), ldaParams, ctx()), (e) => e instanceof UnusableInputError && /constant/.test(e.message));
});
