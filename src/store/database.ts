/**
 * Opens the SQLite file with the pragmas every connection needs. One connection
 * per thread: the main thread writes, each training worker opens its own
 * read-only connection (better-sqlite3 handles must not cross threads).
 */
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { migrate } from "./migrations.js";

export type Db = Database.Database;

export interface OpenOptions {
  readonly?: boolean;
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  if (!options.readonly && path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  // busy_timeout first: the WAL switch itself may need to wait for another connection.
  db.pragma("busy_timeout = 5000");
  if (!options.readonly) {
    db.pragma("journal_mode = WAL");
    // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commits.
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    migrate(db);
  }
  return db;
}

/**
 * Prepared statements by SQL text, prepared once per connection: preparing costs
 * more than running a primary-key lookup, and /predict does one per request.
 */
export function statementCache(db: Db): (sql: string) => Database.Statement {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
}
