/**
 * API keys and the audit trail (issue 14, Access), SQLite. A key's secret is never
 * stored: only a per-key salt and sha256(salt ‖ secret), compared by the server
 * (src/server/access/keys.ts). Revoking keeps the row (audit rows name its id).
 */
import { statementCache, type Db } from "./database.js";
import { newId, nowIso } from "./ids.js";

export interface ApiKeyRecord {
  seq: number;
  id: string;
  name: string;
  scopes: string[];
  /** Requests a minute; null = the configured default. */
  rate_per_minute: number | null;
  salt: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
  /** The key id that created it; null when authentication was off. */
  created_by: string | null;
}

export type NewApiKey = Pick<ApiKeyRecord, "name" | "scopes" | "rate_per_minute" | "salt" | "secret_hash" | "created_by">;

export interface AuditRecord {
  seq: number;
  time: string;
  key_id: string | null;
  action: string;
  resource_type: string;
  resource_id: string;
  request_id: string;
}

export type NewAuditEntry = Omit<AuditRecord, "seq" | "time">;

export interface ApiKeyRow {
  seq: number;
  id: string;
  name: string;
  scopes_json: string;
  rate_per_minute: number | null;
  salt: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
  created_by: string | null;
}

export function toApiKeyRecord(row: ApiKeyRow): ApiKeyRecord {
  const { scopes_json, ...rest } = row;
  return { ...rest, scopes: JSON.parse(scopes_json) as string[] };
}

export class ApiKeyRepository {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  insert(k: NewApiKey): ApiKeyRecord {
    const row = this.sql(
      `INSERT INTO api_keys (id, name, scopes_json, rate_per_minute, salt, secret_hash, created_at, created_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ).get(newId("ak"), k.name, JSON.stringify(k.scopes), k.rate_per_minute, k.salt, k.secret_hash, nowIso(), k.created_by) as ApiKeyRow;
    return toApiKeyRecord(row);
  }

  get(id: string): ApiKeyRecord | undefined {
    const row = this.sql("SELECT * FROM api_keys WHERE id = ?").get(id) as ApiKeyRow | undefined;
    return row && toApiKeyRecord(row);
  }

  /** Newest first, revoked keys included (they say when). */
  list(limit: number, before: number | null): ApiKeyRecord[] {
    return (this.sql("SELECT * FROM api_keys WHERE seq < ? ORDER BY seq DESC LIMIT ?").all(before ?? Number.MAX_SAFE_INTEGER, limit) as ApiKeyRow[]).map(toApiKeyRecord);
  }

  /** Whether the key exists; a key revoked before keeps its first revocation time. */
  revoke(id: string): boolean {
    return this.sql("UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?").run(nowIso(), id).changes > 0;
  }

  countActive(): number {
    return (this.sql("SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL").get() as { n: number }).n;
  }
}

export class AuditRepository {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  insert(e: NewAuditEntry): void {
    this.sql("INSERT INTO audit (time, key_id, action, resource_type, resource_id, request_id) VALUES (?, ?, ?, ?, ?, ?)").run(
      nowIso(),
      e.key_id,
      e.action,
      e.resource_type,
      e.resource_id,
      e.request_id,
    );
  }

  /** Newest first. */
  list(limit: number, before: number | null): AuditRecord[] {
    return this.sql("SELECT * FROM audit WHERE seq < ? ORDER BY seq DESC LIMIT ?").all(before ?? Number.MAX_SAFE_INTEGER, limit) as AuditRecord[];
  }
}
