/**
 * Every metric against scikit-learn 1.2 on the random cases of
 * test/fixtures/evaluation/metrics.json (scripts/fixtures/evaluation_metrics.py).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  adjustedRandIndex,
  binaryCounts,
  binaryMetrics,
  confusionMatrix,
  daviesBouldinScore,
  dunnIndex,
  fowlkesMallowsIndex,
  hammingLoss,
  jaccardIndex,
  labelRankingLoss,
  logLoss,
  multiclassMetrics,
  pairCounts,
  perClassScores,
  randIndex,
  regressionMetrics,
  silhouetteScore,
  normalizedMutualInfo,
  calinskiHarabaszScore,
} from "../../../src/evaluation/index.js";
import type { MetricsFixture } from "../fixture-types.js";
import { assertAllClose, assertClose, f64, i32, loadFixture, optionalF64 } from "../helpers.js";

const fx = loadFixture<MetricsFixture>("metrics.json");
const TOL = 1e-10;

describe(`metrics against scikit-learn ${fx.sklearn}`, () => {
  test("fixture has at least 20 cases of every kind", () => {
    for (const [name, cases] of Object.entries(fx)) if (Array.isArray(cases)) assert.ok(cases.length >= 20, name);
  });

  test("regression: mse, rmse, mae, r2 (weighted and not)", () => {
    fx.regression.forEach((c, i) => {
      const m = regressionMetrics(f64(c.y_true), f64(c.y_pred), optionalF64(c.weights));
      for (const key of ["mse", "rmse", "mae", "r2"] as const) assertClose(m[key], c.expected[key], TOL, `case ${i} ${key}`);
    });
  });

  test("binary: confusion, accuracy, precision, recall, f1, fbeta, specificity", () => {
    fx.binary.forEach((c, i) => {
      const conf = confusionMatrix(i32(c.y_true), i32(c.y_pred), 2, optionalF64(c.weights));
      assertAllClose(conf.matrix, c.expected.confusion_matrix, TOL, `case ${i} confusion`);
      const m = binaryMetrics(binaryCounts(conf, 1), c.beta);
      for (const key of ["accuracy", "precision", "recall", "f1", "fbeta", "specificity"] as const) {
        assertClose(m[key], c.expected[key], TOL, `case ${i} ${key}`);
      }
      assert.equal(m.sensitivity, m.recall);
      assertClose(m.error_rate, 1 - (c.expected.accuracy as number), TOL, `case ${i} error_rate`);
    });
  });

  test("multiclass: per class, macro (scikit-learn's), micro, accuracy, confusion matrix", () => {
    fx.multiclass.forEach((c, i) => {
      const conf = confusionMatrix(i32(c.y_true), i32(c.y_pred), c.n_classes, optionalF64(c.weights));
      assertAllClose(conf.matrix, c.expected.confusion_matrix, TOL, `case ${i} confusion`);
      const per = perClassScores(conf);
      for (const key of ["precision", "recall", "f1", "support"] as const) {
        assertAllClose(per.map((p) => p[key]), c.expected[key], TOL, `case ${i} per-class ${key}`);
      }
      const m = multiclassMetrics(conf);
      for (const key of ["accuracy", "macro_precision", "macro_recall", "macro_f1_mean", "micro_precision", "micro_recall", "micro_f1"] as const) {
        assertClose(m[key], c.expected[key], TOL, `case ${i} ${key}`);
      }
      const mp = c.expected.macro_precision as number;
      const mr = c.expected.macro_recall as number;
      assertClose(m.macro_f1, mp + mr === 0 ? 0 : (2 * mp * mr) / (mp + mr), TOL, `case ${i} macro_f1 (seed)`);
    });
  });

  test("log_loss with clipping and renormalisation", () => {
    fx.log_loss.forEach((c, i) => {
      assertClose(logLoss(i32(c.y_true), f64(c.proba), c.n_classes, optionalF64(c.weights)), c.expected, TOL, `case ${i}`);
    });
  });

  test("multi-label: hamming loss and label ranking loss", () => {
    fx.multilabel.forEach((c, i) => {
      const w = optionalF64(c.weights);
      assertClose(hammingLoss(i32(c.y_true), i32(c.y_pred), c.n_labels, w), c.expected.hamming_loss, TOL, `case ${i} hamming`);
      assertClose(labelRankingLoss(i32(c.y_true), f64(c.scores), c.n_labels, w), c.expected.label_ranking_loss, TOL, `case ${i} ranking`);
    });
  });

  test("clustering, external: pair counts, jaccard, fowlkes_mallows, rand_index, adjusted_rand_index, normalized_mutual_info", () => {
    fx.clustering_external.forEach((c, i) => {
      const p = pairCounts(i32(c.reference), i32(c.labels));
      for (const key of ["a", "b", "c", "d"] as const) assert.equal(p[key], c.expected[key], `case ${i} ${key}`);
      assertClose(jaccardIndex(p), c.expected.jaccard, TOL, `case ${i} jaccard`);
      assertClose(fowlkesMallowsIndex(p), c.expected.fowlkes_mallows, TOL, `case ${i} fm`);
      assertClose(randIndex(p), c.expected.rand_index, TOL, `case ${i} rand`);
      assertClose(adjustedRandIndex(p), c.expected.adjusted_rand_index, TOL, `case ${i} ari`);
      assertClose(normalizedMutualInfo(i32(c.reference), i32(c.labels)), c.expected.normalized_mutual_info, TOL, `case ${i} nmi`);
    });
  });

  test("clustering, internal: silhouette, davies_bouldin (both scatters), dunn, calinski_harabasz", () => {
    fx.clustering_internal.forEach((c, i) => {
      const points = { X: f64(c.X), nFeatures: c.n_features };
      const labels = i32(c.labels);
      assertClose(silhouetteScore(points, labels), c.expected.silhouette, 1e-9, `case ${i} silhouette`);
      assertClose(daviesBouldinScore(points, labels), c.expected.davies_bouldin, 1e-9, `case ${i} db`);
      assertClose(daviesBouldinScore(points, labels, { scatter: "pairwise" }), c.expected.davies_bouldin_pairwise, 1e-9, `case ${i} db pairwise`);
      assertClose(dunnIndex(points, labels), c.expected.dunn, 1e-9, `case ${i} dunn`);
      assertClose(calinskiHarabaszScore(points, labels), c.expected.calinski_harabasz, 1e-9, `case ${i} calinski_harabasz`);
    });
  });
});
