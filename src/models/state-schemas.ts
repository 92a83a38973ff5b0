/**
 * zod building blocks for algorithm state schemas (what an artifact may contain),
 * and the structural checks every family's schema runs after its shape check.
 * An artifact is untrusted input: a state that passes its schema must predict in
 * time proportional to its size and give finite numbers, so each family checks
 * that its arrays have the lengths its declared shapes imply and that every
 * number predict reads is finite.
 */
import { z } from "zod";

export const f64 = z.instanceof(Float64Array);
export const i32 = z.instanceof(Int32Array);
export const u8 = z.instanceof(Uint8Array);

/** Most classes a model (and so an artifact) may have: each predicted row carries one probability per class. */
export const MAX_CLASSES = 10_000;

export const columnSchema = z.discriminatedUnion("type", [
  z.object({ name: z.string(), type: z.literal("numeric") }).strict(),
  z.object({ name: z.string(), type: z.literal("categorical"), levels: z.array(z.string()) }).strict(),
]);

/** A zod issue is about a non-finite number: the fit diverged or overflowed, rather than the state being malformed. */
export const NON_FINITE = "non_finite";

export type Check = (problem: string, path?: (string | number)[], nonFinite?: boolean) => void;

/** Wraps a per-family check as a zod refinement: `check(state, report)` reports the first problem it finds. */
export function structural<S>(check: (s: S, report: Check) => void) {
  return (s: S, ctx: z.RefinementCtx): void => {
    let reported = false;
    check(s, (problem, path = [], nonFinite = false) => {
      if (reported) return;
      reported = true;
      ctx.addIssue({ code: "custom", message: problem, path, ...(nonFinite ? { params: { [NON_FINITE]: true } } : {}) });
    });
  };
}

/** Index of the first NaN or ±Infinity in `a`, or -1. */
export function firstNonFinite(a: ArrayLike<number>): number {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return i;
  return -1;
}

/** Reports `name` when it has a non-finite entry; true when all are finite. */
export function checkFinite(a: ArrayLike<number>, name: string, report: Check): boolean {
  const i = firstNonFinite(a);
  if (i < 0) return true;
  report(`${name}[${i}] is ${a[i]}, not a finite number`, [name, i], true);
  return false;
}

/** Reports an array whose length is not `expected` (shapes are checked before anything is read or allocated). */
export function checkLength(a: ArrayLike<number>, expected: number, name: string, report: Check, shape = String(expected)): boolean {
  if (a.length === expected) return true;
  report(`${name} has ${a.length} entries where its shape (${shape}) needs ${expected}`, [name]);
  return false;
}

/** The first repeated string, or undefined. */
export function firstDuplicate(names: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** Feature or class names: unique (a lookup by name must be unambiguous). */
export function checkUnique(names: readonly string[], what: string, report: Check, path: (string | number)[]): boolean {
  const dup = firstDuplicate(names);
  if (dup === undefined) return true;
  report(`${what} "${dup}" appears twice`, path);
  return false;
}

/** Class names of a classifier's state: at least `min`, at most MAX_CLASSES, unique. */
export function checkClasses(classes: readonly string[], report: Check, min = 1, path: (string | number)[] = ["classes"]): boolean {
  if (classes.length < min) {
    report(`needs at least ${min} class(es), has ${classes.length}`, path);
    return false;
  }
  if (classes.length > MAX_CLASSES) {
    report(`has ${classes.length} classes; at most ${MAX_CLASSES} are supported`, path);
    return false;
  }
  return checkUnique(classes, "class", report, path);
}
