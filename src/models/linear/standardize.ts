/**
 * Fitting on standardised features z = (x − shift)/scale as an exact change of
 * variables: a penalty λ‖w‖² on the original coefficients becomes Σ (λ/scale_j²) v_j²
 * on the new ones (λ/scale_j for L1), so the optimum is the same model, only
 * better conditioned for gradient methods. Without an intercept nothing can
 * absorb a shift, so only scaling is used.
 */
import { moments, safeScale, type Design } from "./design.js";
import { standardisedFeatures, type LinearFeatures } from "./features.js";

export interface Standardized {
  /** z = (x − shift)/scale, one-hot blocks kept as codes (features.ts). */
  features: LinearFeatures;
  shift: Float64Array;
  scale: Float64Array;
  /** Weighted population standard deviation of each original column. */
  std: Float64Array<ArrayBuffer>;
  total: number;
}

export function standardize(design: Design, weights: Float64Array | undefined, fitIntercept: boolean, normalize: boolean): Standardized {
  const { mean, std, total } = moments(design.sources, design.n, weights);
  const shift = normalize && fitIntercept ? mean : new Float64Array(design.p);
  const scale = normalize ? safeScale(std) : new Float64Array(design.p).fill(1);
  return { features: standardisedFeatures(design.sources, design.n, shift, scale), shift, scale, std, total };
}

/** Per-coordinate penalty weights for a penalty λ·φ(w) expressed on v = w·scale (power 2 for L2, 1 for L1). */
export function penaltyWeights(lambda: number, scale: Float64Array, power: 1 | 2): Float64Array {
  return scale.map((s) => lambda / s ** power);
}

/** Coefficients on the original scale from v (row r at r·stride) and the standardised intercept c. */
export function unstandardize(v: Float64Array, offset: number, c: number, shift: Float64Array, scale: Float64Array): { coef: Float64Array<ArrayBuffer>; intercept: number } {
  const p = shift.length;
  const coef = new Float64Array(p);
  let intercept = c;
  for (let j = 0; j < p; j++) {
    coef[j] = v[offset + j] / scale[j];
    intercept -= coef[j] * shift[j];
  }
  return { coef, intercept };
}
