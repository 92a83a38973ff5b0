import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readCsv } from "../../../src/data/read-csv.js";
import { pcaFitted, pcaStep, type PcaFitted } from "../../../src/training/steps/pca.js";
import { throwsDataError } from "../../data/helpers.js";
import { assertClose, assertSameFrame, columnOf, frameOf, sklearnFixture, throughArtifact, valuesOf } from "../../data/transforms/sklearn.js";
import { assertCloseUpToSign, fitStep } from "./helpers.js";

const fx = sklearnFixture("pca.json");
const names: string[] = fx.columns;
const train = frameOf(fx.train, names);
const later = frameOf(fx.test, names);

describe("pca against scikit-learn's PCA (signs aside)", () => {
  for (const [key, c] of Object.entries<{
    spec: Record<string, unknown>;
    n_components: number;
    components: number[][];
    explained_variance: number[];
    explained_variance_ratio: number[];
    mean: number[];
    train_out: number[][];
    test_out: number[][];
  }>(fx.cases)) {
    test(`${key}: ${c.n_components} components, explained variance (ratio), projections of training and later rows`, () => {
      const { fitted, out, apply } = fitStep("pca", train, c.spec);
      const f = fitted as PcaFitted;
      assert.equal(f.names.length, c.n_components);
      assertClose(f.mean, c.mean, 1e-12, "mean");
      assertClose(f.explained_variance, c.explained_variance, 1e-9, "explained_variance");
      assertClose(f.explained_variance_ratio, c.explained_variance_ratio, 1e-9, "explained_variance_ratio");
      const p = names.length;
      c.components.forEach((row, k) => assertCloseUpToSign(f.components.subarray(k * p, (k + 1) * p), row, 1e-7, `component ${k}`));
      const projected = apply(later);
      f.names.forEach((name, k) => {
        assertCloseUpToSign(valuesOf(out, name), columnOf(c.train_out, k), 1e-7, `${key} train ${name}`);
        assertCloseUpToSign(valuesOf(projected, name), columnOf(c.test_out, k), 1e-7, `${key} test ${name}`);
      });
    });
  }

  test("component signs follow scikit-learn's svd_flip (the largest |projection| positive), so even the signs agree", () => {
    const c = fx.cases.count3;
    const f = fitStep("pca", train, c.spec).fitted as PcaFitted;
    const p = names.length;
    c.components.forEach((row: number[], k: number) => assertClose(f.components.subarray(k * p, (k + 1) * p), row, 1e-7, `component ${k}`));
  });

  test("whiten: every projection of the training rows has variance 1", () => {
    const { out } = fitStep("pca", train, { n_components: 3, whiten: true });
    for (const name of ["pc1", "pc2", "pc3"]) {
      const v = valuesOf(out, name);
      const mean = v.reduce((a, b) => a + b, 0) / v.length;
      assert.ok(Math.abs(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1) - 1) < 1e-9);
    }
  });
});

describe("pca: placement, errors, artifacts", () => {
  test("the components replace the chosen columns where the first stood; other columns stay; a later missing cell counts as the mean", () => {
    const f = readCsv("id,a,tag,b\n1,1,x,2\n2,2,y,4.5\n3,3,x,5.5\n4,4,y,8\n");
    const { out, apply } = fitStep("pca", f, { columns: ["a", "b"], n_components: 1 });
    assert.deepEqual(
      out.columns.map((c) => c.name),
      ["id", "pc1", "tag"],
    );
    const withGap = apply(readCsv("id,a,tag,b\n9,2.5,x,\n9,2.5,x,5\n"));
    assert.equal(valuesOf(withGap, "pc1")[0], valuesOf(withGap, "pc1")[1], "b missing reads as b's mean, 5");
  });

  test("DataErrors: more components than columns, a categorical column, missing training values, a taken name", () => {
    const f = readCsv("a,b,c\n1,2,x\n2,1,y\n3,5,x\n");
    throwsDataError(() => fitStep("pca", f, { n_components: 3 }), "n_components", "3");
    throwsDataError(() => fitStep("pca", f, { columns: ["a", "c"] }), "columns[1]", "categorical");
    throwsDataError(() => fitStep("pca", readCsv("a,b\n1,2\n-,1\n3,5\n"), {}), "columns", "impute");
    throwsDataError(() => fitStep("pca", readCsv("a,b,pc1\n1,2,0\n2,1,0\n3,5,1\n"), { columns: ["a", "b"], n_components: 1 }), "prefix", "pc1");
    throwsDataError(() => pcaStep.plan!(pcaStep.spec.parse({ n_components: 3 }), [{ name: "a", type: "numeric" }, { name: "c", type: "categorical" }], null), "n_components");
    const both = pcaStep.spec.safeParse({ n_components: 2, explained_variance: 0.9 });
    assert.equal(both.success, false);
    assert.deepEqual(both.error?.issues[0].path, ["explained_variance"]);
  });

  test("save → load → identical projections; describe gives the explained variance ratio by component", () => {
    const { fitted, apply } = fitStep("pca", train, { explained_variance: 0.95, whiten: true });
    const back = throughArtifact(pcaFitted, fitted as PcaFitted);
    assertSameFrame(pcaStep.apply(back, later), apply(later));
    const d = pcaStep.describe!(fitted as PcaFitted);
    assert.deepEqual(Object.keys(d.explained_variance_ratio as object), (fitted as PcaFitted).names);
  });
});
