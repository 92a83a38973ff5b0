/**
 * API key strings: `xg_<id>_<secret>`, where `<id>` is the key's public id without its
 * `ak_` prefix (16 base32 characters) and `<secret>` 32 random bytes in base64url. The
 * id finds the stored row; the secret is checked against it in constant time.
 *
 * Stored: a per-key salt and sha256(salt ‖ secret). Not scrypt: a slow hash protects
 * secrets people choose and can guess, while these are 256 random bits, and a slow hash
 * would let anyone with wrong keys spend the server's CPU.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const KEY = /^xg_([0-9a-hjkmnp-tv-z]{16})_([A-Za-z0-9_-]{43})$/;

export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function newSalt(): string {
  return randomBytes(16).toString("base64url");
}

export function hashSecret(salt: string, secret: string): string {
  return createHash("sha256").update(salt).update("\0").update(secret).digest("hex");
}

/** The key a client sends, for the stored key `id` (`ak_…`) and its secret. */
export function formatKey(id: string, secret: string): string {
  return `xg_${id.slice("ak_".length)}_${secret}`;
}

/** The key id and secret of a well-formed key; null for anything else. */
export function parseKey(key: string): { id: string; secret: string } | null {
  const m = KEY.exec(key);
  return m ? { id: `ak_${m[1]}`, secret: m[2] } : null;
}

export function secretMatches(salt: string, storedHash: string, secret: string): boolean {
  const expected = Buffer.from(storedHash, "hex");
  const actual = Buffer.from(hashSecret(salt, secret), "hex");
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Constant-time equality of two strings of any lengths (their digests are compared). */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
