/** target_encode against scikit-learn's TargetEncoder (fixture from scikit-learn 1.6.1), and its cross-fitting. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, sortLevels, type Frame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { crossFittedEncodings } from "../../../src/data/target-encoding.js";
import type { Target } from "../../../src/models/contract.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { STEP_REGISTRY } from "../../../src/training/steps.js";
import { targetEncodeStep, type TargetEncodeFitted } from "../../../src/training/steps/target-encode.js";
import { assertClose, sklearnFixture, valuesOf } from "../../data/transforms/sklearn.js";

interface Case {
  target: "continuous" | "binary" | "multiclass";
  smooth: "auto" | number;
  y: (number | string)[];
  classes: string[] | null;
  categories: (string | null)[];
  encodings: number[][];
  target_mean: number[];
  folds: number[][];
  fit_transform: number[][];
  transform_test: number[][];
  transform_train: number[][];
}
const fx = sklearnFixture("target_encoder.json");
const cases = fx.cases as Record<string, Case>;

/** The fixture's missing cells read back as NaN. */
function frameOf(cells: unknown[]): Frame {
  const levels = sortLevels(cells.filter((v): v is string => typeof v === "string"));
  return makeFrame([{ type: "categorical", name: "a", levels, codes: Int32Array.from(cells, (v) => (typeof v === "string" ? levels.indexOf(v) : -1)) }]);
}

function targetOf(c: Case): Target {
  if (c.target === "continuous") return { task: "regression", y: Float64Array.from(c.y as number[]) };
  const classes = sortLevels(c.y as string[]);
  return { task: "classification", y: Int32Array.from(c.y as string[], (v) => classes.indexOf(v)), classes };
}

function outputs(c: Case, n: number): string[] {
  return c.target === "multiclass" ? c.classes!.map((k) => `a[${k}]`) : Array.from({ length: n > 0 ? 1 : 0 }, () => "a");
}

describe("target_encode against scikit-learn's TargetEncoder", () => {
  const train = frameOf(fx.x);
  const later = frameOf(fx.test);
  for (const [key, c] of Object.entries(cases)) {
    test(`${key}: encodings, target mean, prediction rows, and the cross-fitted training rows on scikit-learn's folds`, () => {
      const spec = targetEncodeStep.spec.parse({ smooth: c.smooth });
      const target = targetOf(c);
      const fitted = targetEncodeStep.fit(train, spec, { target, rng: createRng(0) });
      const K = fitted.target_mean.length;
      assert.deepEqual(fitted.columns[0].levels, c.categories.filter((v) => typeof v === "string"));
      assertClose(fitted.target_mean, c.target_mean, 1e-12, "target mean");
      // scikit-learn: one encoding array per output over its categories, the missing one (None) last.
      c.encodings.forEach((e, o) => assertClose(Array.from(e, (_, k) => fitted.columns[0].encodings[k * K + o]), e, 1e-12, `encodings ${o}`));
      const names = outputs(c, 1);
      const onLater = targetEncodeStep.apply(fitted, later);
      const onTrain = targetEncodeStep.apply(fitted, train);
      names.forEach((name, o) => {
        assertClose(valuesOf(onLater, name), c.transform_test.map((r) => r[o]), 1e-12, `${name} later`);
        assertClose(valuesOf(onTrain, name), c.transform_train.map((r) => r[o]), 1e-12, `${name} train`);
      });
      const levels = fitted.columns[0].levels;
      const codes = Int32Array.from(fx.x as unknown[], (v) => (typeof v === "string" ? levels.indexOf(v) : levels.length));
      const series = c.target === "continuous" ? [Float64Array.from(c.y as number[])] : (c.target === "binary" ? [1] : c.classes!.map((_, k) => k)).map((k) => Float64Array.from(target.y, (v) => (v === k ? 1 : 0)));
      const crossed = crossFittedEncodings(codes, levels.length + 1, series, c.folds.map((f) => Int32Array.from(f)), c.smooth);
      crossed.forEach((col, o) => assertClose(col, c.fit_transform.map((r) => r[o]), 1e-12, `cross-fitted ${o}`));
    });
  }
});

describe("target_encode in the pipeline", () => {
  const c = cases.continuous_auto;
  const train = frameOf(fx.x);
  const step = STEP_REGISTRY.target_encode;

  test("no training row's encoding depends on its own target; prediction rows get the encodings from all rows", () => {
    const spec = step.spec.parse({});
    const y = Float64Array.from(c.y as number[]);
    const base = step.fitTransform!(train, spec, { target: { task: "regression", y }, rng: createRng(4) });
    for (const row of [0, 17, 99]) {
      const changed = Float64Array.from(y);
      changed[row] += 1000;
      const other = step.fitTransform!(train, spec, { target: { task: "regression", y: changed }, rng: createRng(4) });
      assert.equal(valuesOf(other.frame, "a")[row], valuesOf(base.frame, "a")[row], `row ${row}`);
      assert.notEqual(valuesOf(step.apply(other.fitted, train), "a")[row], valuesOf(step.apply(base.fitted, train), "a")[row]);
    }
    assert.deepEqual(base.fitted, step.fit(train, spec, { target: { task: "regression", y }, rng: createRng(4) }), "fit and fitTransform keep the same state");
  });

  test("the fitted state round-trips through the artifact codec; describe is plain JSON", () => {
    const fitted = step.fit(train, step.spec.parse({ smooth: 2 }), { target: targetOf(cases.multiclass_auto), rng: createRng(1) }) as TargetEncodeFitted;
    const back = step.fitted.parse(decodeState(JSON.parse(JSON.stringify(encodeState(fitted)))));
    assert.deepEqual(step.apply(back, train), step.apply(fitted, train));
    const described = step.describe!(fitted);
    assert.deepEqual(JSON.parse(JSON.stringify(described)), described);
  });

  test("options are bounded; a step without a target is refused", () => {
    for (const bad of [{ cv: 1 }, { cv: 21 }, { smooth: -1 }, { smooth: "none" }, { smooth: 1e10 }]) assert.equal(step.spec.safeParse(bad).success, false, JSON.stringify(bad));
    assert.throws(() => step.fit(train, step.spec.parse({}), { target: null, rng: createRng(1) }), /needs a target/);
  });
});
