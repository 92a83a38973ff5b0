/**
 * Multi-label metrics of seed 004 ("多标签分类"). Label matrices are row-major
 * n × nLabels with 1 for a relevant label and 0 otherwise.
 */
import { checkSameLength, weightAt, type MetricValue, type Weights } from "../wire.js";

/**
 * The seed's "Hamming Score" (despite the name, a loss): the share of (sample, label)
 * cells predicted wrongly, 1/(N·M) Σ I(ŷ_ij ≠ y_ij). Equals scikit-learn's hamming_loss,
 * including its weighting (a sample's cells count with its weight).
 */
export function hammingLoss(yTrue: ArrayLike<number>, yPred: ArrayLike<number>, nLabels: number, weights?: Weights): MetricValue {
  const n = rowCount(yTrue, nLabels);
  checkSameLength("yPred", yTrue.length, yPred);
  checkSameLength("weights", n, weights);
  let wrong = 0;
  let sw = 0;
  for (let i = 0; i < n; i++) {
    const w = weightAt(weights, i);
    sw += w;
    let rowWrong = 0;
    for (let j = i * nLabels; j < (i + 1) * nLabels; j++) if (yTrue[j] !== yPred[j]) rowWrong++;
    wrong += w * rowWrong;
  }
  return sw === 0 || nLabels === 0 ? null : wrong / (sw * nLabels);
}

/**
 * Label ranking loss: per sample, the share of (relevant, irrelevant) label pairs whose
 * scores are ordered wrongly, ties counting as wrong; averaged over samples. The seed
 * writes the normaliser as ‖y_i‖₀(N − ‖y_i‖₀) with N the label count. A sample whose
 * labels are all relevant or all irrelevant scores 0 but still counts in the average,
 * as in scikit-learn's label_ranking_loss.
 */
export function labelRankingLoss(yTrue: ArrayLike<number>, scores: ArrayLike<number>, nLabels: number, weights?: Weights): MetricValue {
  const n = rowCount(yTrue, nLabels);
  checkSameLength("scores", yTrue.length, scores);
  checkSameLength("weights", n, weights);
  let sw = 0;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const base = i * nLabels;
    let relevant = 0;
    let wrongPairs = 0;
    for (let k = 0; k < nLabels; k++) {
      if (yTrue[base + k] === 0) continue;
      relevant++;
      const sk = scores[base + k];
      for (let l = 0; l < nLabels; l++) if (yTrue[base + l] === 0 && sk <= scores[base + l]) wrongPairs++;
    }
    const irrelevant = nLabels - relevant;
    const loss = relevant === 0 || irrelevant === 0 ? 0 : wrongPairs / (relevant * irrelevant);
    const w = weightAt(weights, i);
    sw += w;
    s += w * loss;
  }
  return sw === 0 ? null : s / sw;
}

function rowCount(yTrue: ArrayLike<number>, nLabels: number): number {
  if (nLabels <= 0 || yTrue.length % nLabels !== 0) throw new RangeError("label matrix length is not a multiple of nLabels");
  return yTrue.length / nLabels;
}
