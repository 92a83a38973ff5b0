/**
 * The confusion matrix every classification metric is read from: rows are the actual
 * class, columns the predicted class (API.md), cells are summed sample weights.
 */
import { checkSameLength, weightAt, type Weights } from "../wire.js";

export interface Confusion {
  readonly nClasses: number;
  /** Row-major nClasses × nClasses, weighted counts. */
  readonly matrix: Float64Array;
  /**
   * 1 where the class occurs in yTrue or yPred. scikit-learn averages macro metrics over
   * exactly these labels (its labels=None), whatever their weight, so we keep them apart
   * from the weighted counts.
   */
  readonly present: Uint8Array;
}

export function confusionMatrix(yTrue: ArrayLike<number>, yPred: ArrayLike<number>, nClasses: number, weights?: Weights): Confusion {
  checkSameLength("yPred", yTrue.length, yPred);
  checkSameLength("weights", yTrue.length, weights);
  const matrix = new Float64Array(nClasses * nClasses);
  const present = new Uint8Array(nClasses);
  for (let i = 0; i < yTrue.length; i++) {
    const t = yTrue[i];
    const p = yPred[i];
    if (!isClassIndex(t, nClasses) || !isClassIndex(p, nClasses)) {
      throw new RangeError(`row ${i}: class index out of range [0, ${nClasses})`);
    }
    matrix[t * nClasses + p] += weightAt(weights, i);
    present[t] = 1;
    present[p] = 1;
  }
  return { nClasses, matrix, present };
}

/** Builds a Confusion from a count table given by hand (seed examples, stored evaluations). */
export function confusionFromMatrix(rows: readonly (readonly number[])[]): Confusion {
  const k = rows.length;
  const matrix = new Float64Array(k * k);
  const present = new Uint8Array(k);
  rows.forEach((row, i) => {
    if (row.length !== k) throw new RangeError("confusion matrix must be square");
    row.forEach((v, j) => {
      matrix[i * k + j] = v;
      if (v !== 0) {
        present[i] = 1;
        present[j] = 1;
      }
    });
  });
  return { nClasses: k, matrix, present };
}

export function confusionRows(c: Confusion): number[][] {
  const k = c.nClasses;
  const rows: number[][] = [];
  for (let i = 0; i < k; i++) rows.push(Array.from(c.matrix.subarray(i * k, (i + 1) * k)));
  return rows;
}

function isClassIndex(v: number, k: number): boolean {
  return Number.isInteger(v) && v >= 0 && v < k;
}
