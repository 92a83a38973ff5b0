/**
 * perceptron partial_fit: one more pass over the given rows, continuing from the state. The hand
 * trace of AND (perceptron.test.ts) continues by one epoch; and for any data, classes and
 * multiclass strategy, partial_fit on the training rows after a fit of k epochs is the fit of
 * k + 1 epochs (in order, no shuffle) — the state is continued, not restarted.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { isMulticlassPerceptron, perceptron, type PerceptronState } from "../../../src/models/linear/perceptron.js";
import { classificationSet, ctx, frame, roundTrip } from "./helpers.js";

const X = frame(["a", "b"], [[0, 0], [0, 1], [1, 0], [1, 1]]);

function weights(s: PerceptronState): number[] {
  if (!isMulticlassPerceptron(s)) return [...s.coef, s.threshold];
  return s.model.models.flatMap((m) => [...m.coef, m.threshold]);
}

describe("perceptron partial_fit", () => {
  test("AND in order from the hand trace: after 2 epochs (2,1; 1), one partial pass gives epoch 3's (2,1; 2)", () => {
    const p = perceptron.params.parse({ shuffle: false, max_iter: 2 });
    const set = classificationSet(X, [0, 0, 0, 1]);
    const two = perceptron.fit(set, p, ctx());
    assert.deepEqual(weights(two), [2, 1, 1]);
    const three = perceptron.partialFit!(two, set, p, ctx());
    assert.deepEqual(weights(three), [2, 1, 2]);
    assert.deepEqual(weights(two), [2, 1, 1], "the old state is not modified");
    assert.ok(!isMulticlassPerceptron(three));
    assert.equal(three.diagnostics.iterations, 3);
  });

  test("partial_fit after k epochs = the fit of k + 1 epochs, for 2–4 classes and every multiclass strategy", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }),
        fc.array(fc.tuple(fc.integer({ min: -5, max: 5 }), fc.integer({ min: -5, max: 5 })), { minLength: 8, maxLength: 24 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom("ovr", "ovo", "ecoc"),
        (k, rows, epochs, multiclass) => {
          const set = classificationSet(frame(["a", "b"], rows), rows.map((_, i) => i % k));
          const options = { shuffle: false, multiclass, ...(multiclass === "ecoc" ? { code_matrix: "exhaustive" } : {}) };
          const before = perceptron.fit(set, perceptron.params.parse({ ...options, max_iter: epochs }), ctx(3));
          const continued = perceptron.partialFit!(roundTrip(perceptron, before), set, perceptron.params.parse({ ...options, max_iter: epochs }), ctx(9));
          const longer = perceptron.fit(set, perceptron.params.parse({ ...options, max_iter: epochs + 1 }), ctx(3));
          assert.deepEqual(weights(continued), weights(longer));
        },
      ),
      { numRuns: 80 },
    );
  });

  test("rows of one class only update the binary models that class belongs to (one-vs-one)", () => {
    const rows = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 2], [2, 0]];
    const set = classificationSet(frame(["a", "b"], rows), [0, 1, 2, 0, 1, 2]);
    const p = perceptron.params.parse({ shuffle: false, multiclass: "ovo", max_iter: 1 });
    const s = perceptron.fit(set, p, ctx());
    assert.ok(isMulticlassPerceptron(s));
    // A class-2 row the model gets wrong on every problem it is part of.
    const next = perceptron.partialFit!(s, classificationSet(frame(["a", "b"], [[-9, -9], [9, 9]]), [2, 2], ["0", "1", "2"]), p, ctx());
    assert.ok(isMulticlassPerceptron(next));
    const code = s.model.code;
    s.model.models.forEach((m, j) => {
      const touched = code[2 * s.model.models.length + j] !== 0;
      if (!touched) assert.deepEqual(next.model.models[j], m, `problem ${j} has no class-2 rows`);
    });
  });
});
