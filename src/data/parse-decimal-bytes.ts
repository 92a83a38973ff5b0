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

/** Where scanPlainDecimal stopped: the end of the number it read. */
export let scannedEnd = 0;

/**
 * The common CSV cell, read while looking for its end: optional "-", digits, and
 * optionally "." and digits, then a comma, a row end or the end of the input.
 * Returns the value (scannedEnd: where the cell ends), or NaN for anything else
 * (spaces, "+", an exponent, quotes, text, more than 15 digits): the caller then
 * reads the field the general way. Within 15 digits (so at most 15 decimals) the
 * value is exactly Number(text) (Clinger's fast path, as below).
 */
export function scanPlainDecimal(b: Uint8Array, from: number, n: number): number {
  let p = from;
  const negative = p < n && b[p] === 45;
  if (negative) p++;
  // Stops after 16 digits: a longer number goes the general way (Number() on its text),
  // and m stays below 2^53 here.
  const limit = Math.min(n, p + 16);
  let m = 0;
  for (; p < limit; p++) {
    const d = b[p] - 48;
    if (d < 0 || d > 9) break;
    m = m * 10 + d;
  }
  let digits = p - (negative ? from + 1 : from);
  let exp = 0;
  if (p < n && b[p] === 46) {
    const fractionFrom = ++p;
    const fractionLimit = Math.min(n, p + 16 - digits);
    for (; p < fractionLimit; p++) {
      const d = b[p] - 48;
      if (d < 0 || d > 9) break;
      m = m * 10 + d;
    }
    exp = fractionFrom - p;
    digits += p - fractionFrom;
  }
  if (digits === 0 || digits > 15) return NaN;
  if (p < n) {
    const c = b[p];
    if (c !== 44 && c !== 10 && c !== 13) return NaN;
  }
  scannedEnd = p;
  const v = exp === 0 ? m : m / POW10[-exp];
  return negative ? -v : v;
}

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
