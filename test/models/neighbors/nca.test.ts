/**
 * NCA: the gradient is the derivative of the objective (central differences), the
 * fit raises the expected leave-one-out accuracy from its start, and kNN after the
 * `nca` step scores within 0.02 of scikit-learn's NeighborhoodComponentsAnalysis +
 * KNeighborsClassifier (fixture from scripts/fixtures/knn_sklearn.py; both standardise,
 * start from the principal directions, 50 iterations at most, 3 neighbours).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fitNca, ncaObjective } from "../../../src/models/neighbors/nca.js";
import { knn } from "../../../src/models/neighbors/knn.js";
import { fitPipeline, predictPipeline, resolveSteps } from "../../../src/training/pipeline.js";
import { accuracy, ctx, fixturePath, realData } from "../tree/fixtures.js";

function problem(n: number, d: number, seed: number): { X: Float64Array; y: Int32Array } {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const y = Int32Array.from({ length: n }, (_, i) => i % 3);
  const X = Float64Array.from({ length: n * d }, (_, k) => next() + (k % d === 0 ? y[Math.floor(k / d)] : 0));
  return { X, y };
}

test("the gradient of NCA's objective matches central differences", () => {
  const { X, y } = problem(25, 4, 7);
  const c = 3;
  const objective = ncaObjective(X, 25, 4, y, c);
  const A = Float64Array.from({ length: c * 4 }, (_, k) => 0.3 * Math.sin(k + 1));
  const grad = new Float64Array(c * 4);
  objective.valueAndGradient(A, grad);
  const scratch = new Float64Array(c * 4);
  for (let k = 0; k < A.length; k++) {
    const h = 1e-6;
    const plus = Float64Array.from(A);
    const minus = Float64Array.from(A);
    plus[k] += h;
    minus[k] -= h;
    const numeric = (objective.valueAndGradient(plus, scratch) - objective.valueAndGradient(minus, scratch)) / (2 * h);
    assert.ok(Math.abs(numeric - grad[k]) <= 1e-6 * (1 + Math.abs(numeric)), `∂/∂A[${k}]: ${grad[k]} vs ${numeric}`);
  }
});

test("fitting raises the expected leave-one-out accuracy above the identity's", () => {
  const { X, y } = problem(60, 5, 3);
  const start = -ncaObjective(X, 60, 5, y, 5).valueAndGradient(Float64Array.from({ length: 25 }, (_, k) => (k % 6 === 0 ? 1 : 0)), new Float64Array(25)) / 60;
  const fitted = fitNca(X, 60, 5, y, { components: 5, init: "identity", maxIter: 50, tol: 1e-5 });
  assert.ok(fitted.score > start + 0.05, `${fitted.score} vs ${start}`);
});

const reference = JSON.parse(readFileSync(fixturePath("knn/knn-sklearn.json"), "utf8")).nca as Record<string, { accuracy: number; n_components: number }>;

for (const [name, sk] of Object.entries(reference)) {
  test(`scale + nca(${sk.n_components}) + knn(3) on ${name}: accuracy within 0.02 of scikit-learn's (${sk.accuracy.toFixed(4)})`, () => {
    const real = realData(name as "iris");
    const steps = resolveSteps([{ step: "scale" }, { step: "nca", n_components: sk.n_components }]);
    const pipeline = fitPipeline(knn, knn.params.parse({ n_neighbors: 3 }), steps, real.train, ctx(0));
    const pred = predictPipeline(knn, pipeline, real.testX);
    if (pred.task !== "classification" || real.testTarget.task !== "classification") return assert.fail();
    const mine = accuracy(pred.labels, real.testTarget.y);
    assert.ok(Math.abs(mine - sk.accuracy) <= 0.02 + 1e-12, `${name}: ${mine} vs scikit-learn ${sk.accuracy}`);
    // No automatic scale after nca: the learned metric is used as learned.
    assert.ok(!pipeline.steps.slice(2).some((s) => s.step === "scale"), pipeline.steps.map((s) => s.step).join(", "));
  });
}
