/**
 * The confusion matrix at one point of a binary evaluation's ROC curve: the curve gives the
 * true and false positive rates at each threshold, the evaluation's confusion matrix the
 * class totals, so TP = tpr·P and FP = fpr·N (no rows needed).
 */
export interface AtThreshold {
  matrix: number[][];
  metrics: { accuracy: number; precision: number | null; recall: number; specificity: number; f1: number | null };
}

export function confusionAt(labels: string[], matrix: number[][], positive: string, fpr: number, tpr: number): AtThreshold {
  const p = labels.indexOf(positive);
  const q = p === 0 ? 1 : 0;
  const P = matrix[p].reduce((a, b) => a + b, 0);
  const N = matrix[q].reduce((a, b) => a + b, 0);
  const tp = Math.round(tpr * P), fp = Math.round(fpr * N);
  const fn = P - tp, tn = N - fp;
  const out = [
    [0, 0],
    [0, 0],
  ];
  out[p][p] = tp;
  out[p][q] = fn;
  out[q][p] = fp;
  out[q][q] = tn;
  const precision = tp + fp > 0 ? tp / (tp + fp) : null;
  const recall = P > 0 ? tp / P : 0;
  const f1 = precision !== null && precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : null;
  return { matrix: out, metrics: { accuracy: (tp + tn) / (P + N), precision, recall, specificity: N > 0 ? tn / N : 0, f1 } };
}
