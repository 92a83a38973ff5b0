import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readCsv } from "../../../src/data/read-csv.js";
import { polynomial } from "../../../src/data/transforms/polynomial.js";
import { throwsDataError } from "../helpers.js";
import { assertClose, assertSameFrame, columnOf, frameOf, sklearnFixture, throughArtifact, valuesOf } from "./sklearn.js";

const fx = sklearnFixture("polynomial.json");
const train = frameOf(fx.train, fx.columns);

/** scikit-learn's names ("x^2 y", "1") in xigua's spelling ("x^2*y", "1"). */
const xiguaName = (name: string) => name.replace(/ /g, "*");

describe("polynomial against PolynomialFeatures", () => {
  for (const [key, c] of Object.entries<{ spec: Record<string, unknown>; names: string[]; train_out: number[][] }>(fx.cases)) {
    test(`${key}: the same columns in the same order, the same products`, () => {
      const fitted = polynomial.fit(train, polynomial.spec.parse(c.spec));
      const out = polynomial.apply(fitted, train);
      assert.deepEqual(
        out.columns.map((col) => col.name),
        c.names.map(xiguaName),
      );
      c.names.forEach((name, j) => assertClose(valuesOf(out, xiguaName(name)), columnOf(c.train_out, j), 1e-12, name));
    });
  }
});

describe("polynomial: placement, errors, artifacts", () => {
  test("the expansion stands where the first chosen column stood; other columns untouched; a missing factor makes the product missing", () => {
    const f = readCsv("id,a,s,b\n1,2,u,3\n2,,v,5\n");
    const out = polynomial.apply(polynomial.fit(f, polynomial.spec.parse({ columns: ["a", "b"] })), f);
    assert.deepEqual(
      out.columns.map((c) => c.name),
      ["id", "a", "b", "a^2", "a*b", "b^2", "s"],
    );
    assert.deepEqual([...valuesOf(out, "a*b")], [6, NaN]);
    assert.deepEqual([...valuesOf(out, "b^2")], [9, 25]);
  });

  test("defaults: degree 2, no interaction_only, no bias; a name collision or an explosion is a DataError", () => {
    assert.deepEqual(polynomial.spec.parse({}), { degree: 2, interaction_only: false, include_bias: false });
    throwsDataError(() => polynomial.fit(readCsv("a,b,a^2\n1,2,3\n"), polynomial.spec.parse({ columns: ["a", "b"] })), "columns", "a^2");
    const wide = readCsv(Array.from({ length: 40 }, (_, j) => `x${j}`).join(",") + "\n" + Array.from({ length: 40 }, () => "1").join(",") + "\n");
    throwsDataError(() => polynomial.fit(wide, polynomial.spec.parse({ degree: 5 })), "degree", "10000");
  });

  test("save → load → identical transform", () => {
    const fitted = polynomial.fit(train, polynomial.spec.parse({ degree: 3, include_bias: true }));
    assertSameFrame(polynomial.apply(throughArtifact(polynomial.fitted, fitted), train), polynomial.apply(fitted, train));
  });
});
