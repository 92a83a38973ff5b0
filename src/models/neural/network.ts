/**
 * A fully connected feed-forward network over one flat parameter vector, so a
 * single optimiser stepper (optim/steppers.ts) drives every weight and bias.
 *
 *   params = [ W₁ (n₀×n₁, row-major) | b₁ (n₁) | W₂ (n₁×n₂) | b₂ | … ]
 *   a₀ = x,  a_l = f(a_{l−1} W_l + b_l),  output = g(a_{L−1} W_L + b_L)
 *
 * Biases are the seed's thresholds with the sign flipped (b = −θ, b = −γ), so
 * y = f(β − θ) of eq. 5.1 is f(β + b) here. Buffers for one batch are allocated
 * once; forward/backward loops run over contiguous rows of typed arrays.
 */
import type { Rng } from "../../data/random.js";
import { ACTIVATIONS, type ActivationName } from "./activations.js";
import { applyOutput, rowLoss, type LossName, type OutputName } from "./output-layer.js";

export interface NetworkSpec {
  /** Units per layer, input first, output last. */
  sizes: readonly number[];
  activation: ActivationName;
  output: OutputName;
  loss: LossName;
}

export interface Layout {
  weights: number[];
  biases: number[];
  total: number;
}

export function layoutOf(sizes: readonly number[]): Layout {
  const weights: number[] = [];
  const biases: number[] = [];
  let at = 0;
  for (let l = 1; l < sizes.length; l++) {
    weights.push(at);
    at += sizes[l - 1] * sizes[l];
    biases.push(at);
    at += sizes[l];
  }
  return { weights, biases, total: at };
}

export type InitName = "glorot" | "uniform_0_1";

/**
 * Glorot-uniform initialisation as scikit-learn's MLP does it (bound √(2/(fan_in+fan_out)) for
 * sigmoid, √(6/…) otherwise); or, as the seed's standard-BP pseudo-code says (在(0,1)范围内随机初始化),
 * every weight and threshold uniform in [0, 1).
 */
export function initialParams(spec: NetworkSpec, rng: Rng, init: InitName = "glorot"): Float64Array {
  const { sizes } = spec;
  const layout = layoutOf(sizes);
  const params = new Float64Array(layout.total);
  if (init === "uniform_0_1") {
    for (let i = 0; i < params.length; i++) params[i] = rng.next();
    return params;
  }
  const factor = spec.activation === "sigmoid" ? 2 : 6;
  for (let l = 1; l < sizes.length; l++) {
    const bound = Math.sqrt(factor / (sizes[l - 1] + sizes[l]));
    const from = layout.weights[l - 1];
    const to = layout.biases[l - 1] + sizes[l];
    for (let i = from; i < to; i++) params[i] = (2 * rng.next() - 1) * bound;
  }
  return params;
}

/** Sum of squared weights (biases are not regularised). */
export function weightNorm2(params: Float64Array, spec: NetworkSpec, layout: Layout): number {
  let s = 0;
  for (let l = 1; l < spec.sizes.length; l++) {
    const from = layout.weights[l - 1];
    const to = layout.biases[l - 1];
    for (let i = from; i < to; i++) s += params[i] * params[i];
  }
  return s;
}

export class Network {
  readonly layout: Layout;
  /** a_l for each layer of the current batch, capacity × sizes[l]. */
  private readonly acts: Float64Array[];
  private readonly deltas: Float64Array[];
  private readonly L: number;

  /** Hidden layers' keep masks of the current training batch (0, or 1/(1 − p) for a kept unit); empty without dropout. */
  private readonly masks: Float64Array[];

  /**
   * `dropout` (with its generator): the probability that a hidden unit is left out of one training
   * forward pass. Inverted dropout: kept units are scaled by 1/(1 − p), so the expected input of
   * the next layer is the same as with every unit, and prediction and validation use the plain network.
   */
  constructor(
    readonly spec: NetworkSpec,
    readonly capacity: number,
    private readonly dropout: { rate: number; rng: Rng } | null = null,
  ) {
    this.layout = layoutOf(spec.sizes);
    this.L = spec.sizes.length - 1;
    this.acts = spec.sizes.map((s) => new Float64Array(capacity * s));
    this.deltas = spec.sizes.map((s, l) => new Float64Array(l === 0 ? 0 : capacity * s));
    this.masks = dropout && dropout.rate > 0 ? spec.sizes.map((s, l) => new Float64Array(l === 0 || l === this.L ? 0 : capacity * s)) : [];
  }

