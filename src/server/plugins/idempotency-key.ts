/**
 * The Idempotency-Key header's value (draft-ietf-httpapi-idempotency-key-header):
 * a Structured Field string, `"…"` with `\"` and `\\` escapes; a bare token of
 * visible ASCII is accepted too, as most clients send one (a UUID). Either way
 * the key is 1 to MAX_IDEMPOTENCY_KEY_LENGTH characters of printable ASCII.
 */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const BARE = /^[\x21\x23-\x7e][\x21-\x7e]*$/;
const QUOTED = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

/** The key, or null when the header is not a valid one (a repeated header is invalid: two keys name no one request). */
export function parseIdempotencyKey(header: string | string[]): string | null {
  if (typeof header !== "string") return null;
  const value = header.trim();
  let key: string;
  const quoted = QUOTED.exec(value);
  if (quoted) key = quoted[1].replace(/\\(["\\])/g, "$1");
  else if (BARE.test(value)) key = value;
  else return null;
  return key.length >= 1 && key.length <= MAX_IDEMPOTENCY_KEY_LENGTH ? key : null;
}
