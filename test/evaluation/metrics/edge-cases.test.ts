/** The edge cases the metrics define like scikit-learn (zero division → 0) or as null. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  averagePrecision,
  binaryMetrics,
  breakEvenPoint,
  confusionMatrix,
  fbetaFromPR,
  hammingLoss,
  labelRankingLoss,
  multiclassMetrics,
  pairCounts,
  adjustedRandIndex,
  randIndex,
  rocAuc,
  rocCurve,
  thresholdCounts,
  trapezoidArea,
} from "../../../src/evaluation/index.js";
import { assertClose, i32 } from "../helpers.js";

describe("classification edge cases", () => {
  test("nothing predicted positive: precision 0, F1 0 (zero_division = 0)", () => {
    const m = binaryMetrics({ tp: 0, fp: 0, fn: 3, tn: 5 }, 2);
    assert.deepEqual([m.precision, m.recall, m.f1, m.fbeta], [0, 0, 0, 0]);
  });

  test("no actual negatives: specificity 0", () => {
    assert.equal(binaryMetrics({ tp: 2, fp: 0, fn: 1, tn: 0 }).specificity, 0);
  });

  test("beta must be positive", () => {
    assert.throws(() => fbetaFromPR(0.5, 0.5, 0), RangeError);
  });

  test("a class absent from both y and the predictions does not enter the macro average", () => {
    const c = confusionMatrix(i32([0, 1, 1]), i32([0, 1, 0]), 3);
    assert.deepEqual(Array.from(c.present), [1, 1, 0]);
    const m = multiclassMetrics(c);
    assertClose(m.macro_precision, (0.5 + 1) / 2, 1e-15, "macro P over the two present classes");
  });

  test("empty input: accuracy null", () => {
    assert.equal(multiclassMetrics(confusionMatrix(i32([]), i32([]), 2)).accuracy, null);
  });
});

describe("score-curve edge cases", () => {
  test("one class only: AUC null (scikit-learn raises), AP and BEP null without positives", () => {
    assert.equal(rocAuc([1, 1, 1], [0.1, 0.5, 0.9]), null);
    assert.equal(rocAuc([0, 0], [0.1, 0.5]), null);
    assert.equal(averagePrecision([0, 0], [0.1, 0.5]), null);
    assert.equal(breakEvenPoint([0, 0], [0.1, 0.5]), null);
    assert.equal(breakEvenPoint([1, 1], [0.1, 0.5]), 1);
  });

  test("non-finite scores are refused, as scikit-learn does", () => {
    assert.throws(() => rocAuc([0, 1], [0.1, NaN]), RangeError);
    assert.throws(() => rocAuc([0, 1], [0.1, Infinity]), RangeError);
  });

  test("positiveLabel picks the positive class among several codes", () => {
    const y = [2, 0, 2, 1];
    const s = [0.9, 0.8, 0.7, 0.1];
    assertClose(rocAuc(y, s, { positiveLabel: 2 }), 0.75, 1e-15, "auc for label 2");
    const c = thresholdCounts(y, s, { positiveLabel: 2 });
    assert.deepEqual([Array.from(c.tps), Array.from(c.fps)], [[1, 1, 2, 2], [0, 1, 1, 2]]);
  });

  test("the weighted and unweighted paths agree under unit weights, tied scores included", () => {
    const y = [1, 0, 1, 1, 0, 0, 1, 0];
    const s = [0.5, 0.5, 0.2, 0.9, 0.2, 0.1, 0.5, 0.7];
    const plain = rocCurve(y, s);
    const weighted = rocCurve(y, s, { weights: new Float64Array(8).fill(1) });
    assert.deepEqual(weighted, plain);
  });

  test("ROC starts at (0, 0) with threshold max + 1, as scikit-learn 1.2", () => {
    const r = rocCurve([0, 1], [0.25, 0.75]);
    assert.deepEqual([Array.from(r.fpr), Array.from(r.tpr), Array.from(r.thresholds)], [[0, 0, 1], [0, 1, 1], [1.75, 0.75, 0.25]]);
  });

  test("trapezoidArea accepts decreasing x and refuses non-monotone x", () => {
    assert.equal(trapezoidArea([1, 0], [1, 1]), 1);
    assert.throws(() => trapezoidArea([0, 1, 0.5], [0, 1, 1]), RangeError);
  });
});

describe("multi-label and clustering edge cases", () => {
  test("hamming loss by hand: 2 wrong cells out of 6", () => {
    assertClose(hammingLoss([1, 0, 1, 0, 1, 1], [1, 1, 1, 0, 0, 1], 3), 2 / 6, 1e-15, "hamming");
  });

  test("label ranking loss counts ties as mis-ordered", () => {
    assert.equal(labelRankingLoss([1, 0], [0.5, 0.5], 2), 1);
    assert.equal(labelRankingLoss([1, 0], [0.6, 0.5], 2), 0);
    assert.throws(() => labelRankingLoss([1, 0, 1], [0.6, 0.5, 0.1], 2), RangeError);
  });

  test("pair counts sum to m(m−1)/2; fewer than two points: RI 1, ARI 1", () => {
    const p = pairCounts([0, 0, 1, 1, 2], [0, 1, 1, 2, 2]);
    assert.equal(p.a + p.b + p.c + p.d, 10);
    const single = pairCounts([3], [4]);
    assert.deepEqual([randIndex(single), adjustedRandIndex(single)], [1, 1]);
  });
});
