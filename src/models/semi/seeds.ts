/**
 * The labelled rows of a semi-supervised fit as seeds of a partition (seeded_kmeans,
 * semi_supervised_gmm): one cluster or component per class that has at least one labelled
 * row, numbered in class order. A class without one (a validation fold may hold none of a
 * rare class) gets no cluster and is never predicted: nothing says where it lies.
 */
import { UnusableInputError } from "../contract.js";

export interface Seeds {
  /** Class of each cluster, ascending. */
  readonly clusterClass: Int32Array<ArrayBuffer>;
  /** Cluster of each training row's class, −1 for an unlabelled row. */
  readonly fixed: Int32Array<ArrayBuffer>;
  readonly labelled: number;
}

export function seedsOf(name: string, y: Int32Array, classCount: number): Seeds {
  const clusterOf = new Int32Array(classCount).fill(-1);
  for (const v of y) if (v >= 0) clusterOf[v] = 0;
  const classes: number[] = [];
  for (let c = 0; c < classCount; c++) if (clusterOf[c] === 0) clusterOf[c] = classes.push(c) - 1;
  if (classes.length === 0) throw new UnusableInputError(`${name} needs at least one labelled row`);
  let labelled = 0;
  const fixed = Int32Array.from(y, (v) => (v >= 0 ? (labelled++, clusterOf[v]) : -1));
  return { clusterClass: Int32Array.from(classes), fixed, labelled };
}

/** Mean of the labelled rows of each cluster (k × d): the book's initial centres (13.6). */
export function seedMeans(X: Float64Array, d: number, seeds: Seeds): Float64Array<ArrayBuffer> {
  const k = seeds.clusterClass.length;
  const sums = new Float64Array(k * d);
  const counts = new Float64Array(k);
  seeds.fixed.forEach((c, i) => {
    if (c < 0) return;
    counts[c]++;
    for (let j = 0; j < d; j++) sums[c * d + j] += X[i * d + j];
  });
  for (let c = 0; c < k; c++) for (let j = 0; j < d; j++) sums[c * d + j] /= counts[c];
  return sums;
}
