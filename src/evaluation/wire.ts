/**
 * The wire convention every evaluation output follows (API.md): plain JSON numbers,
 * snake_case keys, and `null` wherever a value is undefined or not finite, because
 * JSON has no NaN/Infinity and a stored evaluation must round-trip unchanged.
 */
export type MetricValue = number | null;
export type MetricRecord = Record<string, MetricValue>;

/** Per-sample weights, where scikit-learn takes `sample_weight`. */
export type Weights = ArrayLike<number> | undefined;

export function finiteOrNull(x: number): MetricValue {
  return Number.isFinite(x) ? x : null;
}

/** 0/0 and x/0 are 0, as scikit-learn's zero_division=0 (its default "warn" also yields 0). */
export function divideOrZero(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

export function toNumberArray(a: ArrayLike<number>): MetricValue[] {
  const out = new Array<MetricValue>(a.length);
  for (let i = 0; i < a.length; i++) out[i] = finiteOrNull(a[i]);
  return out;
}

export function weightAt(weights: Weights, i: number): number {
  return weights === undefined ? 1 : weights[i];
}

export function checkSameLength(name: string, expected: number, actual: ArrayLike<unknown> | undefined): void {
  if (actual !== undefined && actual.length !== expected) {
    throw new RangeError(`${name} has length ${actual.length}, expected ${expected}`);
  }
}
