/**
 * Turning the m binary scores of a row into a class (and, where the strategy has
 * one, class probabilities). One decoder per strategy, picked from a table.
 *   ovr   the most confident "this class" (the seed's 置信度 tie breaking)
 *   ovo   votes, ties broken by the summed confidences (as scikit-learn's OvO)
 *   ecoc  nearest code row, Hamming on the signs (ties by Euclidean) or Euclidean
 * scores / positives are n × m row-major; positives (P(positive side)) may be null.
 */
import type { Decoding, Strategy } from "./params.js";
import { PairwiseCoupling } from "./pairwise-coupling.js";

export interface DecodeInput {
  n: number;
  k: number;
  m: number;
  code: Int8Array;
  scores: Float64Array;
  positives: Float64Array | null;
  decoding: Decoding;
}

export interface Decoded {
  labels: Int32Array;
  proba?: Float64Array;
}

type Decoder = (input: DecodeInput) => Decoded;

const MIN_PROB = 1e-7;

function argmax(v: Float64Array, offset: number, k: number): number {
  let best = 0;
  for (let c = 1; c < k; c++) if (v[offset + c] > v[offset + best]) best = c;
  return best;
}

const ovr: Decoder = ({ n, k, scores, positives }) => {
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) labels[i] = argmax(scores, i * k, k);
  if (!positives) return { labels };
  const proba = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let c = 0; c < k; c++) s += positives[i * k + c];
    for (let c = 0; c < k; c++) proba[i * k + c] = s > 0 ? positives[i * k + c] / s : 1 / k;
  }
  return { labels, proba };
};

const ovo: Decoder = ({ n, k, m, code, scores, positives }) => {
  // Recover each problem's (negative, positive) class pair from the code.
  const neg = new Int32Array(m);
  const pos = new Int32Array(m);
  for (let j = 0; j < m; j++) {
    for (let c = 0; c < k; c++) {
      if (code[c * m + j] < 0) neg[j] = c;
      else if (code[c * m + j] > 0) pos[j] = c;
    }
  }
  const labels = new Int32Array(n);
  const votes = new Float64Array(k);
  const conf = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    votes.fill(0);
    conf.fill(0);
    for (let j = 0; j < m; j++) {
      const s = scores[i * m + j];
      votes[s >= 0 ? pos[j] : neg[j]] += 1;
      conf[pos[j]] += s;
      conf[neg[j]] -= s;
    }
    // Squash the confidences into (−1/3, 1/3) so they only ever break ties between votes.
    for (let c = 0; c < k; c++) votes[c] += conf[c] / (3 * (Math.abs(conf[c]) + 1));
    labels[i] = argmax(votes, 0, k);
  }
  if (!positives) return { labels };
  const coupling = new PairwiseCoupling(k);
  const r = new Float64Array(k * k);
  const proba = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      const p = Math.min(Math.max(positives[i * m + j], MIN_PROB), 1 - MIN_PROB);
      r[pos[j] * k + neg[j]] = p;
      r[neg[j] * k + pos[j]] = 1 - p;
    }
    coupling.solve(r, proba, i * k);
  }
  return { labels, proba };
};

const ecoc: Decoder = ({ n, k, m, code, scores, decoding }) => {
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = -1;
    let bestHam = Infinity;
    let bestEuc = Infinity;
    for (let c = 0; c < k; c++) {
      let ham = 0;
      let euc = 0;
      for (let j = 0; j < m; j++) {
        const s = scores[i * m + j];
        const b = code[c * m + j];
        if ((s >= 0 ? 1 : -1) !== b) ham++;
        euc += (s - b) * (s - b);
      }
      const better = decoding === "hamming" ? ham < bestHam || (ham === bestHam && euc < bestEuc) : euc < bestEuc;
      if (better) {
        best = c;
        bestHam = ham;
        bestEuc = euc;
      }
    }
    labels[i] = best;
  }
  return { labels };
};

export const DECODERS: Record<Strategy, Decoder> = { ovr, ovo, ecoc };
