/** Shared test scaffolding for the linear models: fixtures, frames, contexts, round trips. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Frame } from "../../../src/data/frame.js";
import { makeFrame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import type { Algorithm, FitContext, TrainingSet } from "../../../src/models/contract.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";

export function fixture<T>(name: string): T {
  const path = fileURLToPath(new URL(`../../fixtures/linear/${name}`, import.meta.url));
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

export function frame(features: readonly string[], rows: readonly (readonly number[])[]): Frame {
  return makeFrame(features.map((name, j) => ({ type: "numeric" as const, name, values: Float64Array.from(rows, (r) => r[j]) })));
}

export function names(p: number): string[] {
  return Array.from({ length: p }, (_, j) => `x${j}`);
}

export function regressionSet(X: Frame, y: ArrayLike<number>, weights?: ArrayLike<number>): TrainingSet {
  return { X, target: { task: "regression", y: Float64Array.from(y) }, weights: weights ? Float64Array.from(weights) : undefined };
}

export function classificationSet(X: Frame, y: ArrayLike<number>, classes?: readonly string[]): TrainingSet {
  const labels = Int32Array.from(y);
  const k = classes ?? Array.from({ length: Math.max(...labels) + 1 }, (_, c) => String(c));
  return { X, target: { task: "classification", y: labels, classes: k } };
}

export function ctx(seed = 1): FitContext {
  return { rng: createRng(seed), progress: () => {} };
}

/** state → encodeState → JSON text → decodeState → the algorithm's own schema. */
export function roundTrip<S>(algorithm: Algorithm<unknown, S>, state: S): S {
  const text = JSON.stringify(encodeState(state));
  return algorithm.state.parse(decodeState(JSON.parse(text)));
}

export function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, relTol: number, absTol = 1e-12, label = ""): void {
  if (actual.length !== expected.length) throw new Error(`${label}: length ${actual.length} ≠ ${expected.length}`);
  let scale = 0;
  for (let i = 0; i < expected.length; i++) scale = Math.max(scale, Math.abs(expected[i]));
  for (let i = 0; i < expected.length; i++) {
    const diff = Math.abs(actual[i] - expected[i]);
    if (diff > relTol * scale + absTol) throw new Error(`${label}[${i}]: ${actual[i]} vs ${expected[i]} (diff ${diff}, allowed ${relTol * scale + absTol})`);
  }
}

export function accuracy(labels: Int32Array, y: ArrayLike<number>): number {
  let ok = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i] === y[i]) ok++;
  return ok / labels.length;
}
