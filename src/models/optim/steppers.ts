/**
 * First-order update rules, one object per parameter vector. A stepper keeps its
 * own accumulators (velocity, squared-gradient averages) so that the same rule can
 * drive a whole-vector optimiser (minimize) or one layer of a network.
 * Parameterised as in the usual references: momentum/nesterov as in Sutskever et
 * al. (v ← μv − ηg), adagrad/rmsprop/adam as in PyTorch (ε added outside the root).
 */
export type StepperKind = "sgd" | "momentum" | "nesterov" | "adagrad" | "rmsprop" | "adam";

export interface StepperOptions {
  learningRate: number;
  /** Momentum coefficient μ for momentum / nesterov (default 0.9). */
  momentum?: number;
  /** Adam's first-moment decay (default 0.9). */
  beta1?: number;
  /** Adam's second-moment decay (default 0.999). */
  beta2?: number;
  /** Added to the root of the squared-gradient accumulator (default 1e-8). */
  epsilon?: number;
  /** RMSProp's squared-gradient decay (default 0.9). */
  rho?: number;
}

export interface Stepper {
  /** In-place update of params given the gradient of the loss at params. */
  step(params: Float64Array, grad: Float64Array): void;
}

export const STEPPER_KINDS: readonly StepperKind[] = ["sgd", "momentum", "nesterov", "adagrad", "rmsprop", "adam"];

export function createStepper(kind: StepperKind, size: number, options: StepperOptions): Stepper {
  const lr = options.learningRate;
  if (!(lr > 0) || !Number.isFinite(lr)) throw new Error(`learningRate must be a positive number, got ${lr}`);
  return createScheduledStepper(kind, size, options, () => lr);
}

/**
 * The same rules with a learning rate read before every step, so a schedule
 * (invscaling, adaptive) can drive it. `rate` is called once per step.
 */
export function createScheduledStepper(kind: StepperKind, size: number, options: StepperOptions, rate: () => number): Stepper {
  const eps = options.epsilon ?? 1e-8;
  switch (kind) {
    case "sgd":
      return {
        step(params, grad) {
          const lr = rate();
          for (let i = 0; i < size; i++) params[i] -= lr * grad[i];
        },
      };
    case "momentum": {
      const mu = options.momentum ?? 0.9;
      const v = new Float64Array(size);
      return {
        step(params, grad) {
          const lr = rate();
          for (let i = 0; i < size; i++) {
            v[i] = mu * v[i] - lr * grad[i];
            params[i] += v[i];
          }
        },
      };
    }
    case "nesterov": {
      // The look-ahead form rewritten on the stored parameters (Bengio et al. 2013),
      // so the caller evaluates the gradient at params as for every other stepper.
      const mu = options.momentum ?? 0.9;
      const v = new Float64Array(size);
      return {
        step(params, grad) {
          const lr = rate();
          for (let i = 0; i < size; i++) {
            const prev = v[i];
            v[i] = mu * prev - lr * grad[i];
            params[i] += -mu * prev + (1 + mu) * v[i];
          }
        },
      };
    }
    case "adagrad": {
      const g2 = new Float64Array(size);
      return {
        step(params, grad) {
          const lr = rate();
          for (let i = 0; i < size; i++) {
            const g = grad[i];
            g2[i] += g * g;
            params[i] -= (lr * g) / (Math.sqrt(g2[i]) + eps);
          }
        },
      };
    }
    case "rmsprop": {
      const rho = options.rho ?? 0.9;
      const g2 = new Float64Array(size);
      return {
        step(params, grad) {
          const lr = rate();
          for (let i = 0; i < size; i++) {
            const g = grad[i];
            g2[i] = rho * g2[i] + (1 - rho) * g * g;
            params[i] -= (lr * g) / (Math.sqrt(g2[i]) + eps);
          }
        },
      };
    }
    case "adam": {
      const b1 = options.beta1 ?? 0.9;
      const b2 = options.beta2 ?? 0.999;
      const m = new Float64Array(size);
      const s = new Float64Array(size);
      let b1t = 1;
      let b2t = 1;
      return {
        step(params, grad) {
          const lr = rate();
          b1t *= b1;
          b2t *= b2;
          const c1 = 1 / (1 - b1t);
          const c2 = 1 / (1 - b2t);
          for (let i = 0; i < size; i++) {
            const g = grad[i];
            m[i] = b1 * m[i] + (1 - b1) * g;
            s[i] = b2 * s[i] + (1 - b2) * g * g;
            params[i] -= (lr * m[i] * c1) / (Math.sqrt(s[i] * c2) + eps);
          }
        },
      };
    }
    default: {
      const never: never = kind;
      throw new Error(`unknown stepper ${String(never)}`);
    }
  }
}
