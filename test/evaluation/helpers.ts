/** Shared by the evaluation tests: fixture loading and float comparison. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

export function loadFixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/evaluation/${name}`, import.meta.url), "utf8")) as T;
}

/** |a − e| ≤ tol·max(1, |e|); null only equals null. */
export function assertClose(actual: number | null | undefined, expected: number | null, tol: number, message: string): void {
  if (expected === null || actual === null || actual === undefined) {
    assert.equal(actual, expected, message);
    return;
  }
  assert.ok(
    Math.abs(actual - expected) <= tol * Math.max(1, Math.abs(expected)),
    `${message}: got ${actual}, expected ${expected}`,
  );
}

export function assertAllClose(actual: ArrayLike<number | null>, expected: readonly (number | null)[], tol: number, message: string): void {
  assert.equal(actual.length, expected.length, `${message}: length`);
  for (let i = 0; i < expected.length; i++) assertClose(actual[i], expected[i], tol, `${message}[${i}]`);
}

export const i32 = (a: readonly number[]): Int32Array => Int32Array.from(a);
export const f64 = (a: readonly number[]): Float64Array => Float64Array.from(a);
export const optionalF64 = (a: readonly number[] | null): Float64Array | undefined => (a === null ? undefined : Float64Array.from(a));
