/** Shared by the data tests: fixtures and DataError assertions. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DataError } from "../../src/data/errors.js";
import type { Column, Frame } from "../../src/data/frame.js";

export function fixture(name: string): Buffer {
  return readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
}

/** Asserts fn throws a DataError at `path` whose message contains every fragment. */
export function throwsDataError(fn: () => unknown, path: string | undefined, ...fragments: string[]): DataError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof DataError, `expected a DataError, got ${String(caught)}`);
  assert.equal(caught.path, path, `path of "${caught.message}"`);
  for (const f of fragments) assert.ok(caught.message.includes(f), `"${caught.message}" should mention ${f}`);
  return caught;
}

/** Calls fn and rethrows anything that is not a DataError (for "never throws anything else" properties). */
export function onlyDataErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof DataError)) throw e;
    assert.ok(e.message.length > 0);
  }
}

export function column(frame: Frame, name: string): Column {
  const c = frame.columns.find((col) => col.name === name);
  assert.ok(c, `no column ${name}`);
  return c;
}

export function numeric(frame: Frame, name: string): Float64Array {
  const c = column(frame, name);
  assert.equal(c.type, "numeric", `${name} should be numeric`);
  return c.type === "numeric" ? c.values : new Float64Array();
}

/** Cell texts of a categorical column, null where missing. */
export function texts(frame: Frame, name: string): (string | null)[] {
  const c = column(frame, name);
  assert.equal(c.type, "categorical", `${name} should be categorical`);
  if (c.type !== "categorical") return [];
  return Array.from(c.codes, (k) => (k === -1 ? null : c.levels[k]));
}
