/**
 * A binary restricted Boltzmann machine (seed 003's Boltzmann 机, the restricted kind: visible and
 * hidden units, no links within a layer) learnt by contrastive divergence (CD-k, Hinton 2002), as
 * a projection step: the numeric columns become the hidden units' activation probabilities
 * P(h_j = 1 | v) = σ(c_j + Σ_i v_i W_ij), columns rbm1 … rbmK.
 *
 * Visible units are binary, so the inputs are brought into [0, 1] first: each column by its
 * training minimum and maximum (a constant column becomes 0), later rows clipped to [0, 1]; a
 * value of 0.3 reads as "on with probability 0.3", as scikit-learn's BernoulliRBM reads it.
 *
 * Training: W ~ N(0, 0.01²) seeded, biases 0; epochs over seeded mini-batches; for each batch
 * the positive phase takes v₀ = the data and h₀ = P(h | v₀); the negative phase runs k steps of
 * Gibbs sampling from a sample of h₀ (h sampled, v as probabilities), ending with P(h | v_k);
 * then W += η (v₀ᵀh₀ − v_kᵀh_k)/B, b += η·mean(v₀ − v_k), c += η·mean(h₀ − h_k).
 */
import { z } from "zod";
import { DataError } from "../../data/errors.js";
import { permutation } from "../../data/random.js";
import { pickColumns } from "../../data/transforms/transform.js";
import { throwIfAborted } from "../../models/contract.js";
import { f64 } from "../../models/state-schemas.js";
import { completeNumericInputs, numericInputsOf, outputNames, planReplace, replaceInputs } from "./numeric-inputs.js";
import type { TypedStep } from "./typed-step.js";
import { groupDigits } from "../../data/group-digits.js";

const STEP = "rbm";
/** Hidden units: W is columns × units and every row's projection reads all of it. */
export const MAX_RBM_UNITS = 2000;
export const MAX_RBM_EPOCHS = 10_000;
export const MAX_RBM_BATCH = 4096;
export const MAX_GIBBS_STEPS = 100;

export const rbmSpec = z
  .object({
    /** Default: every numeric column. */
    columns: z.array(z.string()).optional(),
    n_components: z.int().min(1).max(MAX_RBM_UNITS).default(16).describe(`Hidden units (output columns). At most ${MAX_RBM_UNITS}.`),
    learning_rate: z.number().gt(0).max(100).default(0.1),
    batch_size: z.int().min(1).max(MAX_RBM_BATCH).default(10).describe(`Rows per update (capped at the training rows). At most ${MAX_RBM_BATCH}.`),
    n_iter: z.int().min(1).max(MAX_RBM_EPOCHS).default(10).describe(`Epochs (passes over the training rows). At most ${groupDigits(MAX_RBM_EPOCHS)}.`),
    k: z.int().min(1).max(MAX_GIBBS_STEPS).default(1).describe(`Gibbs steps of the negative phase (CD-k). At most ${MAX_GIBBS_STEPS}.`),
    prefix: z.string().min(1).default("rbm"),
  })
  .strict();
export type RbmSpec = z.infer<typeof rbmSpec>;

export const rbmFitted = z
  .object({
    columns: z.array(z.string()).min(1),
    names: z.array(z.string()).min(1),
    /** Per column: the training minimum and range (0 for a constant column). */
    low: f64,
    range: f64,
    /** p × K row-major: visible i to hidden j. */
    weights: f64,
    visible_bias: f64,
    hidden_bias: f64,
    /** Mean squared reconstruction error (v₀ against P(v | h₀)) per epoch. */
    reconstruction_error: z.array(z.number()),
  })
  .strict()
  .refine(
    (f) => {
      const p = f.columns.length;
      const K = f.names.length;
      const finite = [f.low, f.range, f.weights, f.visible_bias, f.hidden_bias].every((a) => a.every(Number.isFinite));
      return finite && f.low.length === p && f.range.length === p && f.visible_bias.length === p && f.hidden_bias.length === K && f.weights.length === p * K;
    },
    { message: "shapes do not match, or a number is not finite" },
  );
export type RbmFitted = z.infer<typeof rbmFitted>;

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Row-major n × p copy of the columns brought into [0, 1] by the fitted minimum and range. */
function visible(columns: readonly Float64Array[], low: Float64Array, range: Float64Array, n: number): Float64Array {
  const p = columns.length;
  const out = new Float64Array(n * p);
  for (let j = 0; j < p; j++) {
    for (let i = 0; i < n; i++) {
      const v = range[j] > 0 ? (columns[j][i] - low[j]) / range[j] : 0;
      out[i * p + j] = v < 0 ? 0 : v > 1 ? 1 : v;
    }
  }
  return out;
}

/** P(h | v) for rows of V (b × p) into H (b × K). */
function hiddenGivenVisible(V: Float64Array, b: number, p: number, W: Float64Array, c: Float64Array, K: number, H: Float64Array): void {
  for (let r = 0; r < b; r++) {
    for (let j = 0; j < K; j++) {
      let s = c[j];
      for (let i = 0; i < p; i++) s += V[r * p + i] * W[i * K + j];
      H[r * K + j] = sigmoid(s);
    }
  }
}

