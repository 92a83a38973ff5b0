import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { filterScores, scoreColumns } from "../../../src/data/feature-scores/index.js";
import { makeFrame, type Column } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { readCsv } from "../../../src/data/read-csv.js";
import { fixture, throwsDataError } from "../helpers.js";
import { assertClose, columnOf, frameOf, sklearnFixture } from "../transforms/sklearn.js";

const fx = sklearnFixture("selection.json");
const iris = readCsv(fixture("iris.csv"));
const melons = readCsv(fixture("watermelon-2.0.csv"));
const byFeature = (scores: { feature: string; score: number }[]) => Object.fromEntries(scores.map((s) => [s.feature, s.score]));

describe("filter scores against scikit-learn 1.2", () => {
  test("variance: VarianceThreshold's variances (population, no target)", () => {
    const v = fx.variance;
    const scores = byFeature(filterScores(frameOf(v.train, v.columns), null, "variance"));
    assertClose(
      v.columns.map((c: string) => scores[c]),
      v.variances,
      1e-12,
    );
  });

  test("chi2 on iris: scikit-learn's chi2 statistics, best first", () => {
    const scores = filterScores(iris, "target", "chi2");
    const names = iris.columns.slice(0, 4).map((c) => c.name);
    assertClose(
      names.map((n) => byFeature(scores)[n]),
      fx.chi2_iris.scores,
      1e-10,
    );
    assert.deepEqual(
      scores.map((s) => s.feature),
      ["petal length (cm)", "petal width (cm)", "sepal length (cm)", "sepal width (cm)"],
    );
  });

  test("chi2 of a categorical column = the sum of scikit-learn's chi2 over its one-hot columns (watermelon 2.0)", () => {
    const scores = byFeature(filterScores(melons, "好瓜", "chi2", fx.watermelon.features));
    assertClose(
      fx.watermelon.features.map((f: string) => scores[f]),
      fx.watermelon.chi2_onehot_summed,
      1e-12,
    );
  });

  test("mutual_info on discrete data: mutual_info_classif(discrete_features=True) (watermelon 2.0, nats)", () => {
    const scores = byFeature(filterScores(melons, "好瓜", "mutual_info", fx.watermelon.features));
    assertClose(
      fx.watermelon.features.map((f: string) => scores[f]),
      fx.watermelon.mutual_info,
      1e-12,
    );
    // In bits the plug-in estimate is the information gain of seed 000: 纹理 0.381.
    assert.ok(Math.abs(scores["纹理"] / Math.log(2) - 0.381) < 0.002);
  });

  test("mutual_info on continuous features: the k-NN estimators (Ross against classes, KSG against a number)", () => {
    const m = fx.mutual_info_continuous;
    const columns = [0, 1, 2].map((j): Column => ({ type: "numeric", name: `x${j}`, values: Float64Array.from(columnOf(m.train, j)) }));
    const classes = scoreColumns(columns, { kind: "classes", y: Int32Array.from(m.classes), classes: 3 }, "mutual_info", { rng: createRng(0) });
    assertClose(classes, m.classif, 1e-9, "classif");
    const regression = scoreColumns(columns, { kind: "values", y: Float64Array.from(m.regression_target) }, "mutual_info", { rng: createRng(0) });
    assertClose(regression, m.regression, 1e-9, "regression");
  });
});

describe("filter scores: pearson and relief by hand", () => {
  test("pearson: |r| of (1,2,3,4) with (2,4,5,4) is 3.5 / √23.75; a constant feature scores 0", () => {
    const f = readCsv("x,c,y\n1,7,2\n2,7,4\n3,7,5\n4,7,4\n");
    const scores = byFeature(filterScores(f, "y", "pearson"));
    assert.ok(Math.abs(scores.x - 3.5 / Math.sqrt(23.75)) < 1e-15);
    assert.equal(scores.c, 0);
  });

  test("relief: on the XOR-free square a separating feature scores 1 and a useless one −1 (k = 1)", () => {
    // A(0,0) B(0,1) class 0; C(1,0) D(1,1) class 1: every probe's hit differs in f2 only, its miss in f1 only.
    const f = readCsv("f1,f2,y\n0,0,a\n0,1,a\n1,0,b\n1,1,b\n");
    const scores = byFeature(filterScores(f, "y", "relief", undefined, { neighbours: 1 }));
    assert.equal(scores.f1, 1);
    assert.equal(scores.f2, -1);
  });

  test("relief on iris: petal measurements first; values in [−1, 1]; missing values handled without NaN", () => {
    const scores = filterScores(iris, "target", "relief");
    assert.deepEqual(scores.slice(0, 2).map((s) => s.feature).sort(), ["petal length (cm)", "petal width (cm)"]);
    for (const s of scores) assert.ok(s.score >= -1 && s.score <= 1);
    const alpha = readCsv(fixture("watermelon-2.0-alpha.csv"));
    const withGaps = filterScores(alpha, "好瓜", "relief", ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"]);
    for (const s of withGaps) assert.ok(Number.isFinite(s.score) && Math.abs(s.score) <= 1, `${s.feature} ${s.score}`);
    assert.equal(withGaps[0].feature, "纹理");
  });
});

describe("filterScores: the shape POST /v1/datasets/{id}/feature-scores returns", () => {
  test("best first; ties keep column order; default features: every column but the target the method can score", () => {
    const f = readCsv("a,b,c,t\n1,1,x,1\n2,2,y,2\n3,3,x,3\n");
    assert.deepEqual(filterScores(f, "t", "variance"), [
      { feature: "a", score: 2 / 3 },
      { feature: "b", score: 2 / 3 },
    ]);
  });

  test("errors: unknown target or feature, the target as a feature, a type the method cannot score, a wrong target type, negative chi2 input", () => {
    throwsDataError(() => filterScores(iris, "species", "chi2"), "target", "species");
    throwsDataError(() => filterScores(iris, "target", "chi2", ["petal size"]), "features[0]", "petal size");
    throwsDataError(() => filterScores(iris, "target", "chi2", ["target"]), "features[0]", "target");
    throwsDataError(() => filterScores(melons, null, "variance", ["色泽"]), "features[0]", "categorical");
    throwsDataError(() => filterScores(iris, "target", "pearson"), "target", "numeric target");
    throwsDataError(() => filterScores(iris, null, "relief"), "target");
    throwsDataError(() => filterScores(readCsv("x,y\n-1,a\n2,b\n"), "y", "chi2"), "features[0]", "non-negative", "-1");
    throwsDataError(() => filterScores(iris, "target", "anova" as never), "method", "anova");
  });

  test("relief and mutual_info are functions of the data and the seed", () => {
    const big = makeFrame([
      { type: "numeric", name: "x", values: Float64Array.from({ length: 1500 }, (_, i) => Math.sin(i) * 3) },
      { type: "categorical", name: "y", levels: ["a", "b"], codes: Int32Array.from({ length: 1500 }, (_, i) => (Math.sin(i) > 0 ? 1 : 0)) },
    ]);
    assert.deepEqual(filterScores(big, "y", "relief"), filterScores(big, "y", "relief"));
    assert.deepEqual(filterScores(iris, "target", "mutual_info"), filterScores(iris, "target", "mutual_info"));
  });
});
