/**
 * ROC (both drop_intermediate settings), ROC AUC, P-R curve, average precision and
 * one-vs-rest AUC against scikit-learn 1.2 (test/fixtures/evaluation/metrics.json).
 */
import { describe, test } from "node:test";
import { averagePrecision, oneVsRestAuc, precisionRecallCurve, rocAuc, rocCurve } from "../../../src/evaluation/index.js";
import type { MetricsFixture } from "../fixture-types.js";
import { assertAllClose, assertClose, f64, i32, loadFixture, optionalF64 } from "../helpers.js";

const fx = loadFixture<MetricsFixture>("metrics.json");
const TOL = 1e-10;

describe("score curves against scikit-learn", () => {
  test("roc_curve with drop_intermediate true (default) and false", () => {
    fx.ranking.forEach((c, i) => {
      const weights = optionalF64(c.weights);
      const kept = rocCurve(i32(c.y_true), f64(c.scores), { weights });
      for (const key of ["fpr", "tpr", "thresholds"] as const) assertAllClose(kept[key], c.expected.roc[key], TOL, `case ${i} ${key}`);
      const all = rocCurve(i32(c.y_true), f64(c.scores), { weights, dropIntermediate: false });
      for (const key of ["fpr", "tpr", "thresholds"] as const) assertAllClose(all[key], c.expected.roc_all[key], TOL, `case ${i} all ${key}`);
    });
  });

  test("roc_auc_score", () => {
    fx.ranking.forEach((c, i) => {
      assertClose(rocAuc(i32(c.y_true), f64(c.scores), { weights: optionalF64(c.weights) }), c.expected.auc, TOL, `case ${i}`);
    });
  });

  test("precision_recall_curve and average_precision_score", () => {
    fx.ranking.forEach((c, i) => {
      const weights = optionalF64(c.weights);
      const pr = precisionRecallCurve(i32(c.y_true), f64(c.scores), { weights });
      for (const key of ["precision", "recall", "thresholds"] as const) assertAllClose(pr[key], c.expected.pr[key], TOL, `case ${i} ${key}`);
      assertClose(averagePrecision(i32(c.y_true), f64(c.scores), { weights }), c.expected.average_precision, TOL, `case ${i} ap`);
    });
  });

  test("one-vs-rest AUC per class and macro", () => {
    fx.ovr_auc.forEach((c, i) => {
      const r = oneVsRestAuc(i32(c.y_true), f64(c.proba), c.n_classes, optionalF64(c.weights));
      assertAllClose(r.per_class, c.expected.per_class, TOL, `case ${i} per class`);
      assertClose(r.macro, c.expected.macro, TOL, `case ${i} macro`);
    });
  });
});
