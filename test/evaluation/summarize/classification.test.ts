import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { logLoss, rocAuc, summarizeClassification } from "../../../src/evaluation/index.js";
import { assertClose, f64, i32 } from "../helpers.js";

/** A noisy 3-class problem with probabilities. */
function threeClasses(n: number, seed: number) {
  const rng = createRng(seed);
  const yTrue = new Int32Array(n);
  const yPred = new Int32Array(n);
  const proba = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    yTrue[i] = i % 3;
    const raw = [rng.next(), rng.next(), rng.next()];
    raw[yTrue[i]] += 0.8;
    const sum = raw[0] + raw[1] + raw[2];
    let best = 0;
    for (let k = 0; k < 3; k++) {
      proba[i * 3 + k] = raw[k] / sum;
      if (raw[k] > raw[best]) best = k;
    }
    yPred[i] = best;
  }
  return { yTrue, yPred, proba };
}

describe("summarizeClassification", () => {
  test("binary: positive class defaults to the second sorted class, metrics and curves for it", () => {
    // classes given in sorted order "no" < "yes"; "yes" is the positive class
    const yTrue = i32([0, 0, 1, 1, 1, 0, 1, 0]);
    const p1 = [0.1, 0.6, 0.8, 0.4, 0.9, 0.3, 0.7, 0.2];
    const yPred = i32(p1.map((p) => (p >= 0.5 ? 1 : 0)));
    const proba = f64(p1.flatMap((p) => [1 - p, p]));
    const s = summarizeClassification({ yTrue, yPred, proba, classes: ["no", "yes"], beta: 2 });
    assert.equal(s.positive_class, "yes");
    // TP 3 (rows 2, 4, 6), FN 1 (row 3), FP 1 (row 1), TN 3
    assert.deepEqual(s.confusion_matrix, { labels: ["no", "yes"], matrix: [[3, 1], [1, 3]] });
    assert.equal(s.metrics.precision, 0.75);
    assert.equal(s.metrics.recall, 0.75);
    assert.equal(s.metrics.specificity, 0.75);
    assert.equal(s.metrics.accuracy, 0.75);
    assert.equal(s.metrics.fbeta, 0.75);
    assertClose(s.metrics.auc, rocAuc(yTrue, f64(p1)), 1e-15, "auc");
    assertClose(s.metrics.log_loss, logLoss(yTrue, proba, 2), 1e-15, "log loss");
    assert.ok(s.curves);
    assert.equal(s.curves.roc.fpr.length, s.curves.roc.tpr.length);
    assert.equal(s.curves.pr.thresholds.length, s.curves.pr.precision.length - 1);
    assert.deepEqual(Object.keys(s.per_class), ["no", "yes"]);
    assert.deepEqual(s.per_class.yes, { precision: 0.75, recall: 0.75, f1: 0.75, support: 4 });
  });

  test("binary with the first class named positive swaps the roles", () => {
    const yTrue = i32([0, 0, 0, 1]);
    const yPred = i32([0, 0, 1, 1]);
    const s = summarizeClassification({ yTrue, yPred, classes: ["a", "b"], positiveClass: "a" });
    assert.equal(s.positive_class, "a");
    assert.equal(s.metrics.precision, 1);
    assertClose(s.metrics.recall, 2 / 3, 1e-15, "recall of a");
    assert.equal(s.metrics.specificity, 1);
    assert.equal(s.curves, undefined);
  });

  test("numeric class names sort numerically for the default positive class", () => {
    const s = summarizeClassification({ yTrue: i32([0, 1]), yPred: i32([0, 1]), classes: ["10", "9"] });
    assert.equal(s.positive_class, "10");
  });

  test("multiclass: macro and micro metrics, macro OvR AUC, per-class AUC, no binary keys", () => {
    const { yTrue, yPred, proba } = threeClasses(90, 3);
    const s = summarizeClassification({ yTrue, yPred, proba, classes: ["red", "green", "yellow"] });
    for (const key of ["precision", "recall", "f1", "specificity", "bep", "average_precision"]) assert.equal(key in s.metrics, false, key);
    for (const key of ["accuracy", "error_rate", "macro_precision", "macro_recall", "macro_f1", "macro_f1_mean", "micro_f1", "log_loss", "auc"]) {
      assert.equal(typeof s.metrics[key], "number", key);
    }
    assert.equal(s.metrics.micro_f1, s.metrics.accuracy);
    const perClass = Object.values(s.auc_per_class!) as number[];
    assertClose(s.metrics.auc, perClass.reduce((a, b) => a + b) / 3, 1e-15, "macro auc");
    assert.equal(s.curves, undefined);
    assert.equal(s.per_class_curves, undefined);
    const withCurves = summarizeClassification({ yTrue, yPred, proba, classes: ["red", "green", "yellow"], perClassCurves: true, curvePoints: 10 });
    assert.deepEqual(Object.keys(withCurves.per_class_curves!), ["red", "green", "yellow"]);
    assert.ok(withCurves.per_class_curves!.green.roc.fpr.length <= 10);
  });

  test("the summary is plain JSON: a stringify/parse round trip changes nothing", () => {
    const { yTrue, yPred, proba } = threeClasses(30, 5);
    const s = summarizeClassification({ yTrue, yPred, proba, classes: ["__proto__", "b", "c"] });
    assert.deepEqual(JSON.parse(JSON.stringify(s)), s);
    assert.ok(Object.hasOwn(s.per_class, "__proto__"));
  });

  test("a single-class test fold: AUC and curves' undefined rates are null, not NaN", () => {
    const s = summarizeClassification({ yTrue: i32([1, 1, 1]), yPred: i32([1, 0, 1]), proba: f64([0.2, 0.8, 0.6, 0.4, 0.1, 0.9]), classes: ["n", "p"] });
    assert.equal(s.metrics.auc, null);
    assert.equal(s.metrics.specificity, 0);
    assert.ok(s.curves!.roc.fpr.every((v) => v === null));
    assert.doesNotMatch(JSON.stringify(s), /NaN|Infinity/);
  });

  test("bad input is refused", () => {
    assert.throws(() => summarizeClassification({ yTrue: i32([0]), yPred: i32([0]), classes: ["only"] }), RangeError);
    assert.throws(() => summarizeClassification({ yTrue: i32([0, 2]), yPred: i32([0, 1]), classes: ["a", "b"] }), RangeError);
    assert.throws(() => summarizeClassification({ yTrue: i32([0, 1]), yPred: i32([0, 1]), classes: ["a", "b"], positiveClass: "c" }), RangeError);
    assert.throws(() => summarizeClassification({ yTrue: i32([0, 1]), yPred: i32([0, 1]), proba: f64([1, 0]), classes: ["a", "b"] }), RangeError);
  });
});
