import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { isLogisticOvr, logisticRegression } from "../../../src/models/linear/logistic-regression.js";
import { softmaxRegression } from "../../../src/models/linear/softmax-regression.js";
import type { Algorithm } from "../../../src/models/contract.js";
import type { ClassifierState } from "../../../src/models/linear/linear-state.js";
import { accuracy, assertClose, classificationSet, ctx, fixture, frame, names, roundTrip } from "./helpers.js";

interface LogisticFixture {
  features: string[];
  X: number[][];
  y: number[];
  coef: number[][];
  intercept: number[];
  optimum_coef: number[][];
  optimum_intercept: number[];
  accuracy: number;
  default_accuracy: number;
  proba_first_rows: number[][];
}
const cancer = fixture<LogisticFixture>("breast_cancer_logistic.json");
const iris = fixture<LogisticFixture>("iris_logistic.json");
const cancerX = frame(cancer.features, cancer.X);
const irisX = frame(iris.features, iris.X);
const tight = { tol: 1e-10, max_iter: 10000 };

/** Binary and multinomial fits are flat ClassifierStates (one-vs-rest ones are the multiclass wrapper's). */
function fitFlat(...args: Parameters<typeof logisticRegression.fit>): ClassifierState {
  const state = logisticRegression.fit(...args);
  if (isLogisticOvr(state)) throw new Error("expected a flat binary or multinomial state");
  return state;
}

function labels(p: ReturnType<typeof logisticRegression.predict>): Int32Array {
  assert.equal(p.task, "classification");
  return p.task === "classification" ? p.labels : new Int32Array();
}

describe("against scikit-learn 1.2 LogisticRegression(lbfgs, C=1)", () => {
  // scikit-learn's lbfgs stops on scipy's relative-decrease test (~1e-4 short of the
  // optimum); the fixture also holds the optimum from its newton-cg at tol 1e-10.
  test("breast cancer (standardised): the optimum to 1e-5, scikit-learn's lbfgs to 5e-4, same accuracy", () => {
    const state = fitFlat(classificationSet(cancerX, cancer.y), logisticRegression.params.parse(tight), ctx());
    assert.equal(state.kind, "binary");
    assertClose(state.coef, cancer.optimum_coef[0], 1e-5, 0, "coef vs optimum");
    assertClose(state.intercept, cancer.optimum_intercept, 1e-5, 0, "intercept vs optimum");
    assertClose(state.coef, cancer.coef[0], 5e-4, 0, "coef vs lbfgs");
    const acc = accuracy(labels(logisticRegression.predict(state, cancerX)), cancer.y);
    assert.equal(acc, cancer.accuracy);
    assert.ok(acc > 0.98, `accuracy floor: ${acc}`);
    const p = logisticRegression.predict(state, frame(cancer.features, cancer.X.slice(0, 5)));
    if (p.task === "classification") assertClose(p.proba!, cancer.proba_first_rows.flat(), 0, 1e-6, "proba");
  });
  test("default tolerance: the accuracy scikit-learn's defaults reach", () => {
    const state = fitFlat(classificationSet(cancerX, cancer.y), logisticRegression.params.parse({}), ctx());
    assert.equal(state.diagnostics.converged, true);
    const acc = accuracy(labels(logisticRegression.predict(state, cancerX)), cancer.y);
    assert.ok(Math.abs(acc - cancer.default_accuracy) <= 0.005, `${acc} vs ${cancer.default_accuracy}`);
  });
  test("iris (raw features), multinomial: the optimum to 1e-5, scikit-learn's lbfgs to 5e-4, same accuracy", () => {
    const state = fitFlat(classificationSet(irisX, iris.y), logisticRegression.params.parse(tight), ctx());
    assert.equal(state.kind, "multinomial");
    assertClose(state.coef, iris.optimum_coef.flat(), 1e-5, 0, "coef vs optimum");
    assertClose(state.intercept, iris.optimum_intercept, 1e-5, 0, "intercept vs optimum");
    assertClose(state.coef, iris.coef.flat(), 5e-4, 0, "coef vs lbfgs");
    assertClose(state.intercept, iris.intercept, 5e-4, 0, "intercept vs lbfgs");
    const acc = accuracy(labels(logisticRegression.predict(state, irisX)), iris.y);
    assert.equal(acc, iris.accuracy);
    assert.ok(acc > 0.95, `accuracy floor: ${acc}`);
  });
});

