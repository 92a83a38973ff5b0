/**
 * Parses a decimal number straight from bytes, for the CSV reader's hot loop.
 * Returns NaN when the bytes are not a decimal number (infer.ts's syntax), and
 * DEFER when they are one but its value is beyond the exact fast path (2^53 or
 * more in the digits, or an exponent beyond ±22): the caller then hands the text
 * to Number(). Within those bounds one IEEE multiplication or division of two
 * exact doubles is correctly rounded (Clinger's fast path), so the result is the
 * very double Number(text) gives.
 */
// From literals, so each power is the exactly rounded double (all are exact up to 1e22).
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
const EXACT_LIMIT = 2 ** 53;

/** "Valid syntax; let Number() compute the value" (never a parse result otherwise). */
export const DEFER = Infinity;

export function parseDecimalBytes(b: Uint8Array, from: number, to: number): number {
  let s = from;
  let e = to;
  while (s < e && (b[s] === 32 || b[s] === 9)) s++;
  while (e > s && (b[e - 1] === 32 || b[e - 1] === 9)) e--;
  if (s === e) return NaN;
  let p = s;
  let negative = false;
  if (b[p] === 45) {
    negative = true;
    p++;
  } else if (b[p] === 43) p++;
  let m = 0;
  let digits = 0;
  let exp = 0;
  for (; p < e; p++) {
    const d = b[p] - 48;
    if (d < 0 || d > 9) break;
    m = m * 10 + d;
    digits++;
  }
  if (p < e && b[p] === 46) {
    for (p++; p < e; p++) {
      const d = b[p] - 48;
      if (d < 0 || d > 9) break;
      m = m * 10 + d;
      digits++;
      exp--;
    }
  }
  if (digits === 0) return NaN;
  if (p < e && (b[p] | 32) === 101) {
    p++;
    let expNegative = false;
    if (p < e && (b[p] === 45 || b[p] === 43)) expNegative = b[p++] === 45;
    let x = 0;
    let expDigits = 0;
    for (; p < e; p++) {
      const d = b[p] - 48;
      if (d < 0 || d > 9) break;
      if (x < 1e6) x = x * 10 + d;
      expDigits++;
    }
    if (expDigits === 0) return NaN;
    exp += expNegative ? -x : x;
  }
  if (p !== e) return NaN;
  if (m >= EXACT_LIMIT) return DEFER;
  let v: number;
  if (exp === 0) v = m;
  else if (exp < 0 && exp >= -22) v = m / POW10[-exp];
  else if (exp > 0 && exp <= 22) v = m * POW10[exp];
  else return DEFER;
  return negative ? -v : v;
}
