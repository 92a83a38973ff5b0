/**
 * Straight-from-the-book reference computations for the Bayes tests, on rows of strings:
 * counting by filtering, no tables, no logs — slow and obviously right.
 */
import type { Frame } from "../../../src/data/frame.js";

export type Row = readonly string[];

/** A categorical frame (and class column) as rows of strings. */
export function rowsOf(X: Frame, y: Int32Array, classes: readonly string[]): { rows: Row[]; labels: string[] } {
  const rows = Array.from({ length: X.rowCount }, (_, i) => X.columns.map((c) => (c.type === "categorical" ? c.levels[c.codes[i]] : String(c.values[i]))));
  return { rows, labels: Array.from(y, (k) => classes[k]) };
}

export function levelsOf(X: Frame): number[] {
  return X.columns.map((c) => (c.type === "categorical" ? c.levels.length : 0));
}

/** |D_{c, x_i = a, x_j = b}| and friends: rows of class c matching every given (attribute, value). */
export function count(rows: Row[], labels: string[], c: string | null, where: [number, string][]): number {
  let n = 0;
  for (let r = 0; r < rows.length; r++) if ((c === null || labels[r] === c) && where.every(([j, v]) => rows[r][j] === v)) n++;
  return n;
}

/** The book's eq. 7.23 with its Laplace-corrected estimates, super-parents limited to `parents`, normalised over classes. */
export function aodeReference(rows: Row[], labels: string[], levels: number[], classes: readonly string[], x: Row, parents: number[]): number[] {
  const D = rows.length;
  const N = classes.length;
  const scores = classes.map((c) => {
    let sum = 0;
    for (const i of parents) {
      let term = (count(rows, labels, c, [[i, x[i]]]) + 1) / (D + N * levels[i]);
      for (let j = 0; j < x.length; j++) {
        if (j === i) continue;
        term *= (count(rows, labels, c, [[i, x[i]], [j, x[j]]]) + 1) / (count(rows, labels, c, [[i, x[i]]]) + levels[j]);
      }
      sum += term;
    }
    return sum;
  });
  const total = scores.reduce((a, b) => a + b, 0);
  return scores.map((s) => s / total);
}

/** I(x_i; x_j | y) in nats from the empirical distribution of the rows. */
export function cmiReference(rows: Row[], labels: string[], classes: readonly string[], i: number, j: number): number {
  const D = rows.length;
  const values = (a: number) => [...new Set(rows.map((r) => r[a]))];
  let cmi = 0;
  for (const c of classes) {
    const nc = count(rows, labels, c, []);
    for (const a of values(i)) {
      for (const b of values(j)) {
        const nab = count(rows, labels, c, [
          [i, a],
          [j, b],
        ]);
        if (nab === 0) continue;
        cmi += (nab / D) * Math.log((nab * nc) / (count(rows, labels, c, [[i, a]]) * count(rows, labels, c, [[j, b]])));
      }
    }
  }
  return cmi;
}
