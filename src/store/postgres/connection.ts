/**
 * The PostgreSQL connection pool and the few query helpers the repositories share.
 * Every connection starts with the store's schema as its search_path (a startup
 * option, so no extra round trip), and bigint columns (seq, version, counts) come
 * back as numbers: the service's ids of order are far below 2^53.
 */
import { createRequire } from "node:module";
import type pg from "pg";
import { StoreUnavailableError, isConnectionFailure } from "../store-errors.js";

export type Queryable = pg.Pool | pg.PoolClient;

/** Writers: the request thread's concurrent requests and job writes. Readers (a worker thread's own store) need few. */
const WRITER_CONNECTIONS = 10;
const READER_CONNECTIONS = 2;
/** A request waits this long for a connection, then fails as unavailable instead of hanging on a dead database. */
const CONNECT_TIMEOUT_MS = 3000;

/** Schema names are unquoted identifiers, so they pass through search_path and SQL text unchanged. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

const BIGINT_OID = 20;

/**
 * The driver, loaded when the first pool is made: a SQLite-only process never loads pg.
 * Not a dynamic import(): under tsx (tests, dev) worker threads load the source as
 * CommonJS, and an import() there finds no TypeScript; require works in both builds.
 */
let driver: typeof pg | undefined;
function pgDriver(): typeof pg {
  return (driver ??= createRequire(import.meta.url)("pg") as typeof pg);
}

function bigintAsNumber(driver: typeof pg): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
      oid === BIGINT_OID && format !== "binary" ? (text: string) => Number(text) : driver.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
  };
}

/** The URL pg connects with, and the schema: `locator.schema`, or a `?schema=` parameter (removed from the URL, pg would pass it on as a server setting). */
export function splitSchema(url: string, schema?: string): { url: string; schema: string | null } {
  const parsed = new URL(url);
  const fromUrl = parsed.searchParams.get("schema");
  parsed.searchParams.delete("schema");
  const name = schema ?? fromUrl ?? null;
  if (name !== null && !SCHEMA_NAME.test(name)) throw new Error(`PostgreSQL schema name must match ${SCHEMA_NAME}, got "${name}"`);
  return { url: parsed.toString(), schema: name };
}

export function createPool(url: string, schema: string | null, readonly: boolean): pg.Pool {
  const driver = pgDriver();
  const pool = new driver.Pool({
    connectionString: url,
    max: readonly ? READER_CONNECTIONS : WRITER_CONNECTIONS,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    types: bigintAsNumber(driver),
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client whose connection drops emits here; unhandled, it would crash the process. The next query finds out.
  pool.on("error", () => {});
  return pool;
}

export async function rows<T>(db: Queryable, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query(sql, params)).rows as T[];
}

export async function one<T>(db: Queryable, sql: string, params: unknown[] = []): Promise<T | undefined> {
  return (await db.query(sql, params)).rows[0] as T | undefined;
}

/** Rows an UPDATE or DELETE changed. */
export async function changes(db: Queryable, sql: string, params: unknown[] = []): Promise<number> {
  return (await db.query(sql, params)).rowCount ?? 0;
}

/** `work` on one connection between BEGIN and COMMIT; ROLLBACK on error (a connection that failed is discarded, not reused). */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (e) {
    try {
      await client.query("ROLLBACK");
    } catch (rollbackError) {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    }
    throw e;
  } finally {
    client.release(broken);
  }
}

/** The named methods of a repository, each rejecting with StoreUnavailableError when the database could not be reached. */
export function unavailableOnConnectionFailure<R extends object, K extends keyof R>(repo: R, names: readonly K[]): Pick<R, K> {
  const out = {} as Record<K, unknown>;
  for (const name of names) {
    const fn = repo[name] as (...args: unknown[]) => Promise<unknown>;
    out[name] = async (...args: unknown[]) => {
      try {
        return await fn.apply(repo, args);
      } catch (e) {
        throw asUnavailable(e);
      }
    };
  }
  return out as Pick<R, K>;
}

/** A connection failure as StoreUnavailableError; any other error as it is. */
export function asUnavailable(e: unknown): unknown {
  if (e instanceof StoreUnavailableError || !isConnectionFailure(e)) return e;
  return new StoreUnavailableError(`the PostgreSQL store is unavailable: ${(e as Error).message}`, { cause: e });
}
