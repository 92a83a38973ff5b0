/**
 * Hidden-unit activations, applied in place, with derivatives written in terms of
 * the unit's output a = f(z) (all three allow it), so backpropagation needs only the
 * stored activations: sigmoid' = a(1 − a) — the b_h(1 − b_h) of the seed's eq. 5.3.
 */
export type ActivationName = "sigmoid" | "tanh" | "relu";

export interface Activation {
  /** a = f(z) over a[0 … len), in place. */
  apply(a: Float64Array, len: number): void;
  /** f'(z) given a = f(z). */
  derivative(a: number): number;
  /** delta[i] *= f'(z_i) given a[i] = f(z_i), over [0, len): one tight loop per kind. */
  backprop(delta: Float64Array, a: Float64Array, len: number): void;
}

export function sigmoid(z: number): number {
  // Two branches so exp never overflows.
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

export const ACTIVATIONS: Record<ActivationName, Activation> = {
  sigmoid: {
    apply(a, len) {
      for (let i = 0; i < len; i++) a[i] = sigmoid(a[i]);
    },
    derivative: (a) => a * (1 - a),
    backprop(delta, a, len) {
      for (let i = 0; i < len; i++) delta[i] *= a[i] * (1 - a[i]);
    },
  },
  tanh: {
    apply(a, len) {
      for (let i = 0; i < len; i++) a[i] = Math.tanh(a[i]);
    },
    derivative: (a) => 1 - a * a,
    backprop(delta, a, len) {
      for (let i = 0; i < len; i++) delta[i] *= 1 - a[i] * a[i];
    },
  },
  relu: {
    apply(a, len) {
      for (let i = 0; i < len; i++) if (a[i] < 0) a[i] = 0;
    },
    derivative: (a) => (a > 0 ? 1 : 0),
    backprop(delta, a, len) {
      for (let i = 0; i < len; i++) if (a[i] <= 0) delta[i] = 0;
    },
  },
};
