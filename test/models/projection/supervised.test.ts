/**
 * The supervised projections are their preprocessing steps as models: lda_projection
 * gives the lda_projection step's columns, nca_projection the nca step's and lmnn_projection
 * the lmnn step's, on the same
 * rows and classes (iris, wine), to 1e-12; lda_projection is scikit-learn 1.2's
 * LinearDiscriminantAnalysis.transform up to the sign of each direction (fixtures from
 * scripts/fixtures, test/fixtures/linear/*_lda.json). Both refuse a fit without classes.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { makeFrame, type Column, type Frame } from "../../../src/data/frame.js";
import { readCsv } from "../../../src/data/read-csv.js";
import { UnusableInputError, type Algorithm, type Target } from "../../../src/models/contract.js";
import { ldaProjection } from "../../../src/models/projection/lda-projection.js";
import { lmnnProjection } from "../../../src/models/projection/lmnn-projection.js";
import { ncaProjection } from "../../../src/models/projection/nca-projection.js";
import { valuesOf } from "../../data/transforms/sklearn.js";
import { fixture } from "../../data/helpers.js";
import { assertCloseUpToSign, fitStep } from "../../training/steps/helpers.js";
import { ctx } from "./helpers.js";

function table(file: string): { X: Frame; target: Target & { task: "classification" } } {
  const frame = readCsv(fixture(file));
  const y = frame.columns.find((c) => c.name === "target")!;
  if (y.type !== "categorical") assert.fail("target is categorical");
  return { X: makeFrame(frame.columns.filter((c) => c !== y)), target: { task: "classification", y: Int32Array.from(y.codes), classes: [...y.levels] } };
}

/** The model's projections, column k of the row-major prediction. */
function projected<P, S>(algorithm: Algorithm<P, S>, params: Record<string, unknown>, data: { X: Frame; target: Target }): { columns: Float64Array[]; state: S } {
  const state = algorithm.fit(data, algorithm.params.parse(params), ctx());
  const p = algorithm.predict(state, data.X);
  if (p.task !== "projection") assert.fail(p.task);
  return { state, columns: Array.from({ length: p.dims }, (_, k) => Float64Array.from({ length: data.X.rowCount }, (_, i) => p.values[i * p.dims + k])) };
}

function assertSameColumns(model: readonly Float64Array[], step: Frame, names: readonly string[], label: string): void {
  assert.equal(model.length, names.length, label);
  names.forEach((name, k) => {
    const expected = valuesOf(step, name);
    model[k].forEach((v, i) => assert.ok(Math.abs(v - expected[i]) <= 1e-12 * (1 + Math.abs(expected[i])), `${label} ${name}[${i}]: ${v} vs ${expected[i]}`));
  });
}

const datasets = ["iris.csv", "wine.csv"] as const;

describe("lda_projection", () => {
  for (const file of datasets) {
    test(`${file}: the lda_projection step's columns, to 1e-12; shrinkage and n_components as the step's`, () => {
      const data = table(file);
      for (const params of [{}, { n_components: 1, shrinkage: 0.3 }]) {
        const { columns, state } = projected(ldaProjection, params, data);
        const names = ldaProjection.outputNames!(state);
        assert.deepEqual(names, params.n_components === 1 ? ["ld1"] : ["ld1", "ld2"]);
        assertSameColumns(columns, fitStep("lda_projection", data.X, params, data.target).out, names, `${file} ${JSON.stringify(params)}`);
      }
    });
  }

  for (const name of ["iris", "wine"]) {
    test(`${name}: scikit-learn's LinearDiscriminantAnalysis.transform up to sign`, () => {
      const f = JSON.parse(readFileSync(new URL(`../../fixtures/linear/${name}_lda.json`, import.meta.url), "utf8")) as { features: string[]; X: number[][]; y: number[]; transform: number[][]; explained_variance_ratio: number[] };
      const X = makeFrame(f.features.map((feature, j): Column => ({ type: "numeric", name: feature, values: Float64Array.from(f.X, (r) => r[j]) })));
      const classes = [...new Set(f.y)].sort((a, b) => a - b).map(String);
      const { columns, state } = projected(ldaProjection, {}, { X, target: { task: "classification", y: Int32Array.from(f.y), classes } });
      assertCloseUpToSign(state.explained_variance_ratio, f.explained_variance_ratio, 1e-9, "ratio");
      columns.forEach((c, k) => assertCloseUpToSign(c, f.transform.map((r) => r[k]), 1e-8, `ld${k + 1}`));
    });
  }

  test("refuses a fit without classes, and more directions than K − 1 or the features", () => {
    const data = table("iris.csv");
    const fit = (target: Target | null, params: Record<string, unknown>) => () => ldaProjection.fit({ X: data.X, target }, ldaProjection.params.parse(params), ctx());
    assert.throws(fit(null, {}), (e) => e instanceof UnusableInputError && /categorical target/.test(e.message));
    assert.throws(fit({ task: "regression", y: new Float64Array(150) }, {}), (e) => e instanceof UnusableInputError && /categorical target/.test(e.message));
    assert.throws(fit(data.target, { n_components: 3 }), (e) => e instanceof UnusableInputError && /at most 2 discriminant/.test(e.message));
  });
});

describe("nca_projection", () => {
  for (const file of datasets) {
    test(`${file}: the nca step's columns, to 1e-12 (the same L-BFGS run)`, () => {
      const data = table(file);
      const params = { n_components: 2, max_iter: 15 };
      const { columns, state } = projected(ncaProjection, params, data);
      const names = ncaProjection.outputNames!(state);
      assert.deepEqual(names, ["nca1", "nca2"]);
      assertSameColumns(columns, fitStep("nca", data.X, params, data.target).out, names, file);
    });
  }

  test("refuses a fit without classes, above max_rows, or with more components than features", () => {
    const data = table("iris.csv");
    const fit = (target: Target | null, params: Record<string, unknown>) => () => ncaProjection.fit({ X: data.X, target }, ncaProjection.params.parse(params), ctx());
    assert.throws(fit(null, {}), (e) => e instanceof UnusableInputError && /categorical target/.test(e.message));
    assert.throws(fit(data.target, { max_rows: 100 }), (e) => e instanceof UnusableInputError && /above max_rows 100/.test(e.message));
    assert.throws(fit(data.target, { n_components: 5 }), (e) => e instanceof UnusableInputError && /only 4 numeric features/.test(e.message));
  });
});

describe("lmnn_projection", () => {
  for (const file of datasets) {
    test(`${file}: the lmnn step's columns, to 1e-12 (the same L-BFGS run)`, () => {
      const data = table(file);
      const params = { n_components: 2, max_iter: 10 };
      const { columns, state } = projected(lmnnProjection, params, data);
      const names = lmnnProjection.outputNames!(state);
      assert.deepEqual(names, ["lmnn1", "lmnn2"]);
      assertSameColumns(columns, fitStep("lmnn", data.X, params, data.target).out, names, file);
    });
  }

  test("refuses a fit without classes or above max_rows", () => {
    const data = table("iris.csv");
    const fit = (target: Target | null, params: Record<string, unknown>) => () => lmnnProjection.fit({ X: data.X, target }, lmnnProjection.params.parse(params), ctx());
    assert.throws(fit(null, {}), (e) => e instanceof UnusableInputError && /categorical target/.test(e.message));
    assert.throws(fit(data.target, { max_rows: 100 }), (e) => e instanceof UnusableInputError && /above max_rows 100/.test(e.message));
  });
});
