/**
 * Output units and losses. Each pairing gives the loss of one row and its gradient
 * with respect to the output layer's net inputs (the −g_j of the seed's eq. 5.2):
 *   softmax  + cross-entropy  −Σ y log p          → p − y
 *   sigmoid  + cross-entropy  −Σ y log p + (1−y) log(1−p) per unit → p − y
 *   sigmoid  + squared error  ½Σ (p − y)²          → (p − y) p (1 − p)     (the seed's BP)
 *   softmax  + squared error  ½Σ (p − y)²          → p ⊙ (e − (eᵀp)), e = p − y
 *   identity + squared error  ½Σ (p − y)²          → p − y
 */
import { sigmoid } from "./activations.js";

export type OutputName = "softmax" | "sigmoid" | "identity";
export type LossName = "cross_entropy" | "squared_error";

const EPS = 1e-15;

/** Output transform on one row's net inputs z[o … o + m), in place. */
export function applyOutput(kind: OutputName, z: Float64Array, o: number, m: number): void {
  if (kind === "identity") return;
  if (kind === "sigmoid") {
    for (let j = 0; j < m; j++) z[o + j] = sigmoid(z[o + j]);
    return;
  }
  let max = -Infinity;
  for (let j = 0; j < m; j++) if (z[o + j] > max) max = z[o + j];
  let sum = 0;
  for (let j = 0; j < m; j++) {
    const e = Math.exp(z[o + j] - max);
    z[o + j] = e;
    sum += e;
  }
  for (let j = 0; j < m; j++) z[o + j] /= sum;
}

/**
 * Loss of one row (outputs p, targets y at offset o, m units) and, when delta is
 * given, ∂loss/∂z times `scale` written into delta[o … o + m).
 */
export function rowLoss(
  output: OutputName,
  loss: LossName,
  p: Float64Array,
  y: Float64Array,
  o: number,
  m: number,
  delta: Float64Array | null,
  scale: number,
): number {
  let value = 0;
  if (loss === "cross_entropy") {
    for (let j = 0; j < m; j++) {
      const pj = Math.min(Math.max(p[o + j], EPS), 1 - EPS);
      value -= y[o + j] * Math.log(pj);
      if (output === "sigmoid") value -= (1 - y[o + j]) * Math.log(1 - pj);
    }
    if (delta) for (let j = 0; j < m; j++) delta[o + j] = (p[o + j] - y[o + j]) * scale;
    return value;
  }
  let dot = 0;
  for (let j = 0; j < m; j++) {
    const e = p[o + j] - y[o + j];
    value += 0.5 * e * e;
    dot += e * p[o + j];
  }
  if (delta) {
    for (let j = 0; j < m; j++) {
      const e = p[o + j] - y[o + j];
      const pj = p[o + j];
      delta[o + j] = scale * (output === "identity" ? e : output === "sigmoid" ? e * pj * (1 - pj) : pj * (e - dot));
    }
  }
  return value;
}
