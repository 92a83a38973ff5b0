/** Shared by the Bayes tests: artifact round trip, probabilities of a prediction, one row of a table. */
import assert from "node:assert/strict";
import type { Frame } from "../../../src/data/frame.js";
import { takeRows } from "../../../src/data/frame.js";
import type { Algorithm, Prediction } from "../../../src/models/contract.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";

export function roundTrip<S>(algorithm: Algorithm<unknown, S>, state: S): S {
  return algorithm.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(state))))) as S;
}

export function probaOf(p: Prediction): Float64Array {
  assert.equal(p.task, "classification");
  if (p.task !== "classification" || !p.proba) throw new Error("probabilities expected");
  return p.proba;
}

export function labelsOf(p: Prediction): Int32Array {
  if (p.task !== "classification") throw new Error("classification expected");
  return p.labels;
}

export function row(X: Frame, i: number): Frame {
  return takeRows(X, [i]);
}

export function near(actual: number, expected: number, tol: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected}`);
}
