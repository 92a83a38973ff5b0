/** The validation-curve form's list of values: typed as text, sent as JSON. */

/** A comma-separated list as JSON values: numbers, `null`, anything else a string (trimmed; empty items dropped). */
export function parseValues(text: string): unknown[] {
  return text
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "")
    .map((v) => (v === "null" ? null : Number.isFinite(Number(v)) ? Number(v) : v));
}
