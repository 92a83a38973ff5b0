/** API keys and the audit trail in PostgreSQL: the SQLite repositories' statements (src/store/access.ts). */
import type pg from "pg";
import { newId, nowIso } from "../ids.js";
import { toApiKeyRecord, type ApiKeyRecord, type ApiKeyRow, type AuditRecord, type NewApiKey, type NewAuditEntry } from "../access.js";
import { changes, one, rows } from "./connection.js";

export class PgApiKeyRepository {
  constructor(private readonly pool: pg.Pool) {}

  async insert(k: NewApiKey): Promise<ApiKeyRecord> {
    const row = await one<ApiKeyRow>(
      this.pool,
      `INSERT INTO api_keys (id, name, scopes_json, rate_per_minute, salt, secret_hash, created_at, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [newId("ak"), k.name, JSON.stringify(k.scopes), k.rate_per_minute, k.salt, k.secret_hash, nowIso(), k.created_by],
    );
    return toApiKeyRecord(row!);
  }

  async get(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await one<ApiKeyRow>(this.pool, "SELECT * FROM api_keys WHERE id = $1", [id]);
    return row && toApiKeyRecord(row);
  }

  async list(limit: number, before: number | null): Promise<ApiKeyRecord[]> {
    return (await rows<ApiKeyRow>(this.pool, "SELECT * FROM api_keys WHERE seq < $1 ORDER BY seq DESC LIMIT $2", [before ?? Number.MAX_SAFE_INTEGER, limit])).map(toApiKeyRecord);
  }

  async revoke(id: string): Promise<boolean> {
    return (await changes(this.pool, "UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2", [nowIso(), id])) > 0;
  }

  async countActive(): Promise<number> {
    return (await one<{ n: number }>(this.pool, "SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL"))!.n;
  }
}

export class PgAuditRepository {
  constructor(private readonly pool: pg.Pool) {}

  async insert(e: NewAuditEntry): Promise<void> {
    await this.pool.query("INSERT INTO audit (time, key_id, action, resource_type, resource_id, request_id) VALUES ($1, $2, $3, $4, $5, $6)", [
      nowIso(),
      e.key_id,
      e.action,
      e.resource_type,
      e.resource_id,
      e.request_id,
    ]);
  }

  async list(limit: number, before: number | null): Promise<AuditRecord[]> {
    return rows<AuditRecord>(this.pool, "SELECT * FROM audit WHERE seq < $1 ORDER BY seq DESC LIMIT $2", [before ?? Number.MAX_SAFE_INTEGER, limit]);
  }
}
