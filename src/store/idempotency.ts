/**
 * Idempotency keys (the Idempotency-Key header, src/server/plugins/idempotency.ts):
 * one row per (principal, key). The first request claims its key by inserting the
 * row (the primary key makes the claim atomic, also across processes on
 * PostgreSQL); its response is written to the row when it is sent, and a retry is
 * answered from it. A row older than the time-to-live is treated as absent and
 * replaced; purgeExpired removes them in bulk.
 */
import { statementCache, type Db } from "./database.js";

/** What a retry is answered with: the first response's status, body and replayable headers. */
export interface StoredResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export interface IdempotencyEntry {
  /** Method, route and sha256 of the body of the request that claimed the key. */
  fingerprint: string;
  created_at: string;
  /** null while the first request is still being processed. */
  response: StoredResponse | null;
}

export type ClaimResult = { claimed: true } | { claimed: false; entry: IdempotencyEntry };

/** `principal` is the API key's id, or "" with authentication off. Times are ISO strings (they compare as text). */
export interface IdempotencyClaim {
  principal: string;
  key: string;
  fingerprint: string;
  now: string;
  /** Rows created before this are expired: a claim replaces them. */
  expiredBefore: string;
}

export interface IdempotencyRow {
  fingerprint: string;
  created_at: string;
  response_status: number | null;
  response_body: string | null;
  response_headers: string | null;
}

export function toIdempotencyEntry(row: IdempotencyRow): IdempotencyEntry {
  return {
    fingerprint: row.fingerprint,
    created_at: row.created_at,
    response:
      row.response_status === null
        ? null
        : { status: Number(row.response_status), body: row.response_body ?? "", headers: JSON.parse(row.response_headers ?? "{}") as Record<string, string> },
  };
}

export class IdempotencyRepository {
  private readonly stmt: ReturnType<typeof statementCache>;

  constructor(private readonly db: Db) {
    this.stmt = statementCache(db);
  }

  /** better-sqlite3 is synchronous: the delete of an expired row, the insert and the read are one transaction. */
  claim(c: IdempotencyClaim): ClaimResult {
    return this.db.transaction((): ClaimResult => {
      this.stmt("DELETE FROM idempotency_keys WHERE principal = ? AND key = ? AND created_at < ?").run(c.principal, c.key, c.expiredBefore);
      const inserted = this.stmt("INSERT INTO idempotency_keys (principal, key, fingerprint, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING").run(
        c.principal,
        c.key,
        c.fingerprint,
        c.now,
      );
      if (inserted.changes === 1) return { claimed: true };
      const row = this.stmt("SELECT fingerprint, created_at, response_status, response_body, response_headers FROM idempotency_keys WHERE principal = ? AND key = ?").get(
        c.principal,
        c.key,
      ) as IdempotencyRow;
      return { claimed: false, entry: toIdempotencyEntry(row) };
    })();
  }

  /** Records the response of the request that holds the claim. */
  complete(principal: string, key: string, response: StoredResponse): void {
    this.stmt("UPDATE idempotency_keys SET response_status = ?, response_body = ?, response_headers = ? WHERE principal = ? AND key = ? AND response_status IS NULL").run(
      response.status,
      response.body,
      JSON.stringify(response.headers),
      principal,
      key,
    );
  }

  /** Gives up a claim whose request failed (a completed key stays). */
  release(principal: string, key: string): void {
    this.stmt("DELETE FROM idempotency_keys WHERE principal = ? AND key = ? AND response_status IS NULL").run(principal, key);
  }

  purgeExpired(expiredBefore: string): number {
    return this.stmt("DELETE FROM idempotency_keys WHERE created_at < ?").run(expiredBefore).changes;
  }
}
