/**
 * Explanations are built on the request thread, so their size must not follow the
 * artifact's: families whose state is big arrays (support vectors' dual coefficients,
 * network weights) list at most `maxValues` numbers and say what they left out. The
 * whole state stays in the artifact (GET /v1/models/{id}/artifact).
 */
export const EXPLAIN_DEFAULT_MAX_VALUES = 1000;
export const EXPLAIN_MAX_VALUES = 100_000;

/**
 * The caller's bound, or the default. The HTTP query caps it at EXPLAIN_MAX_VALUES;
 * internal callers may ask for everything (Infinity), e.g. coefficients as importances.
 */
export function maxValuesOf(requested: number | undefined): number {
  return Math.max(1, Math.floor(requested ?? EXPLAIN_DEFAULT_MAX_VALUES));
}

/** Spends a shared allowance of listed values across the parts of one explanation. */
export class ValueBudget {
  constructor(private left: number) {}

  get remaining(): number {
    return this.left;
  }

  /** The first values of `array`, at most what is left; `truncated` when some were left out. */
  take(array: ArrayLike<number>): { values: number[]; truncated: boolean } {
    const n = Math.min(array.length, this.left);
    this.left -= n;
    return { values: Array.from({ length: n }, (_, i) => array[i]), truncated: n < array.length };
  }

  spend(n: number): void {
    this.left = Math.max(0, this.left - n);
  }
}