describe("solvers on logistic regression", () => {
  const set = classificationSet(cancerX, cancer.y);
  const reference = fitFlat(set, logisticRegression.params.parse(tight), ctx());
  test("Newton's method converges in a few iterations (seed 002)", () => {
    const state = fitFlat(set, logisticRegression.params.parse({ ...tight, solver: "newton" }), ctx());
    assert.equal(state.diagnostics.converged, true);
    assert.ok(state.diagnostics.iterations <= 12, `newton took ${state.diagnostics.iterations}`);
    assertClose(state.coef, reference.coef, 1e-4, 0, "newton");
  });
  for (const solver of ["dfp", "bfgs", "lbfgs"] as const) {
    test(`${solver} reaches the same optimum`, () => {
      const state = fitFlat(set, logisticRegression.params.parse({ ...tight, solver }), ctx());
      assert.equal(state.diagnostics.converged, true);
      assertClose(state.coef, reference.coef, 1e-4, 0, solver);
    });
  }
  test("the gradient family agrees on a well-conditioned problem", () => {
    const rng = createRng(4);
    const rows: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 400; i++) {
      const r = [rng.normal(), rng.normal(), rng.normal()];
      rows.push(r);
      y.push(1 / (1 + Math.exp(-(0.5 + r[0] - 2 * r[1] + 0.5 * r[2]))) > rng.next() ? 1 : 0);
    }
    const s = classificationSet(frame(names(3), rows), y);
    const ref = fitFlat(s, logisticRegression.params.parse({ ...tight, solver: "newton" }), ctx());
    const settings = {
      gd: { learning_rate_init: 1 },
      momentum: { learning_rate_init: 0.3 },
      nesterov: { learning_rate_init: 0.3 },
      adagrad: { learning_rate_init: 1 },
      rmsprop: { learning_rate_init: 0.02, learning_rate: "adaptive" },
      adam: { learning_rate_init: 0.05 },
    } as const;
    for (const [solver, extra] of Object.entries(settings)) {
      const state = fitFlat(s, logisticRegression.params.parse({ tol: 1e-9, max_iter: 20000, solver, ...extra }), ctx());
      assertClose(state.coef, ref.coef, 0, 1e-4, solver);
      assert.ok(Math.abs(state.intercept[0] - ref.intercept[0]) < 1e-4, `${solver} intercept`);
    }
  });
  test("stochastic gradient descent: same seed → same model", () => {
    const params = logisticRegression.params.parse({ solver: "adam", batch_size: 32, max_iter: 3 });
    const a = fitFlat(set, params, ctx(5));
    const b = fitFlat(set, params, ctx(5));
    const c = fitFlat(set, params, ctx(6));
    assert.deepEqual(a, b);
    assert.notDeepEqual(a.coef, c.coef);
    assert.ok(accuracy(labels(logisticRegression.predict(a, cancerX)), cancer.y) > 0.95);
  });
});

describe("penalties, class weights, one-vs-rest", () => {
  test("L1 (OWL-QN and proximal gd) zeroes coefficients and both reach the same model", () => {
    const set = classificationSet(cancerX, cancer.y);
    const a = fitFlat(set, logisticRegression.params.parse({ penalty: "l1", C: 0.05, ...tight }), ctx());
    const zeros = [...a.coef].filter((v) => v === 0).length;
    assert.ok(zeros >= 20, `${zeros} zeros`);
    const b = fitFlat(set, logisticRegression.params.parse({ penalty: "l1", C: 0.05, solver: "gd", learning_rate_init: 4, tol: 1e-9, max_iter: 50000 }), ctx());
    assertClose(b.coef, a.coef, 0, 1e-4, "gd vs owlqn");
    assert.deepEqual([...b.coef].map((v) => v === 0), [...a.coef].map((v) => v === 0));
  });
  test("an L1 penalty with a solver that cannot take it is refused", () => {
    assert.throws(() => fitFlat(classificationSet(irisX, iris.y), logisticRegression.params.parse({ penalty: "l1", solver: "newton" }), ctx()), /lbfgs/);
  });
  test("class_weight balanced moves the boundary towards the majority class", () => {
    // 90 negatives around −1, 10 positives around +1, overlapping.
    const rng = createRng(3);
    const rows: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 100; i++) {
      const pos = i < 10;
      rows.push([(pos ? 1 : -1) + 1.2 * rng.normal()]);
      y.push(pos ? 1 : 0);
    }
    const s = classificationSet(frame(["x"], rows), y);
    const plain = fitFlat(s, logisticRegression.params.parse({}), ctx());
    const balanced = fitFlat(s, logisticRegression.params.parse({ class_weight: "balanced" }), ctx());
    const positives = (st: typeof plain) => [...labels(logisticRegression.predict(st, frame(["x"], rows)))].filter((v) => v === 1).length;
    assert.ok(positives(balanced) > positives(plain) + 10, `${positives(plain)} → ${positives(balanced)}`);
    const named = fitFlat(s, logisticRegression.params.parse({ class_weight: { "0": 100 / (2 * 90), "1": 100 / (2 * 10) } }), ctx());
    assertClose(named.coef, balanced.coef, 1e-9, 1e-12, "dict = balanced");
  });
  test("one-vs-rest on iris: one binary model per class, probabilities normalised", () => {
    const state = logisticRegression.fit(classificationSet(irisX, iris.y), logisticRegression.params.parse({ multiclass: "ovr" }), ctx());
    assert.equal(state.kind, "ovr");
    assert.equal(state.model.models.length, 3);
    const p = logisticRegression.predict(state, irisX);
    assert.ok(accuracy(labels(p), iris.y) > 0.93);
    if (p.task === "classification") for (let i = 0; i < 150; i++) assert.ok(Math.abs(p.proba![3 * i] + p.proba![3 * i + 1] + p.proba![3 * i + 2] - 1) < 1e-12);
  });
});