/** P(v | h) for rows of H (b × K) into V (b × p). */
function visibleGivenHidden(H: Float64Array, b: number, K: number, W: Float64Array, bias: Float64Array, p: number, V: Float64Array): void {
  for (let r = 0; r < b; r++) {
    for (let i = 0; i < p; i++) {
      let s = bias[i];
      for (let j = 0; j < K; j++) s += H[r * K + j] * W[i * K + j];
      V[r * p + i] = sigmoid(s);
    }
  }
}

export const rbmStep: TypedStep<RbmSpec, RbmFitted> = {
  name: STEP,
  description: "Binary restricted Boltzmann machine by contrastive divergence (CD-k): numeric columns (min–max scaled to [0, 1]) onto the hidden units' activation probabilities.",
  spec: rbmSpec,
  fitted: rbmFitted,

  fit(frame, spec, ctx) {
    const { names: inputs, columns } = completeNumericInputs(frame, spec.columns, STEP);
    const n = frame.rowCount;
    if (n < 1) throw new DataError(`${STEP}: needs at least one training row`, "columns");
    const p = columns.length;
    const K = spec.n_components;
    const low = Float64Array.from(columns, (c) => c.reduce((m, v) => Math.min(m, v), Infinity));
    const range = Float64Array.from(columns, (c, j) => c.reduce((m, v) => Math.max(m, v), -Infinity) - low[j]);
    const data = visible(columns, low, range, n);
    const W = Float64Array.from({ length: p * K }, () => 0.01 * ctx.rng.normal());
    const b = new Float64Array(p);
    const c = new Float64Array(K);
    const B = Math.min(spec.batch_size, n);
    const V0 = new Float64Array(B * p);
    const H0 = new Float64Array(B * K);
    const Vk = new Float64Array(B * p);
    const Hk = new Float64Array(B * K);
    const sample = new Float64Array(B * K);
    const curve: number[] = [];
    for (let epoch = 0; epoch < spec.n_iter; epoch++) {
      throwIfAborted(ctx.signal);
      const order = permutation(n, ctx.rng);
      let error = 0;
      for (let start = 0; start < n; start += B) {
        const size = Math.min(B, n - start);
        for (let r = 0; r < size; r++) V0.set(data.subarray(order[start + r] * p, order[start + r] * p + p), r * p);
        hiddenGivenVisible(V0, size, p, W, c, K, H0);
        for (let i = 0; i < size * K; i++) sample[i] = ctx.rng.next() < H0[i] ? 1 : 0;
        for (let step = 0; step < spec.k; step++) {
          visibleGivenHidden(sample, size, K, W, b, p, Vk);
          if (step === 0) for (let i = 0; i < size * p; i++) error += (V0[i] - Vk[i]) ** 2;
          hiddenGivenVisible(Vk, size, p, W, c, K, Hk);
          if (step + 1 < spec.k) for (let i = 0; i < size * K; i++) sample[i] = ctx.rng.next() < Hk[i] ? 1 : 0;
        }
        const eta = spec.learning_rate / size;
        for (let i = 0; i < p; i++) {
          for (let j = 0; j < K; j++) {
            let g = 0;
            for (let r = 0; r < size; r++) g += V0[r * p + i] * H0[r * K + j] - Vk[r * p + i] * Hk[r * K + j];
            W[i * K + j] += eta * g;
          }
          let g = 0;
          for (let r = 0; r < size; r++) g += V0[r * p + i] - Vk[r * p + i];
          b[i] += eta * g;
        }
        for (let j = 0; j < K; j++) {
          let g = 0;
          for (let r = 0; r < size; r++) g += H0[r * K + j] - Hk[r * K + j];
          c[j] += eta * g;
        }
      }
      if (!Number.isFinite(error)) throw new DataError(`${STEP}: training diverged at epoch ${epoch + 1}; lower learning_rate`, "learning_rate");
      curve.push(error / (n * p));
    }
    const names = outputNames(
      spec.prefix,
      K,
      frame.columns.map((col) => col.name),
      inputs,
      STEP,
    );
    return { columns: inputs, names, low, range, weights: W, visible_bias: b, hidden_bias: c, reconstruction_error: curve };
  },

  apply(fitted, frame) {
    const inputs = numericInputsOf(frame, fitted.columns, STEP);
    const n = frame.rowCount;
    const p = inputs.length;
    const K = fitted.names.length;
    // A missing cell reads as "off" (0 after scaling: the training minimum), the RBM's resting state.
    const filled = inputs.map((col, j) => col.map((v) => (v === v ? v : fitted.low[j])));
    const V = visible(filled, fitted.low, fitted.range, n);
    const H = new Float64Array(n * K);
    hiddenGivenVisible(V, n, p, fitted.weights, fitted.hidden_bias, K, H);
    const outputs = Array.from({ length: K }, (_, j) => Float64Array.from({ length: n }, (_, i) => H[i * K + j]));
    return replaceInputs(frame, fitted.columns, fitted.names, outputs);
  },

  describe(fitted) {
    return { input_columns: [...fitted.columns], output_columns: [...fitted.names], reconstruction_error: fitted.reconstruction_error };
  },

  plan(spec, columns) {
    const chosen = pickColumns(columns, spec.columns, ["numeric"], STEP).map((col) => col.name);
    if (chosen.length === 0) return null;
    return planReplace(
      columns,
      chosen,
      Array.from({ length: spec.n_components }, (_, k) => `${spec.prefix}${k + 1}`),
    );
  },
};
