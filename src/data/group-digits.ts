/**
 * An integer with its thousands grouped by commas, as toLocaleString("en") writes it
 * (1234567 → "1,234,567"), without Intl: the first Number#toLocaleString call loads
 * ICU's number-formatting data, ≈ 5 MiB of the node binary mapped into the process for
 * good. Every count in a parameter description or a message is written with this, so
 * there is one way to do it, and none of them (the descriptions are built at import,
 * during the server's start-up) loads ICU.
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en");
  const digits = String(Math.abs(n));
  let out = "";
  for (let end = digits.length; end > 0; end -= 3) out = digits.slice(Math.max(0, end - 3), end) + (out ? "," + out : "");
  return n < 0 ? "-" + out : out;
}
