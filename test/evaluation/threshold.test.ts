import { test } from "node:test";
import assert from "node:assert/strict";
import { applyDecisionThreshold, rescaledThreshold } from "../../src/evaluation/index.js";
import { f64 } from "./helpers.js";

const proba = f64([0.9, 0.1, 0.6, 0.4, 0.5, 0.5, 0.75, 0.25]); // P(class 1) = 0.1, 0.4, 0.5, 0.25

test("a numeric threshold: positive strictly above it (the seed's y > 0.5)", () => {
  assert.deepEqual(Array.from(applyDecisionThreshold(proba, 1, 0.5)), [0, 0, 0, 0]);
  assert.deepEqual(Array.from(applyDecisionThreshold(proba, 1, 0.2)), [0, 1, 1, 1]);
  assert.deepEqual(Array.from(applyDecisionThreshold(proba, 0, 0.7)), [0, 1, 1, 0]);
});

test('"rescale": y/(1−y) > m⁺/m⁻, i.e. y > m⁺/(m⁺+m⁻)', () => {
  assert.equal(rescaledThreshold(20, 80), 0.2);
  // 20 positives, 80 negatives in training: P(class 1) = 0.25 now counts as positive
  assert.deepEqual(Array.from(applyDecisionThreshold(proba, 1, "rescale", { positives: 20, negatives: 80 })), [0, 1, 1, 1]);
  assert.throws(() => applyDecisionThreshold(proba, 1, "rescale"), RangeError);
  assert.throws(() => applyDecisionThreshold(proba, 1, 1.5), RangeError);
});
