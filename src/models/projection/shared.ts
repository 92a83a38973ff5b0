/**
 * What the projection algorithms share: pca, mds, kernel_pca and isomap are fitted without
 * a target, lda_projection, nca_projection and lmnn_projection against classes; all name their outputs
 * `<prefix>1 … <prefix>d` (the columns POST /v1/models/{id}/transform writes), and explain
 * themselves within a value budget.
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { UnusableInputError, type Prediction, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { ValueBudget, maxValuesOf } from "../explain-bounds.js";

export function requireUnsupervised(train: TrainingSet, name: string): void {
  if (train.target) throw new UnusableInputError(`${name} is an unsupervised projection: train it without a target`);
  if (train.X.rowCount < 2) throw new UnusableInputError(`${name} needs at least two training rows`);
}

/** The numeric feature columns of a supervised projection's training set, with its classes. */
export function classesAndColumns(train: TrainingSet, name: string): { features: string[]; columns: Float64Array[]; y: Int32Array; classes: readonly string[] } {
  if (train.target?.task !== "classification") throw new UnusableInputError(`${name} is a supervised projection: train it with a categorical target (classes)`);
  const features = numericFeatureNames(train.X);
  if (features.length === 0) throw new UnusableInputError(`${name} needs at least one numeric feature`);
  const columns = features.map((_, j) => (train.X.columns[j] as { values: Float64Array }).values);
  return { features, columns, y: train.target.y, classes: train.target.classes };
}

export function outputNamesOf(prefix: string, d: number): string[] {
  return Array.from({ length: d }, (_, k) => `${prefix}${k + 1}`);
}

export const featuresField = z.array(z.string()).min(1);

/** The model's features of X, row-major (the pipeline has encoded and imputed them). */
export function featureRows(X: Frame, features: readonly string[]): Float64Array {
  return rowMajor(selectColumns(X, [...features]));
}

/** n × d coordinates, given column by column, as the row-major projection prediction. */
export function projectionOf(outputs: readonly Float64Array[], n: number): Prediction {
  const d = outputs.length;
  const values = new Float64Array(n * d);
  outputs.forEach((out, k) => {
    for (let i = 0; i < n; i++) values[i * d + k] = out[i];
  });
  return { task: "projection", values, dims: d };
}

/**
 * Per-output numbers (eigenvalues, variance ratios) by output name, and per-output weight
 * vectors by input name (PCA's components), spending one allowance of `maxValues` numbers:
 * what does not fit is left out and flagged `<key>_truncated`.
 */
export class BoundedExplanation {
  private readonly budget: ValueBudget;
  readonly out: Record<string, unknown> = {};

  constructor(maxValues: number | undefined) {
    this.budget = new ValueBudget(maxValuesOf(maxValues));
  }

  byOutput(key: string, names: readonly string[], values: ArrayLike<number>): this {
    const taken = this.budget.take(values);
    this.out[key] = Object.fromEntries(taken.values.map((v, k) => [names[k], v]));
    if (taken.truncated) this.out[`${key}_truncated`] = true;
    return this;
  }

  /** rows × columns row-major weights, as { row name: { column name: w } }. */
  matrix(key: string, rows: readonly string[], columns: readonly string[], values: Float64Array): this {
    const p = columns.length;
    const listed: Record<string, Record<string, number>> = {};
    let truncated = false;
    for (let k = 0; k < rows.length; k++) {
      const taken = this.budget.take(values.subarray(k * p, (k + 1) * p));
      if (taken.values.length > 0) listed[rows[k]] = Object.fromEntries(taken.values.map((v, j) => [columns[j], v]));
      if (taken.truncated) {
        truncated = true;
        break;
      }
    }
    this.out[key] = listed;
    if (truncated) this.out[`${key}_truncated`] = true;
    return this;
  }

  set(key: string, value: unknown): this {
    this.out[key] = value;
    return this;
  }
}
