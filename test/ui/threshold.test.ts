/** The threshold slider's arithmetic (ui/src/threshold.ts): a point of the ROC curve and the class totals give the confusion matrix. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { confusionAt } from "../../ui/src/threshold.js";

const binary = fc.record({ tn: fc.nat(200), fp: fc.nat(200), fn: fc.nat(200), tp: fc.nat(200), positiveFirst: fc.boolean() }).filter((m) => m.tn + m.fp > 0 && m.fn + m.tp > 0);

test("the rates of a confusion matrix give that matrix back, in the labels' order", () => {
  fc.assert(
    fc.property(binary, ({ tn, fp, fn, tp, positiveFirst }) => {
      const labels = positiveFirst ? ["yes", "no"] : ["no", "yes"];
      const matrix = positiveFirst ? [[tp, fn], [fp, tn]] : [[tn, fp], [fn, tp]];
      const at = confusionAt(labels, matrix, "yes", fp / (tn + fp), tp / (fn + tp));
      assert.deepEqual(at.matrix, matrix);
      assert.equal(at.metrics.accuracy, (tp + tn) / (tn + fp + fn + tp));
      assert.equal(at.metrics.recall, tp / (tp + fn));
      assert.equal(at.metrics.precision, tp + fp > 0 ? tp / (tp + fp) : null);
    }),
  );
});

test("any point of the curve keeps each class's total; the curve's ends predict all negative and all positive", () => {
  fc.assert(
    fc.property(binary, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), ({ tn, fp, fn, tp }, fpr, tpr) => {
      const matrix = [[tn, fp], [fn, tp]];
      const at = confusionAt(["no", "yes"], matrix, "yes", fpr, tpr);
      assert.equal(at.matrix[0][0] + at.matrix[0][1], tn + fp);
      assert.equal(at.matrix[1][0] + at.matrix[1][1], fn + tp);
      assert.ok(at.matrix.flat().every((n) => Number.isInteger(n) && n >= 0));
    }),
  );
  const start = confusionAt(["no", "yes"], [[3, 1], [2, 4]], "yes", 0, 0);
  assert.deepEqual(start.matrix, [[4, 0], [6, 0]]);
  assert.equal(start.metrics.precision, null);
  const end = confusionAt(["no", "yes"], [[3, 1], [2, 4]], "yes", 1, 1);
  assert.deepEqual(end.matrix, [[0, 4], [0, 6]]);
  assert.equal(end.metrics.specificity, 0);
});