  /** Forward pass of B ≤ capacity rows (row-major X). Returns the output buffer (B × n_L, valid until the next call). */
  forward(params: Float64Array, X: Float64Array, B: number, training = false): Float64Array {
    const { sizes } = this.spec;
    this.acts[0].set(X.subarray(0, B * sizes[0]));
    const act = ACTIVATIONS[this.spec.activation];
    const drop = training && this.masks.length > 0 ? this.dropout : null;
    for (let l = 1; l <= this.L; l++) {
      const m = sizes[l];
      const Z = this.acts[l];
      affine(this.acts[l - 1], sizes[l - 1], params, this.layout.weights[l - 1], this.layout.biases[l - 1], Z, m, B);
      if (l < this.L) {
        act.apply(Z, B * m);
        if (drop) {
          const mask = this.masks[l];
          const keep = 1 / (1 - drop.rate);
          for (let i = 0; i < B * m; i++) {
            mask[i] = drop.rng.next() < drop.rate ? 0 : keep;
            Z[i] *= mask[i];
          }
        }
      } else for (let r = 0; r < B; r++) applyOutput(this.spec.output, Z, r * m, m);
    }
    return this.acts[this.L];
  }

  /**
   * Mean loss of B rows plus the L2 term ½·alpha·‖W‖²/B (scikit-learn's scaling),
   * and its gradient written into grad (same layout as params). B may exceed the
   * capacity (bp "accumulated" is the whole training set): the rows then go through
   * in capacity-sized pieces whose gradients add up, so the buffers stay bounded.
   */
  lossAndGradient(params: Float64Array, X: Float64Array, Y: Float64Array, B: number, alpha: number, grad: Float64Array): number {
    const { sizes } = this.spec;
    const d = sizes[0];
    const out = sizes[this.L];
    grad.fill(0);
    let value = 0;
    for (let start = 0; start < B; start += this.capacity) {
      const b = Math.min(this.capacity, B - start);
      value += this.addGradient(params, X.subarray(start * d, (start + b) * d), Y.subarray(start * out, (start + b) * out), b, 1 / B, grad);
    }
    value /= B;
    if (alpha > 0) {
      const c = alpha / B;
      for (let l = 1; l <= this.L; l++) {
        const from = this.layout.weights[l - 1];
        const to = this.layout.biases[l - 1];
        for (let i = from; i < to; i++) grad[i] += c * params[i];
      }
      value += (0.5 * alpha * weightNorm2(params, this.spec, this.layout)) / B;
    }
    return value;
  }

  /** Adds `scale` × the data-loss gradient of b ≤ capacity rows to grad; returns their summed loss. */
  private addGradient(params: Float64Array, X: Float64Array, Y: Float64Array, b: number, scale: number, grad: Float64Array): number {
    const { sizes, output, loss } = this.spec;
    const L = this.L;
    const P = this.forward(params, X, b, true);
    const out = sizes[L];
    const dL = this.deltas[L];
    let value = 0;
    for (let r = 0; r < b; r++) value += rowLoss(output, loss, P, Y, r * out, out, dL, scale);

    const act = ACTIVATIONS[this.spec.activation];
    for (let l = L; l >= 1; l--) {
      const n = sizes[l - 1];
      const m = sizes[l];
      const wo = this.layout.weights[l - 1];
      // ∂/∂W_l = a_{l−1}ᵀ δ_l ; ∂/∂b_l = Σ_rows δ_l   (eqs. 5.4–5.7 as gradients)
      accumulateGradient(this.acts[l - 1], n, this.deltas[l], m, b, grad, wo, this.layout.biases[l - 1]);
      if (l > 1) {
        // δ_{l−1} = (δ_l W_lᵀ) ⊙ f'(a_{l−1})   (eq. 5.3)
        backpropagate(this.deltas[l], m, params, wo, this.deltas[l - 1], n, b);
        if (this.masks.length > 0) unmask(this.deltas[l - 1], this.acts[l - 1], this.masks[l - 1], b * n);
        act.backprop(this.deltas[l - 1], this.acts[l - 1], b * n);
      }
    }
    return value;
  }

  /** Mean data loss (no L2 term) over n rows, in batches of the network's capacity. */
  meanLoss(params: Float64Array, X: Float64Array, Y: Float64Array, n: number): number {
    const { sizes, output, loss } = this.spec;
    const d = sizes[0];
    const out = sizes[this.L];
    let total = 0;
    for (let start = 0; start < n; start += this.capacity) {
      const B = Math.min(this.capacity, n - start);
      const P = this.forward(params, X.subarray(start * d, (start + B) * d), B);
      const Yb = Y.subarray(start * out, (start + B) * out);
      for (let r = 0; r < B; r++) total += rowLoss(output, loss, P, Yb, r * out, out, null, 1);
    }
    return total / n;
  }

