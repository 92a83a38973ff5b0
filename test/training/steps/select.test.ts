import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, type Column, type Frame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { readCsv } from "../../../src/data/read-csv.js";
import type { Target } from "../../../src/models/contract.js";
import { getAlgorithm } from "../../../src/models/registry.js";
import { selectFitted, selectStep, type SelectFitted } from "../../../src/training/steps/select.js";
import { fixture, throwsDataError } from "../../data/helpers.js";
import { assertSameFrame, frameOf, sklearnFixture, throughArtifact } from "../../data/transforms/sklearn.js";
import { fitStep } from "./helpers.js";

const fx = sklearnFixture("selection.json");

function split(frame: Frame, target: string): { X: Frame; target: Target } {
  const t = frame.columns.find((c) => c.name === target)!;
  const X = makeFrame(frame.columns.filter((c) => c.name !== target));
  if (t.type === "categorical") return { X, target: { task: "classification", y: t.codes, classes: t.levels } };
  return { X, target: { task: "regression", y: t.values } };
}

const iris = split(readCsv(fixture("iris.csv")), "target");
const wine = split(readCsv(fixture("wine.csv")), "target");
const melons = split(readCsv(fixture("watermelon-2.0.csv")), "好瓜");

function selected(X: Frame, options: Record<string, unknown>, target: Target | null, seed = 0): SelectFitted {
  return fitStep("select", X, options, target, seed).fitted as SelectFitted;
}

/** Two informative features (a, b) among four noise columns; the class is a + b > 0. */
function informative(n: number, seed: number): { X: Frame; target: Target } {
  const rng = createRng(seed);
  const cols = ["n1", "a", "n2", "n3", "b", "n4"].map((name): Column & { type: "numeric" } => ({ type: "numeric", name, values: new Float64Array(n) }));
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    for (const c of cols) c.values[i] = rng.normal();
    y[i] = cols[1].values[i] + 0.8 * cols[4].values[i] > 0 ? 1 : 0;
  }
  return { X: makeFrame(cols), target: { task: "classification", y, classes: ["no", "yes"] } };
}

