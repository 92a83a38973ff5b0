/**
 * A fitted kernel expansion f(x) = Σ_s coef_s K(sv_s, x) + intercept, shared by the
 * binary SVC (f > 0 → the second class) and SVR (f is the prediction). For the
 * linear kernel the primal weights w = Σ coef_s sv_s are kept too, so prediction is
 * one dot product per row and explain can show them.
 */
import { z } from "zod";
import { checkFinite, checkLength, f64, structural, type Check } from "../state-schemas.js";
import { KernelFunction, type KernelSpec, squaredNorms } from "./kernel.js";

export const kernelSpecSchema = z
  .object({
    kind: z.enum(["linear", "poly", "rbf", "sigmoid"]),
    gamma: z.number(),
    /** The same bound as the poly kernel's parameter. */
    degree: z.number().int().min(1).max(20),
    coef0: z.number(),
  })
  .strict();

export const supportVectorModelObject = z
  .object({
    kernel: kernelSpecSchema,
    n_features: z.number().int().nonnegative(),
    /** n_sv × n_features, row-major. */
    support_vectors: f64,
    coef: f64,
    intercept: z.number(),
    /** Primal weights (linear kernel only). */
    weights: f64.nullable(),
  })
  .strict();

/** n_sv (one coefficient each) × n_features support vectors, n_features primal weights, every number finite. */
export function checkSupportVectors(m: z.infer<typeof supportVectorModelObject>, report: Check): boolean {
  const nsv = m.coef.length;
  const d = m.n_features;
  if (!checkLength(m.support_vectors, nsv * d, "support_vectors", report, `${nsv} coefficients × ${d} features`)) return false;
  if (m.weights !== null && !checkLength(m.weights, d, "weights", report, "n_features")) return false;
  return checkFinite(m.coef, "coef", report) && checkFinite(m.support_vectors, "support_vectors", report) && (m.weights === null || checkFinite(m.weights, "weights", report));
}

export const supportVectorModelSchema = supportVectorModelObject.superRefine(structural(checkSupportVectors));

export type SupportVectorModel = z.infer<typeof supportVectorModelSchema>;

export function buildModel(
  kernel: KernelSpec,
  X: Float64Array,
  d: number,
  support: Int32Array,
  coef: Float64Array,
  intercept: number,
): SupportVectorModel {
  const nsv = support.length;
  const sv = new Float64Array(nsv * d);
  for (let s = 0; s < nsv; s++) sv.set(X.subarray(support[s] * d, support[s] * d + d), s * d);
  let weights: Float64Array<ArrayBuffer> | null = null;
  if (kernel.kind === "linear") {
    weights = new Float64Array(d);
    for (let s = 0; s < nsv; s++) for (let t = 0; t < d; t++) weights[t] += coef[s] * sv[s * d + t];
  }
  return { kernel: { ...kernel }, n_features: d, support_vectors: sv, coef: new Float64Array(coef), intercept, weights };
}

/** f(x) for each row of X (n × d row-major). */
export function decisionValues(model: SupportVectorModel, X: Float64Array, n: number): Float64Array {
  const d = model.n_features;
  const out = new Float64Array(n);
  const w = model.weights;
  if (w !== null) {
    for (let i = 0; i < n; i++) {
      let s = model.intercept;
      const o = i * d;
      for (let t = 0; t < d; t++) s += w[t] * X[o + t];
      out[i] = s;
    }
    return out;
  }
  const sv = model.support_vectors;
  const nsv = model.coef.length;
  const kernel = new KernelFunction(model.kernel as KernelSpec, d);
  const sqSv = squaredNorms(sv, nsv, d);
  const sqX = squaredNorms(X, n, d);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let k = 0; k < nsv; k++) s += model.coef[k] * kernel.value(sv, k, sqSv[k], X, i, sqX[i]);
    out[i] = s + model.intercept;
  }
  return out;
}
