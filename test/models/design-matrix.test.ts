/** rowMajor: the frame's values row by row (tiles of rows, any row count), and the first column with a missing value named. */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Frame } from "../../src/data/frame.js";
import { UnusableInputError } from "../../src/models/contract.js";
import { rowMajor } from "../../src/models/design-matrix.js";

const frame = (n: number, d: number, value: (i: number, j: number) => number): Frame => ({
  rowCount: n,
  columns: Array.from({ length: d }, (_, j) => ({ type: "numeric" as const, name: `x${j}`, values: Float64Array.from({ length: n }, (_, i) => value(i, j)) })),
});

test("row i, column j lands at i·d + j, for row counts below, at and past a tile", () => {
  for (const n of [0, 1, 511, 512, 513, 1500]) {
    const d = 3;
    const out = rowMajor(frame(n, d, (i, j) => i * 10 + j + 0.5));
    assert.equal(out.length, n * d);
    for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) assert.equal(out[i * d + j], i * 10 + j + 0.5, `n ${n}, row ${i}, column ${j}`);
  }
});

test("a missing value names the first such column in column order, wherever the rows are", () => {
  // Column x2 is missing at row 3, column x1 only at row 1200 (another tile): x1 is named, as the column-by-column copy did.
  const f = frame(1500, 3, (i, j) => ((j === 2 && i === 3) || (j === 1 && i === 1200) ? NaN : i));
  assert.throws(() => rowMajor(f), (e: unknown) => e instanceof UnusableInputError && /column x1 has missing values/.test(e.message));
});
