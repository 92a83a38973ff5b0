/**
 * The registry: model names, their versions (models.version, taken at insert) and
 * aliases (registry_aliases: an alias names a version of a name). Reads resolve a
 * reference to a model id; nothing here is cached, so an alias moved by any process
 * sharing the store is seen by the next read.
 */
import { statementCache, type Db } from "./database.js";
import { nowIso } from "./ids.js";
import { MODEL_FIELDS, toModelRecord, type ModelRow } from "./records.js";
import type { ModelRecord } from "./models.js";

export interface RegistryEntry {
  name: string;
  /** The highest version of the name, whatever its status. */
  latest_version: number;
  /** The version `name` alone resolves to; null while none has succeeded. */
  latest_succeeded_version: number | null;
  aliases: Record<string, number>;
}

/** setAlias: done, or why not (the name has no model; the name has no such version). */
export type SetAliasOutcome = "set" | "unknown_name" | "unknown_version";

export interface NameRow {
  name: string;
  latest_version: number;
  latest_succeeded_version: number | null;
}

export interface AliasRow {
  name: string;
  alias: string;
  version: number;
}

/** Entries from a page of names and every alias of those names (both stores share this). */
export function toRegistryEntries(names: NameRow[], aliases: AliasRow[]): RegistryEntry[] {
  const byName = new Map<string, Record<string, number>>();
  for (const a of aliases) {
    let m = byName.get(a.name);
    if (!m) byName.set(a.name, (m = {}));
    m[a.alias] = a.version;
  }
  return names.map((n) => ({ ...n, aliases: byName.get(n.name) ?? {} }));
}

/** Names in byte order (both stores: SQLite's BINARY collation, PostgreSQL's "C"), so a cursor means the same in each. */
const NAMES_AFTER = `SELECT name, max(version) AS latest_version, max(CASE WHEN status = 'succeeded' THEN version END) AS latest_succeeded_version
  FROM models WHERE name IS NOT NULL AND version IS NOT NULL AND name > ? GROUP BY name ORDER BY name LIMIT ?`;

export class RegistryRepository {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(private readonly db: Db) {
    this.sql = statementCache(db);
  }

  latestSucceeded(name: string): string | undefined {
    return (this.sql("SELECT id FROM models WHERE name = ? AND status = 'succeeded' ORDER BY version DESC LIMIT 1").get(name) as { id: string } | undefined)?.id;
  }

  byVersion(name: string, version: number): string | undefined {
    return (this.sql("SELECT id FROM models WHERE name = ? AND version = ?").get(name, version) as { id: string } | undefined)?.id;
  }

  byAlias(name: string, alias: string): string | undefined {
    return (
      this.sql("SELECT m.id FROM registry_aliases a JOIN models m ON m.name = a.name AND m.version = a.version WHERE a.name = ? AND a.alias = ?").get(name, alias) as
        | { id: string }
        | undefined
    )?.id;
  }

  /** Names after `after` (exclusive) in byte order, at most `limit`, each with its aliases. */
  list(limit: number, after: string | null): RegistryEntry[] {
    const names = this.sql(NAMES_AFTER).all(after ?? "", limit) as NameRow[];
    if (!names.length) return [];
    const aliases = this.sql("SELECT name, alias, version FROM registry_aliases WHERE name >= ? AND name <= ? ORDER BY name, alias").all(names[0].name, names[names.length - 1].name) as AliasRow[];
    return toRegistryEntries(names, aliases);
  }

  entry(name: string): RegistryEntry | undefined {
    const row = this.sql(
      `SELECT name, max(version) AS latest_version, max(CASE WHEN status = 'succeeded' THEN version END) AS latest_succeeded_version
       FROM models WHERE name = ? AND version IS NOT NULL GROUP BY name`,
    ).get(name) as NameRow | undefined;
    if (!row) return undefined;
    return toRegistryEntries([row], this.sql("SELECT name, alias, version FROM registry_aliases WHERE name = ? ORDER BY alias").all(name) as AliasRow[])[0];
  }

  /** The name's models, highest version first, below `beforeVersion` when given. */
  versions(name: string, limit: number, beforeVersion: number | null): ModelRecord[] {
    const rows = this.sql(`SELECT ${MODEL_FIELDS} FROM models WHERE name = ? AND version < ? ORDER BY version DESC LIMIT ?`).all(name, beforeVersion ?? Number.MAX_SAFE_INTEGER, limit) as ModelRow[];
    return rows.map(toModelRecord);
  }

  /** Points the alias at an existing version of the name (creating or moving it), in one statement. */
  setAlias(name: string, alias: string, version: number): SetAliasOutcome {
    const changed = this.sql(
      `INSERT INTO registry_aliases (name, alias, version, updated_at)
       SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM models WHERE name = ? AND version = ?)
       ON CONFLICT (name, alias) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at`,
    ).run(name, alias, version, nowIso(), name, version).changes;
    if (changed > 0) return "set";
    return this.sql("SELECT 1 FROM models WHERE name = ? LIMIT 1").get(name) ? "unknown_version" : "unknown_name";
  }

  deleteAlias(name: string, alias: string): boolean {
    return this.sql("DELETE FROM registry_aliases WHERE name = ? AND alias = ?").run(name, alias).changes > 0;
  }
}
