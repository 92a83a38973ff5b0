import { makeFrame, type Frame } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import type { FitContext } from "../../../src/models/contract.js";

/** Rows (arrays of numbers) as a numeric frame x1 … xp. */
export function frameOfRows(rows: readonly (readonly number[])[]): Frame {
  const p = rows[0].length;
  return makeFrame(Array.from({ length: p }, (_, j) => ({ type: "numeric" as const, name: `x${j + 1}`, values: Float64Array.from(rows, (r) => r[j]) })));
}

export const ctx = (seed = 1): FitContext => ({ rng: createRng(seed), progress: () => {} });
