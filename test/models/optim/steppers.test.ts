import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createStepper, STEPPER_KINDS, type StepperKind, type StepperOptions } from "../../../src/models/optim/steppers.js";

// f(x) = ½ xᵀAx − bᵀx with an elongated SPD A (condition number 10); minimiser A⁻¹b = (1, −2, 0.5).
const A = [
  [4, 1, 0],
  [1, 3, 0.5],
  [0, 0.5, 0.6],
];
const xStar = [1, -2, 0.5];
const b = A.map((row) => row.reduce((s, a, j) => s + a * xStar[j], 0));

function gradient(x: Float64Array, g: Float64Array): void {
  for (let i = 0; i < 3; i++) {
    let s = -b[i];
    for (let j = 0; j < 3; j++) s += A[i][j] * x[j];
    g[i] = s;
  }
}

const settings: Record<StepperKind, { options: StepperOptions; steps: number }> = {
  sgd: { options: { learningRate: 0.2 }, steps: 400 },
  momentum: { options: { learningRate: 0.05, momentum: 0.9 }, steps: 600 },
  nesterov: { options: { learningRate: 0.05, momentum: 0.9 }, steps: 600 },
  adagrad: { options: { learningRate: 0.5 }, steps: 4000 },
  rmsprop: { options: { learningRate: 0.002, rho: 0.9 }, steps: 6000 },
  adam: { options: { learningRate: 0.02 }, steps: 6000 },
};

describe("steppers minimise a convex quadratic", () => {
  for (const kind of STEPPER_KINDS) {
    test(kind, () => {
      const { options, steps } = settings[kind];
      const stepper = createStepper(kind, 3, options);
      const x = new Float64Array([5, 5, -5]);
      const g = new Float64Array(3);
      for (let t = 0; t < steps; t++) {
        gradient(x, g);
        stepper.step(x, g);
      }
      for (let i = 0; i < 3; i++) assert.ok(Math.abs(x[i] - xStar[i]) < 1e-3, `${kind}: x[${i}] = ${x[i]}, expected ${xStar[i]}`);
    });
  }
});

describe("steppers' first steps match the textbook rules", () => {
  const g = new Float64Array([2, -4]);
  const run = (kind: StepperKind, options: StepperOptions, steps: number): number[] => {
    const s = createStepper(kind, 2, options);
    const x = new Float64Array([1, 1]);
    for (let t = 0; t < steps; t++) s.step(x, g);
    return [...x];
  };
  const close = (a: number[], e: number[]): void => a.forEach((v, i) => assert.ok(Math.abs(v - e[i]) < 1e-12, `${a} vs ${e}`));

  test("sgd: x − ηg", () => close(run("sgd", { learningRate: 0.1 }, 1), [0.8, 1.4]));
  test("momentum: two steps accumulate μ", () => {
    // v1 = −ηg, v2 = μv1 − ηg → x2 = x0 − ηg(2 + μ)
    close(run("momentum", { learningRate: 0.1, momentum: 0.5 }, 2), [1 - 0.1 * 2 * 2.5, 1 + 0.1 * 4 * 2.5]);
  });
  test("nesterov: first step is (1+μ) times a plain step", () => {
    close(run("nesterov", { learningRate: 0.1, momentum: 0.5 }, 1), [1 - 0.1 * 2 * 1.5, 1 + 0.1 * 4 * 1.5]);
  });
  test("adagrad / rmsprop / adam: first step has size η per coordinate", () => {
    close(run("adagrad", { learningRate: 0.1, epsilon: 0 }, 1), [0.9, 1.1]);
    // rmsprop: √((1−ρ)g²) = √0.1·|g| → step η/√0.1
    const r = 0.1 / Math.sqrt(0.1);
    close(run("rmsprop", { learningRate: 0.1, rho: 0.9, epsilon: 0 }, 1), [1 - r, 1 + r]);
    close(run("adam", { learningRate: 0.1, epsilon: 0 }, 1), [0.9, 1.1]);
  });
  test("rejects a non-positive learning rate", () => {
    assert.throws(() => createStepper("sgd", 2, { learningRate: 0 }));
  });
});
