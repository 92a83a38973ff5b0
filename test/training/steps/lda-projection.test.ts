import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { makeFrame, type Column } from "../../../src/data/frame.js";
import { readCsv } from "../../../src/data/read-csv.js";
import { ldaProjectionFitted, ldaProjectionStep, type LdaProjectionFitted } from "../../../src/training/steps/lda-projection.js";
import { throwsDataError } from "../../data/helpers.js";
import { assertSameFrame, throughArtifact, valuesOf } from "../../data/transforms/sklearn.js";
import { assertCloseUpToSign, classTarget, fitStep } from "./helpers.js";

const iris = JSON.parse(readFileSync(new URL("../../fixtures/linear/iris_lda.json", import.meta.url), "utf8")) as {
  features: string[];
  X: number[][];
  y: number[];
  transform: number[][];
  explained_variance_ratio: number[];
};
const frame = makeFrame(iris.features.map((name, j): Column => ({ type: "numeric", name, values: Float64Array.from(iris.X, (r) => r[j]) })));
const target = classTarget(iris.y, ["0", "1", "2"]);

describe("lda_projection", () => {
  test("iris: K − 1 = 2 directions, scikit-learn's LinearDiscriminantAnalysis.transform up to sign", () => {
    const { fitted, out } = fitStep("lda_projection", frame, {}, target);
    const f = fitted as LdaProjectionFitted;
    assert.deepEqual(f.names, ["ld1", "ld2"]);
    assertCloseUpToSign(f.explained_variance_ratio, iris.explained_variance_ratio, 1e-9, "ratio");
    f.names.forEach((name, k) =>
      assertCloseUpToSign(
        valuesOf(out, name),
        iris.transform.map((r) => r[k]),
        1e-8,
        name,
      ),
    );
  });

  test("needs classes; at most K − 1 components, checked at fit and before queueing", () => {
    throwsDataError(() => fitStep("lda_projection", frame, {}, { task: "regression", y: new Float64Array(150) }), "step", "categorical target");
    throwsDataError(() => fitStep("lda_projection", frame, { n_components: 3 }, target), "n_components", "at most 2");
    throwsDataError(() => ldaProjectionStep.plan!(ldaProjectionStep.spec.parse({ n_components: 2 }), [{ name: "a", type: "numeric" }], { type: "categorical", levels: ["x", "y"] }), "n_components");
    throwsDataError(() => fitStep("lda_projection", readCsv("a,b\n1,x\n2,y\n"), { columns: ["b"] }, classTarget([0, 1], ["p", "q"])), "columns[0]", "categorical");
  });

  test("save → load → identical projections", () => {
    const { fitted, apply } = fitStep("lda_projection", frame, { n_components: 1 }, target);
    assertSameFrame(ldaProjectionStep.apply(throughArtifact(ldaProjectionFitted, fitted as LdaProjectionFitted), frame), apply(frame));
  });
});
