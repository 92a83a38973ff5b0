import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readCsv } from "../../../src/data/read-csv.js";
import { scale } from "../../../src/data/transforms/scale.js";
import { throwsDataError } from "../helpers.js";
import { assertClose, assertSameFrame, columnOf, frameOf, sklearnFixture, throughArtifact, valuesOf } from "./sklearn.js";

const fx = sklearnFixture("scalers.json");
const columns: string[] = fx.columns;
const train = frameOf(fx.train, columns);
const test_ = frameOf(fx.test, columns);

describe("scale against scikit-learn 1.2 (StandardScaler, MinMaxScaler, RobustScaler, MaxAbsScaler)", () => {
  for (const [key, c] of Object.entries<{ spec: Record<string, unknown>; attributes: Record<string, number[]>; train_out: number[][]; test_out: number[][] }>(fx.cases)) {
    test(`${key}: fitted statistics and transformed training and later rows (missing cells stay missing)`, () => {
      const fitted = scale.fit(train, scale.spec.parse(c.spec));
      const a = c.attributes;
      if (a.mean_) assertClose(fitted.center, a.mean_, 1e-12, "mean");
      if (a.center_) assertClose(fitted.center, a.center_, 1e-12, "center");
      if (a.scale_) assertClose(fitted.scale, a.scale_, 1e-12, "scale");
      if (a.max_abs_) assertClose(fitted.scale, a.max_abs_, 1e-12, "max_abs");
      if (a.data_min_) assertClose(fitted.center, a.data_min_, 1e-12, "data_min");
      const outTrain = scale.apply(fitted, train);
      const outTest = scale.apply(fitted, test_);
      columns.forEach((name, j) => {
        assertClose(valuesOf(outTrain, name), columnOf(c.train_out, j), 1e-10, `${key} train ${name}`);
        assertClose(valuesOf(outTest, name), columnOf(c.test_out, j), 1e-10, `${key} test ${name}`);
      });
    });
  }

  test("the constant column e is centred but never divided by zero (scale 1, scikit-learn's rule)", () => {
    const fitted = scale.fit(train, scale.spec.parse({}));
    assert.equal(fitted.scale[4], 1);
    assert.ok(valuesOf(scale.apply(fitted, train), "e").every((v) => v === 0));
  });
});

describe("scale: options, errors, artifacts", () => {
  test("spec defaults: standard; feature_range and quantile_range checked", () => {
    const d = scale.spec.parse({});
    assert.equal(d.method, "standard");
    assert.deepEqual(d.feature_range, [0, 1]);
    assert.deepEqual(d.quantile_range, [25, 75]);
    assert.equal(scale.spec.safeParse({ feature_range: [1, 0] }).success, false);
    assert.equal(scale.spec.safeParse({ quantile_range: [10, 120] }).success, false);
    assert.equal(scale.spec.safeParse({ method: "zscore" }).success, false);
    assert.equal(scale.spec.safeParse({ with_means: true }).success, false);
  });

  test("a categorical column named for scaling is a DataError at columns[i]; by default categorical columns pass through", () => {
    const f = readCsv("x,colour\n1,red\n2,blue\n4,red\n");
    throwsDataError(() => scale.fit(f, scale.spec.parse({ columns: ["x", "colour"] })), "columns[1]", "colour", "categorical");
    throwsDataError(() => scale.fit(f, scale.spec.parse({ columns: ["y"] })), "columns[0]", "no column");
    const out = scale.apply(scale.fit(f, scale.spec.parse({})), f);
    assert.equal(out.columns[1], f.columns[1]);
    assertClose(valuesOf(out, "x"), [-1.0690449676496976, -0.2672612419124244, 1.3363062095621219], 1e-12);
  });

  test("plan refuses a categorical column before any data is read", () => {
    throwsDataError(() => scale.plan!(scale.spec.parse({ columns: ["c"] }), [{ name: "c", type: "categorical", levels: ["a"] }]), "columns[0]", "categorical");
  });

  test("save → load → identical transform; describe names the statistics by column", () => {
    for (const method of ["standard", "minmax", "robust", "maxabs"] as const) {
      const fitted = scale.fit(train, scale.spec.parse({ method, clip: true }));
      assertSameFrame(scale.apply(throughArtifact(scale.fitted, fitted), test_), scale.apply(fitted, test_));
    }
    const d = scale.describe!(scale.fit(train, scale.spec.parse({})));
    assert.equal(d.method, "standard");
    assert.deepEqual(Object.keys(d.mean as object), columns);
  });
});
