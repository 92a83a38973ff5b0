/** The registry in PostgreSQL: src/store/registry.ts, statement for statement. Names compare as bytes (COLLATE "C"), as in SQLite. */
import type pg from "pg";
import { nowIso } from "../ids.js";
import type { ModelRecord } from "../models.js";
import { MODEL_FIELDS, toModelRecord, type ModelRow } from "../records.js";
import { toRegistryEntries, type AliasRow, type NameRow, type RegistryEntry, type SetAliasOutcome } from "../registry.js";
import { changes, one, rows } from "./connection.js";

const NAME_FIELDS = `name, max(version) AS latest_version, max(CASE WHEN status = 'succeeded' THEN version END) AS latest_succeeded_version`;

export class PgRegistryRepository {
  constructor(private readonly pool: pg.Pool) {}

  async latestSucceeded(name: string): Promise<string | undefined> {
    return (await one<{ id: string }>(this.pool, "SELECT id FROM models WHERE name = $1 AND status = 'succeeded' ORDER BY version DESC LIMIT 1", [name]))?.id;
  }

  async byVersion(name: string, version: number): Promise<string | undefined> {
    return (await one<{ id: string }>(this.pool, "SELECT id FROM models WHERE name = $1 AND version = $2", [name, version]))?.id;
  }

  async byAlias(name: string, alias: string): Promise<string | undefined> {
    return (await one<{ id: string }>(this.pool, "SELECT m.id FROM registry_aliases a JOIN models m ON m.name = a.name AND m.version = a.version WHERE a.name = $1 AND a.alias = $2", [name, alias]))?.id;
  }

  async list(limit: number, after: string | null): Promise<RegistryEntry[]> {
    const names = await rows<NameRow>(
      this.pool,
      `SELECT ${NAME_FIELDS} FROM models WHERE name IS NOT NULL AND version IS NOT NULL AND name COLLATE "C" > $1 GROUP BY name ORDER BY name COLLATE "C" LIMIT $2`,
      [after ?? "", limit],
    );
    if (!names.length) return [];
    const aliases = await rows<AliasRow>(
      this.pool,
      `SELECT name, alias, version FROM registry_aliases WHERE name COLLATE "C" >= $1 AND name COLLATE "C" <= $2 ORDER BY name COLLATE "C", alias COLLATE "C"`,
      [names[0].name, names[names.length - 1].name],
    );
    return toRegistryEntries(names, aliases);
  }

  async entry(name: string): Promise<RegistryEntry | undefined> {
    const row = await one<NameRow>(this.pool, `SELECT ${NAME_FIELDS} FROM models WHERE name = $1 AND version IS NOT NULL GROUP BY name`, [name]);
    if (!row) return undefined;
    return toRegistryEntries([row], await rows<AliasRow>(this.pool, `SELECT name, alias, version FROM registry_aliases WHERE name = $1 ORDER BY alias COLLATE "C"`, [name]))[0];
  }

  async versions(name: string, limit: number, beforeVersion: number | null): Promise<ModelRecord[]> {
    const found = await rows<ModelRow>(this.pool, `SELECT ${MODEL_FIELDS} FROM models WHERE name = $1 AND version < $2::bigint ORDER BY version DESC LIMIT $3`, [name, beforeVersion ?? Number.MAX_SAFE_INTEGER, limit]);
    return found.map(toModelRecord);
  }

  async setAlias(name: string, alias: string, version: number): Promise<SetAliasOutcome> {
    const changed = await changes(
      this.pool,
      `INSERT INTO registry_aliases (name, alias, version, updated_at)
       SELECT $1::text, $2::text, $3::integer, $4::text WHERE EXISTS (SELECT 1 FROM models WHERE name = $1 AND version = $3)
       ON CONFLICT (name, alias) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at`,
      [name, alias, version, nowIso()],
    );
    if (changed > 0) return "set";
    return (await one(this.pool, "SELECT 1 FROM models WHERE name = $1 LIMIT 1", [name])) ? "unknown_version" : "unknown_name";
  }

  async deleteAlias(name: string, alias: string): Promise<boolean> {
    return (await changes(this.pool, "DELETE FROM registry_aliases WHERE name = $1 AND alias = $2", [name, alias])) > 0;
  }
}
