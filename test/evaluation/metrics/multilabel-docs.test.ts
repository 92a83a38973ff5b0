/**
 * Multi-label losses against scikit-learn's documented examples (the docstrings of
 * sklearn.metrics.hamming_loss and label_ranking_loss) and seed 004's definitions:
 * the "Hamming Score" is the share of wrong (sample, label) cells, the label ranking
 * score the share of mis-ordered (relevant, irrelevant) pairs per sample.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { hammingLoss, labelRankingLoss } from "../../../src/evaluation/index.js";

test("hamming_loss(np.array([[0, 1], [1, 1]]), np.zeros((2, 2))) = 0.75", () => {
  assert.equal(hammingLoss([0, 1, 1, 1], [0, 0, 0, 0], 2), 0.75);
});

test("label_ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]]) = 0.75, then 0 after a fix", () => {
  assert.equal(labelRankingLoss([1, 0, 0, 0, 0, 1], [0.75, 0.5, 1, 1, 0.2, 0.1], 3), 0.75);
  // The docstring's second call: y_score [[1.0, 0.1, 0.2], [0.1, 0.2, 0.9]] orders every pair rightly.
  assert.equal(labelRankingLoss([1, 0, 0, 0, 0, 1], [1.0, 0.1, 0.2, 0.1, 0.2, 0.9], 3), 0);
});