describe("select: filter methods", () => {
  test("variance: VarianceThreshold(0.5)'s support; by default threshold 0 drops constant columns", () => {
    const v = fx.variance;
    const X = frameOf(v.train, v.columns);
    const f = selected(X, { method: "variance", threshold: 0.5 }, null);
    assert.deepEqual(
      v.columns.map((c: string) => f.selected.includes(c)),
      v.support,
    );
    assert.deepEqual(selected(X, {}, null).selected, ["a", "b", "c", "d"], "e is constant");
  });

  test("k keeps the best k, threshold those scoring above it, both: the best k above it", () => {
    assert.deepEqual(selected(iris.X, { method: "chi2", k: 2 }, iris.target).selected, ["petal length (cm)", "petal width (cm)"]);
    assert.deepEqual(selected(iris.X, { method: "chi2", threshold: 10 }, iris.target).selected, ["sepal length (cm)", "petal length (cm)", "petal width (cm)"]);
    assert.deepEqual(selected(iris.X, { method: "chi2", threshold: 10, k: 1 }, iris.target).selected, ["petal length (cm)"]);
    throwsDataError(() => selected(iris.X, { method: "chi2", threshold: 1e6 }, iris.target), "threshold", "exceeds");
  });

  test("info_gain (the tree criterion, seed 000's numbers): 纹理 first on watermelon 2.0", () => {
    const f = selected(melons.X, { method: "info_gain", k: 2, columns: ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"] }, melons.target);
    assert.deepEqual(f.selected, ["纹理", "脐部"]);
    assert.ok(Math.abs(f.scores[3] - 0.381) < 0.002);
  });

  test("mutual_info and relief pick iris's petal measurements; pearson needs a numeric target", () => {
    assert.deepEqual(selected(iris.X, { method: "mutual_info", k: 2 }, iris.target, 1).selected, ["petal length (cm)", "petal width (cm)"]);
    assert.deepEqual(selected(iris.X, { method: "relief", k: 2 }, iris.target).selected, ["petal length (cm)", "petal width (cm)"]);
    throwsDataError(() => selected(iris.X, { method: "pearson", k: 2 }, iris.target), "method", "numeric target");
    const y = iris.X.columns[2].type === "numeric" ? iris.X.columns[2].values : new Float64Array();
    const reg = selected(makeFrame(iris.X.columns.filter((_, j) => j !== 2)), { method: "pearson", k: 1 }, { task: "regression", y });
    assert.deepEqual(reg.selected, ["petal width (cm)"], "petal width correlates best with petal length (r ≈ 0.96)");
  });
});

describe("select: wrapper methods", () => {
  for (const [key, c] of Object.entries<{ k: number; step: number; max_depth: number; ranking: number[] }>(fx.rfe_wine)) {
    test(`rfe with a depth-${c.max_depth} cart on wine (${key}): scikit-learn's RFE ranking`, () => {
      const f = selected(wine.X, { method: "rfe", k: c.k, step_size: c.step, estimator: "cart", estimator_params: { max_depth: c.max_depth } }, wine.target);
      assert.deepEqual([...f.ranking], c.ranking);
      assert.equal(f.selected.length, c.k);
    });
  }

  test("rfe reproduces with a seed; default k is half the candidates", () => {
    const a = selected(wine.X, { method: "rfe" }, wine.target, 3);
    const b = selected(wine.X, { method: "rfe" }, wine.target, 3);
    assert.equal(a.selected.length, 6);
    assert.deepEqual(a, b);
  });

  test("lvw keeps the informative features, reproduces with a seed, and never cross-validates worse than all features", () => {
    const data = informative(120, 4);
    const options = { method: "lvw", max_tries: 12, cv: 4, estimator_params: { max_depth: 3 } };
    const a = selected(data.X, options, data.target, 11);
    const b = selected(data.X, options, data.target, 11);
    assert.deepEqual(a, b);
    assert.ok(a.selected.includes("a"), `selected ${a.selected}`);
    assert.ok(a.cv_error !== null && a.cv_error < 0.3);
    assert.ok(a.subsets_tried !== null && a.subsets_tried >= 13 && a.subsets_tried <= 120);
  });

  test("rfe with a linear model: categorical columns are one-hot encoded for it and judged as whole columns", () => {
    const melons3 = split(readCsv(fixture("watermelon-3.0.csv")), "好瓜");
    const X = makeFrame(melons3.X.columns.filter((c) => c.name !== "编号"));
    const f = selected(X, { method: "rfe", k: 3, estimator: "logistic_regression" }, melons3.target);
    assert.equal(f.selected.length, 3);
    assert.ok(f.selected.every((c) => X.columns.some((col) => col.name === c)));
    assert.deepEqual([...f.ranking].sort((a, b) => a - b), [1, 1, 1, 2, 3, 4, 5, 6]);
  });

  test("rfe with a scale-sensitive learner ranks in standardised units: a column in other units ranks the same", () => {
    const f = selected(wine.X, { method: "rfe", k: 4, estimator: "logistic_regression" }, wine.target);
    // The same table with one column in thousandths (grams for kilograms): its raw coefficient would shrink 1000-fold.
    const rescaled = makeFrame(wine.X.columns.map((c, j) => (j === 0 && c.type === "numeric" ? { ...c, values: Float64Array.from(c.values, (v) => v * 1000) } : c)));
    const g = selected(rescaled, { method: "rfe", k: 4, estimator: "logistic_regression" }, wine.target);
    assert.deepEqual(g.selected, f.selected);
    assert.deepEqual(Array.from(g.ranking), Array.from(f.ranking));
  });

  test("an estimator without importances or coefficients cannot drive rfe", () => {
    throwsDataError(() => selected(iris.X, { method: "rfe", k: 2, estimator: "baseline" }, iris.target), "estimator", "baseline");
  });
});

describe("select: embedded l1", () => {
  test("lasso (numeric target) keeps the features with non-zero coefficients", () => {
    const rng = createRng(2);
    const n = 200;
    const cols = ["a", "noise", "b"].map((name): Column & { type: "numeric" } => ({ type: "numeric", name, values: Float64Array.from({ length: n }, () => rng.normal()) }));
    const y = Float64Array.from({ length: n }, (_, i) => 3 * cols[0].values[i] - 2 * cols[2].values[i] + 0.1 * rng.normal());
    const f = selected(makeFrame(cols), { method: "l1", estimator_params: { alpha: 0.2 } }, { task: "regression", y });
    assert.deepEqual(f.selected, ["a", "b"]);
    assert.equal(f.scores[1], 0, "the noise coefficient is exactly zero");
  });

  test("L1 logistic regression (classes) drops the noise columns; k and threshold still apply", () => {
    const data = informative(300, 6);
    const f = selected(data.X, { method: "l1", estimator_params: { C: 0.05 } }, data.target);
    assert.ok(f.selected.includes("a") && f.selected.includes("b"), `selected ${f.selected}`);
    assert.ok(f.selected.length < 6);
    assert.deepEqual(selected(data.X, { method: "l1", k: 1, estimator_params: { C: 0.05 } }, data.target).selected, ["a"]);
  });

  test("an unknown estimator is refused before fitting", () => {
    assert.deepEqual(selectStep.check!(selectStep.spec.parse({ method: "l1", estimator: "oracle" })), { message: 'unknown estimator "oracle"', path: "estimator" });
    assert.equal(getAlgorithm("lasso")?.name, "lasso", "l1's default estimators are registered");
  });
});

describe("select: options, errors, artifacts", () => {
  test("k (how many) and threshold (how good) are separate, each checked where it does not apply", () => {
    const issue = (o: Record<string, unknown>) => selectStep.spec.safeParse(o).error?.issues[0].path;
    assert.deepEqual(issue({ method: "pearson" }), ["k"]);
    assert.deepEqual(issue({ method: "rfe", threshold: 0.1 }), ["threshold"]);
    assert.deepEqual(issue({ method: "lvw", k: 2 }), ["k"]);
    assert.deepEqual(issue({ method: "chi2", k: 3, columns: ["a", "b"] }), ["k"]);
    assert.deepEqual(issue({ method: "chi2", k: 2, estimator: "cart" }), ["estimator"]);
    assert.equal(selectStep.spec.safeParse({ method: "chi2", k: 0.5 }).success, false, "k is a count, never a fraction");
  });

  test("k above the candidate count is a DataError at k; an unknown estimator or bad estimator_params is found before fitting", () => {
    throwsDataError(() => selected(iris.X, { method: "chi2", k: 5 }, iris.target), "k", "4 candidate");
    assert.deepEqual(selectStep.check!(selectStep.spec.parse({ method: "rfe", estimator: "oracle" })), { message: 'unknown estimator "oracle"', path: "estimator" });
    assert.equal(selectStep.check!(selectStep.spec.parse({ method: "lvw", estimator_params: { max_depth: -1 } }))?.path, "estimator_params.max_depth");
  });

  test("columns outside the candidates pass through; save → load → identical selection; describe lists scores", () => {
    const { fitted, out } = fitStep("select", iris.X, { method: "chi2", k: 1, columns: ["sepal length (cm)", "sepal width (cm)"] }, iris.target);
    assert.deepEqual(
      out.columns.map((c) => c.name),
      ["sepal length (cm)", "petal length (cm)", "petal width (cm)"],
    );
    assertSameFrame(selectStep.apply(throughArtifact(selectFitted, fitted as SelectFitted), iris.X), out);
    const d = selectStep.describe!(fitted as SelectFitted);
    assert.deepEqual(d.selected, ["sepal length (cm)"]);
    assert.deepEqual(d.dropped, ["sepal width (cm)"]);
    assert.ok(typeof (d.scores as Record<string, number>)["sepal width (cm)"] === "number");
  });
});