  /** Outputs for n rows into out (n × n_L). */
  predictInto(params: Float64Array, X: Float64Array, n: number, out: Float64Array): void {
    const d = this.spec.sizes[0];
    const k = this.spec.sizes[this.L];
    for (let start = 0; start < n; start += this.capacity) {
      const B = Math.min(this.capacity, n - start);
      const P = this.forward(params, X.subarray(start * d, (start + B) * d), B);
      out.set(P.subarray(0, B * k), start * k);
    }
  }
}

/**
 * Through a dropout mask: ∂/∂f(z) = ∂/∂(f(z)·mask) · mask, and the activation's derivative wants
 * f(z) itself, so the kept units' outputs are unscaled (a dropped unit's gradient is 0 either way;
 * its activation is set to 0, where every derivative is finite). acts are not read again in this pass.
 */
function unmask(delta: Float64Array, a: Float64Array, mask: Float64Array, len: number): void {
  for (let i = 0; i < len; i++) {
    const k = mask[i];
    delta[i] *= k;
    a[i] = k === 0 ? 0 : a[i] / k;
  }
}

// The three loops of a layer as small standalone functions (V8 optimises each on its
// own feedback, where one long method kept being deoptimised at its untried branches),
// register-blocked: several outputs accumulate in locals, so each multiply-add is not
// a load and a store of the output array (about 3× faster on these sizes).

/** Z (B × m) = A (B × n) · W + b, W at params[wo …] row-major n × m, b at params[bo …]. */
function affine(A: Float64Array, n: number, params: Float64Array, wo: number, bo: number, Z: Float64Array, m: number, B: number): void {
  for (let r = 0; r < B; r++) {
    const zo = r * m;
    const ao = r * n;
    let j = 0;
    for (; j + 3 < m; j += 4) {
      let z0 = params[bo + j];
      let z1 = params[bo + j + 1];
      let z2 = params[bo + j + 2];
      let z3 = params[bo + j + 3];
      for (let i = 0; i < n; i++) {
        const a = A[ao + i];
        const w = wo + i * m + j;
        z0 += a * params[w];
        z1 += a * params[w + 1];
        z2 += a * params[w + 2];
        z3 += a * params[w + 3];
      }
      Z[zo + j] = z0;
      Z[zo + j + 1] = z1;
      Z[zo + j + 2] = z2;
      Z[zo + j + 3] = z3;
    }
    for (; j < m; j++) {
      let z = params[bo + j];
      for (let i = 0; i < n; i++) z += A[ao + i] * params[wo + i * m + j];
      Z[zo + j] = z;
    }
  }
}

/** grad_W += Aᵀ D and grad_b += Σ_rows D for one layer. */
function accumulateGradient(A: Float64Array, n: number, D: Float64Array, m: number, B: number, grad: Float64Array, wo: number, bo: number): void {
  for (let j = 0; j < m; j++) {
    let g = 0;
    for (let r = 0; r < B; r++) g += D[r * m + j];
    grad[bo + j] += g;
  }
  for (let i = 0; i < n; i++) {
    const w = wo + i * m;
    let j = 0;
    for (; j + 3 < m; j += 4) {
      let g0 = 0;
      let g1 = 0;
      let g2 = 0;
      let g3 = 0;
      for (let r = 0; r < B; r++) {
        const a = A[r * n + i];
        const o = r * m + j;
        g0 += a * D[o];
        g1 += a * D[o + 1];
        g2 += a * D[o + 2];
        g3 += a * D[o + 3];
      }
      grad[w + j] += g0;
      grad[w + j + 1] += g1;
      grad[w + j + 2] += g2;
      grad[w + j + 3] += g3;
    }
    for (; j < m; j++) {
      let g = 0;
      for (let r = 0; r < B; r++) g += A[r * n + i] * D[r * m + j];
      grad[w + j] += g;
    }
  }
}

/** Dp (B × n) = D (B × m) · Wᵀ, before the activation's derivative. */
function backpropagate(D: Float64Array, m: number, params: Float64Array, wo: number, Dp: Float64Array, n: number, B: number): void {
  for (let r = 0; r < B; r++) {
    const dro = r * m;
    const ao = r * n;
    let i = 0;
    for (; i + 3 < n; i += 4) {
      const w0 = wo + i * m;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let j = 0; j < m; j++) {
        const dj = D[dro + j];
        s0 += dj * params[w0 + j];
        s1 += dj * params[w0 + m + j];
        s2 += dj * params[w0 + 2 * m + j];
        s3 += dj * params[w0 + 3 * m + j];
      }
      Dp[ao + i] = s0;
      Dp[ao + i + 1] = s1;
      Dp[ao + i + 2] = s2;
      Dp[ao + i + 3] = s3;
    }
    for (; i < n; i++) {
      const w = wo + i * m;
      let s = 0;
      for (let j = 0; j < m; j++) s += D[dro + j] * params[w + j];
      Dp[ao + i] = s;
    }
  }
}
