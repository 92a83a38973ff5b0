/**
 * Multiclass ROC AUC by one-vs-rest (scikit-learn's roc_auc_score(multi_class="ovr")):
 * class k's probability column scores "k against the rest". A class absent from yTrue
 * (or the only one present) has no AUC — null here, an error in scikit-learn — and the
 * macro average runs over the classes that have one.
 */
import { checkSameLength, type MetricValue, type Weights } from "../wire.js";
import { aucFromCounts } from "./roc.js";
import { thresholdCounts } from "./threshold-counts.js";

export interface OneVsRestAuc {
  per_class: MetricValue[];
  macro: MetricValue;
}

export function probabilityColumn(proba: ArrayLike<number>, nClasses: number, k: number): Float64Array {
  const n = proba.length / nClasses;
  const column = new Float64Array(n);
  for (let i = 0; i < n; i++) column[i] = proba[i * nClasses + k];
  return column;
}

export function oneVsRestAuc(yTrue: ArrayLike<number>, proba: ArrayLike<number>, nClasses: number, weights?: Weights): OneVsRestAuc {
  checkSameLength("proba", yTrue.length * nClasses, proba);
  const perClass: MetricValue[] = [];
  let sum = 0;
  let defined = 0;
  for (let k = 0; k < nClasses; k++) {
    const auc = aucFromCounts(thresholdCounts(yTrue, probabilityColumn(proba, nClasses, k), { positiveLabel: k, weights }));
    perClass.push(auc);
    if (auc !== null) {
      sum += auc;
      defined++;
    }
  }
  return { per_class: perClass, macro: defined === 0 ? null : sum / defined };
}
