/**
 * Idempotency keys in PostgreSQL (see src/store/idempotency.ts). The claim is
 * INSERT … ON CONFLICT DO NOTHING: of processes inserting one key at once, the
 * unique index lets exactly one row in, and the others read it.
 */
import type pg from "pg";
import { toIdempotencyEntry, type ClaimResult, type IdempotencyClaim, type IdempotencyRow, type StoredResponse } from "../idempotency.js";
import { changes, one } from "./connection.js";

/** A claim that lost to a row released before it could be read tries again, at most this often. */
const CLAIM_ATTEMPTS = 5;

export class PgIdempotencyRepository {
  constructor(private readonly pool: pg.Pool) {}

  async claim(c: IdempotencyClaim): Promise<ClaimResult> {
    await changes(this.pool, "DELETE FROM idempotency_keys WHERE principal = $1 AND key = $2 AND created_at < $3", [c.principal, c.key, c.expiredBefore]);
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const inserted = await changes(this.pool, "INSERT INTO idempotency_keys (principal, key, fingerprint, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING", [
        c.principal,
        c.key,
        c.fingerprint,
        c.now,
      ]);
      if (inserted === 1) return { claimed: true };
      const row = await one<IdempotencyRow>(
        this.pool,
        "SELECT fingerprint, created_at, response_status, response_body, response_headers FROM idempotency_keys WHERE principal = $1 AND key = $2",
        [c.principal, c.key],
      );
      if (row) return { claimed: false, entry: toIdempotencyEntry(row) };
    }
    throw new Error(`idempotency key claim did not settle after ${CLAIM_ATTEMPTS} attempts`);
  }

  async complete(principal: string, key: string, response: StoredResponse): Promise<void> {
    await changes(
      this.pool,
      "UPDATE idempotency_keys SET response_status = $1, response_body = $2, response_headers = $3 WHERE principal = $4 AND key = $5 AND response_status IS NULL",
      [response.status, response.body, JSON.stringify(response.headers), principal, key],
    );
  }

  async release(principal: string, key: string): Promise<void> {
    await changes(this.pool, "DELETE FROM idempotency_keys WHERE principal = $1 AND key = $2 AND response_status IS NULL", [principal, key]);
  }

  purgeExpired(expiredBefore: string): Promise<number> {
    return changes(this.pool, "DELETE FROM idempotency_keys WHERE created_at < $1", [expiredBefore]);
  }
}
