import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readCsv } from "../../../src/data/read-csv.js";
import { valueTransform } from "../../../src/data/transforms/value-transform.js";
import { throwsDataError } from "../helpers.js";
import { assertClose, assertSameFrame, columnOf, frameOf, sklearnFixture, throughArtifact, valuesOf } from "./sklearn.js";

const power = sklearnFixture("power.json");
const kbins = sklearnFixture("kbins.json");

describe("transform box_cox / yeo_johnson against scikit-learn's PowerTransformer", () => {
  const names: string[] = power.columns;
  for (const [key, c] of Object.entries<{ method: string; input: string; standardize: boolean; lambdas: number[]; train_out: number[][]; test_out: number[][] }>(power.cases)) {
    test(`${key}: λ by maximum likelihood, transformed rows${c.standardize ? " (standardized)" : ""}`, () => {
      const train = frameOf(power[c.input], names);
      const later = frameOf(power[c.input === "positive" ? "test_positive" : "test_signed"], names);
      const fitted = valueTransform.fit(train, valueTransform.spec.parse({ method: c.method, standardize: c.standardize }));
      assert.ok(fitted.method === "box_cox" || fitted.method === "yeo_johnson");
      // SciPy's Brent stops at a relative tolerance of 1.48e-8 in λ; so does ours, from the same bracket.
      assertClose(fitted.lambdas, c.lambdas, 1e-6, "lambdas");
      const outTrain = valueTransform.apply(fitted, train);
      const outLater = valueTransform.apply(fitted, later);
      names.forEach((name, j) => {
        assertClose(valuesOf(outTrain, name), columnOf(c.train_out, j), 1e-6, `${key} train ${name}`);
        assertClose(valuesOf(outLater, name), columnOf(c.test_out, j), 1e-6, `${key} test ${name}`);
      });
    });
  }
});

describe("transform discretize against scikit-learn's KBinsDiscretizer(encode='ordinal')", () => {
  const names: string[] = kbins.columns;
  const train = frameOf(kbins.train, names);
  const later = frameOf(kbins.test, names);
  for (const [key, c] of Object.entries<{ strategy: string; n_bins: number; bin_edges: number[][]; train_out: number[][]; test_out: number[][] }>(kbins.cases)) {
    test(`${key}: bin edges (coinciding quantile edges dropped, a constant column one bin) and bins`, () => {
      const fitted = valueTransform.fit(train, valueTransform.spec.parse({ method: "discretize", n_bins: c.n_bins, strategy: c.strategy }));
      assert.equal(fitted.method, "discretize");
      if (fitted.method !== "discretize") return;
      fitted.edges.forEach((e, j) => assertClose(e, c.bin_edges[j], 1e-14, `edges ${names[j]}`));
      const outTrain = valueTransform.apply(fitted, train);
      const outLater = valueTransform.apply(fitted, later);
      names.forEach((name, j) => {
        assert.deepEqual([...valuesOf(outTrain, name)], columnOf(c.train_out, j), `${key} train ${name}`);
        assert.deepEqual([...valuesOf(outLater, name)], columnOf(c.test_out, j), `${key} test ${name}`);
      });
    });
  }
});

describe("transform: fixed functions, domains, errors", () => {
  const f = readCsv("x,y,c\n1,0,a\n4,3,b\n9,8,a\n");

  test("log, log1p, sqrt; a later value outside the domain becomes missing", () => {
    const later = readCsv("x,y,c\n-1,-2,a\n16,,b\n");
    for (const [method, fn] of [["log", Math.log], ["log1p", Math.log1p], ["sqrt", Math.sqrt]] as const) {
      const fitted = valueTransform.fit(f, valueTransform.spec.parse({ method, columns: ["x"] }));
      assert.deepEqual([...valuesOf(valueTransform.apply(fitted, f), "x")], [1, 4, 9].map(fn));
      const out = valueTransform.apply(fitted, later);
      assert.deepEqual([...valuesOf(out, "x")], [NaN, fn(16)]);
      assert.equal(out.columns[1], later.columns[1]);
    }
  });

  test("training rows outside the domain are a DataError naming the column (box_cox on 0, log on 0, sqrt on negatives)", () => {
    throwsDataError(() => valueTransform.fit(f, valueTransform.spec.parse({ method: "box_cox", columns: ["x", "y"] })), "columns[1]", "box_cox", "strictly positive", '"y"');
    throwsDataError(() => valueTransform.fit(f, valueTransform.spec.parse({ method: "log" })), "method", "log", '"y"');
    throwsDataError(() => valueTransform.fit(readCsv("x\n-1\n2\n"), valueTransform.spec.parse({ method: "sqrt" })), "method", "non-negative");
    throwsDataError(() => valueTransform.fit(f, valueTransform.spec.parse({ method: "log", columns: ["c"] })), "columns[0]", "categorical");
  });

  test("plan refuses box_cox on a column whose stored minimum is not positive, before the job is queued", () => {
    const spec = valueTransform.spec.parse({ method: "box_cox" });
    throwsDataError(() => valueTransform.plan!(spec, [{ name: "x", type: "numeric", min: 1 }, { name: "y", type: "numeric", min: 0 }]), "method", '"y"');
    assert.equal(valueTransform.plan!(spec, [{ name: "x", type: "numeric", min: 0.5 }])?.length, 1);
  });

  test("spec: defaults and strictness", () => {
    assert.deepEqual(valueTransform.spec.parse({}), { method: "yeo_johnson", standardize: true, n_bins: 5, strategy: "quantile" });
    assert.equal(valueTransform.spec.safeParse({ method: "boxcox" }).success, false);
    assert.equal(valueTransform.spec.safeParse({ n_bins: 1 }).success, false);
    assert.equal(valueTransform.spec.safeParse({ lambda: 0.5 }).success, false);
  });

  test("save → load → identical transform for every method", () => {
    const train = frameOf(power.positive, power.columns);
    const later = frameOf(power.test_positive, power.columns);
    for (const method of ["log", "log1p", "sqrt", "box_cox", "yeo_johnson", "discretize"] as const) {
      const fitted = valueTransform.fit(train, valueTransform.spec.parse({ method }));
      assertSameFrame(valueTransform.apply(throughArtifact(valueTransform.fitted, fitted), later), valueTransform.apply(fitted, later));
    }
    const edges = valueTransform.fit(frameOf(kbins.train, kbins.columns), valueTransform.spec.parse({ method: "discretize" }));
    const back = throughArtifact(valueTransform.fitted, edges);
    assert.ok(back.method === "discretize" && back.edges[3][0] === -Infinity && back.edges[3][1] === Infinity, "±∞ edges of a constant column survive the artifact");
  });
});