describe("weights and diagnostics", () => {
  test("a sample weight of 2 is the same model as the row given twice", () => {
    const rows = iris.X.slice(40, 110);
    const y = iris.y.slice(40, 110).map((v) => v - 1 < 0 ? 0 : v - 1);
    const weights = rows.map((_, i) => (i % 3 === 0 ? 2 : 1));
    const doubled = rows.flatMap((r, i) => (i % 3 === 0 ? [r, r] : [r]));
    const yDoubled = y.flatMap((v, i) => (i % 3 === 0 ? [v, v] : [v]));
    const params = logisticRegression.params.parse(tight);
    const weighted = fitFlat({ ...classificationSet(frame(iris.features, rows), y), weights: Float64Array.from(weights) }, params, ctx());
    const repeated = fitFlat(classificationSet(frame(iris.features, doubled), yDoubled), params, ctx());
    assertClose(weighted.coef, repeated.coef, 1e-6, 0, "weighted vs repeated");
  });
  test("stopping at max_iter keeps the model and reports converged: false", () => {
    const state = fitFlat(classificationSet(cancerX, cancer.y), logisticRegression.params.parse({ max_iter: 3 }), ctx());
    assert.equal(state.diagnostics.converged, false);
    assert.equal(state.diagnostics.iterations, 3);
    const e = logisticRegression.explain!(state) as { diagnostics: { converged: boolean } };
    assert.equal(e.diagnostics.converged, false);
    assert.ok(accuracy(labels(logisticRegression.predict(state, cancerX)), cancer.y) > 0.9);
  });
});

describe("softmax_regression", () => {
  test("is the multinomial logistic regression", () => {
    const a = softmaxRegression.fit(classificationSet(irisX, iris.y), softmaxRegression.params.parse(tight), ctx());
    assertClose(a.coef, iris.optimum_coef.flat(), 1e-5, 0, "softmax vs sklearn multinomial");
  });
  test("keeps one score per class for two classes, with the same probabilities as the binary model", () => {
    const set = classificationSet(cancerX, cancer.y);
    const soft = softmaxRegression.fit(set, softmaxRegression.params.parse({ ...tight, C: 2 }), ctx());
    // With L2 on both class vectors the softmax model equals a binary model with C doubled: w = w1 − w0 = 2·w1.
    const bin = fitFlat(set, logisticRegression.params.parse({ ...tight, C: 4 }), ctx());
    assert.equal(soft.kind, "multinomial");
    assert.equal(soft.coef.length, 2 * 30);
    const diff = soft.coef.slice(30).map((v, j) => v - soft.coef[j]);
    assertClose(diff, bin.coef, 1e-4, 0, "w1 − w0");
  });
  test("explain: coefficients and intercept per class, importances per feature", () => {
    const state = softmaxRegression.fit(classificationSet(irisX, iris.y, ["setosa", "versicolor", "virginica"]), softmaxRegression.params.parse({}), ctx());
    const e = softmaxRegression.explain!(state) as { coefficients: Record<string, Record<string, number>>; intercept: Record<string, number>; feature_importances: Record<string, number> };
    assert.deepEqual(Object.keys(e.coefficients), ["setosa", "versicolor", "virginica"]);
    assert.equal(e.coefficients.virginica.x2, state.coef[2 * 4 + 2]);
    assert.deepEqual(Object.keys(e.feature_importances), iris.features);
    // Petal features (x2, x3) separate iris; sepal width (x1) matters least.
    assert.ok(e.feature_importances.x2 > e.feature_importances.x1 && e.feature_importances.x3 > e.feature_importances.x1);
  });
});

describe("save → load", () => {
  for (const [algorithm, raw] of [
    [logisticRegression, {}],
    [logisticRegression, { multiclass: "ovr" }],
    [softmaxRegression, { solver: "newton" }],
  ] as const) {
    const alg = algorithm as Algorithm<unknown, ClassifierState>;
    test(`${alg.name} ${JSON.stringify(raw)}: identical predictions`, () => {
      const state = alg.fit(classificationSet(irisX, iris.y), alg.params.parse(raw), ctx());
      const back = roundTrip(alg, state);
      assert.deepEqual(back, state);
      assert.deepEqual(alg.predict(back, irisX), alg.predict(state, irisX));
    });
  }
});
