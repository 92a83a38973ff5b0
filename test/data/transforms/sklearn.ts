/**
 * Reads the committed scikit-learn fixtures (test/fixtures/preprocessing/*.json,
 * written by scripts/fixtures/preprocessing_sklearn.py): null is NaN, the strings
 * "Infinity" / "-Infinity" are ±∞. Plus small helpers to build frames from their
 * row-major matrices and compare columns.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { makeFrame, type Column, type Frame } from "../../../src/data/frame.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";

export type Matrix = number[][];

function revive(value: unknown): unknown {
  if (value === null) return NaN;
  if (value === "Infinity") return Infinity;
  if (value === "-Infinity") return -Infinity;
  if (Array.isArray(value)) return value.map(revive);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, revive(v)]));
  return value;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function sklearnFixture(name: string): any {
  return revive(JSON.parse(readFileSync(new URL(`../../fixtures/preprocessing/${name}`, import.meta.url), "utf8")));
}

/** Numeric frame from a row-major matrix. */
export function frameOf(rows: Matrix, names: readonly string[]): Frame {
  return makeFrame(names.map((name, j): Column => ({ type: "numeric", name, values: Float64Array.from(rows, (r) => r[j]) })));
}

/** Column j of a row-major matrix. */
export function columnOf(rows: Matrix, j: number): number[] {
  return rows.map((r) => r[j]);
}

/** |a − b| ≤ atol + rtol·|b| element-wise; NaN matches NaN. */
export function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tol = 1e-9, label = ""): void {
  assert.equal(actual.length, expected.length, `${label}: length`);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i];
    const b = expected[i];
    if (Number.isNaN(b)) {
      assert.ok(Number.isNaN(a), `${label}[${i}]: ${a} should be NaN`);
      continue;
    }
    if (!Number.isFinite(b)) {
      assert.equal(a, b, `${label}[${i}]`);
      continue;
    }
    assert.ok(Math.abs(a - b) <= tol * (1 + Math.abs(b)), `${label}[${i}]: ${a} ≠ ${b} (tol ${tol})`);
  }
}

/** The numeric values of a frame's column. */
export function valuesOf(frame: Frame, name: string): Float64Array {
  const c = frame.columns.find((col) => col.name === name);
  assert.ok(c, `no column ${name}`);
  assert.equal(c.type, "numeric", `${name} should be numeric`);
  return c.type === "numeric" ? c.values : new Float64Array(0);
}

/** A fitted state as an artifact carries it: encode → JSON text → decode → the step's schema. */
export function throughArtifact<T>(schema: { parse(value: unknown): T }, fitted: T): T {
  return schema.parse(decodeState(JSON.parse(JSON.stringify(encodeState(fitted)))));
}

/** Two frames with the same columns and identical values (bit for bit, NaN included). */
export function assertSameFrame(actual: Frame, expected: Frame): void {
  assert.deepEqual(
    actual.columns.map((c) => `${c.name}:${c.type}`),
    expected.columns.map((c) => `${c.name}:${c.type}`),
  );
  actual.columns.forEach((c, j) => {
    const e = expected.columns[j];
    if (c.type === "numeric" && e.type === "numeric") assert.deepEqual(Array.from(c.values, (v) => Object.is(v, -0) ? 0 : v), Array.from(e.values, (v) => Object.is(v, -0) ? 0 : v), c.name);
    else if (c.type === "categorical" && e.type === "categorical") {
      assert.deepEqual([...c.levels], [...e.levels]);
      assert.deepEqual([...c.codes], [...e.codes]);
    }
  });
}
