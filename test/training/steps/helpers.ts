/** Shared by the step tests: fitting a step the way the pipeline does, and comparing projections up to sign. */
import assert from "node:assert/strict";
import type { Frame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import type { Target } from "../../../src/models/contract.js";
import { STEP_REGISTRY } from "../../../src/training/steps.js";

export function fitStep(name: string, frame: Frame, options: Record<string, unknown>, target: Target | null = null, seed = 0): { fitted: unknown; out: Frame; apply: (f: Frame) => Frame } {
  const step = STEP_REGISTRY[name];
  const spec = step.spec.parse(options);
  const fitted = step.fit(frame, spec, { target, rng: createRng(seed) });
  return { fitted, out: step.apply(fitted, frame), apply: (f) => step.apply(fitted, f) };
}

/** actual ≈ ±expected (one sign for the whole vector). */
export function assertCloseUpToSign(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number, label: string): void {
  assert.equal(actual.length, expected.length, label);
  let dot = 0;
  for (let i = 0; i < expected.length; i++) dot += actual[i] * expected[i];
  const s = dot < 0 ? -1 : 1;
  for (let i = 0; i < expected.length; i++) {
    assert.ok(Math.abs(s * actual[i] - expected[i]) <= tol * (1 + Math.abs(expected[i])), `${label}[${i}]: ${s * actual[i]} ≠ ${expected[i]}`);
  }
}

export function classTarget(codes: ArrayLike<number>, classes: readonly string[]): Target {
  return { task: "classification", y: Int32Array.from(codes), classes };
}
