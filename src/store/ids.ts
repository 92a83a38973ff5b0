import { randomBytes } from "node:crypto";

/** Opaque public ids: a type prefix and 16 random base32 characters (80 bits). */
export function newId(prefix: "ds" | "md" | "ev" | "cmp" | "sr" | "ak"): string {
  const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
  const bytes = randomBytes(16);
  let out = "";
  for (const b of bytes) out += alphabet[b & 31];
  return `${prefix}_${out}`;
}

export function nowIso(): string {
  return new Date().toISOString();
}

/** Cursors are opaque to clients: base64url of the last row's sequence number. */
export function encodeCursor(seq: number): string {
  return Buffer.from(`s:${seq}`).toString("base64url");
}

export function decodeCursor(cursor: string): number | null {
  const text = Buffer.from(cursor, "base64url").toString();
  const m = /^s:(\d{1,15})$/.exec(text);
  return m ? Number(m[1]) : null;
}
