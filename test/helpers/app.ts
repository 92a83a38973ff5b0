/**
 * Builds the real app on a fresh store, the caller closes it: a SQLite file in a temp
 * dir, or with XIGUA_TEST_STORE=postgres a fresh schema of the test database
 * (dropped on close).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { buildApp, type BuildOptions } from "../../src/server/app.js";
import type { Config } from "../../src/server/config.js";
import type { StoreLocator } from "../../src/store/store.js";
import { openDatabase } from "../../src/store/database.js";

/** The store the API tests run on (scripts/run-tests.mjs runs them once per store). */
export const TEST_STORE: "sqlite" | "postgres" = process.env.XIGUA_TEST_STORE === "postgres" ? "postgres" : "sqlite";

/** The test database (trust auth); each app gets a schema of its own in it. */
export const TEST_DATABASE_URL = process.env.XIGUA_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestApp {
  app: FastifyInstance;
  dir: string;
  /** The SQLite file (unused under PostgreSQL, where `schema` holds the app's tables). */
  dbPath: string;
  schema: string | null;
  close(): Promise<void>;
}

/** A fresh schema name for one app (or one store of a store test). */
export function freshSchema(): string {
  return `xt_${randomBytes(6).toString("hex")}`;
}

/** A URL of the test database naming `schema` (the store creates it). */
export function schemaUrl(schema: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set("schema", schema);
  return url.toString();
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/** The app's schema, kept in its dir: a second app on the same dir (a restart) opens the first one's store, as it opens its SQLite file. */
function schemaOf(dir: string): string {
  const file = join(dir, "postgres-schema");
  if (existsSync(file)) return readFileSync(file, "utf8");
  const schema = freshSchema();
  writeFileSync(file, schema);
  return schema;
}

/** The store a test app uses, as a locator: to open it beside the app, or to hand to a JobRunner's workers. */
export function appStoreLocator(t: Pick<TestApp, "dbPath" | "schema">): StoreLocator {
  return t.schema ? { kind: "postgres", url: schemaUrl(t.schema) } : { kind: "sqlite", path: t.dbPath };
}

/** A rate no test reaches (XIGUA_RATE_PER_MINUTE for the servers tests start). */
export const UNLIMITED = 1_000_000_000;

/** `build`: the rest of buildApp's options (a logger to capture, a clock). */
export async function testApp(config: Partial<Config> = {}, dir = mkdtempSync(join(tmpdir(), "xigua-test-")), build: Omit<BuildOptions, "config"> = {}): Promise<TestApp> {
  const dbPath = join(dir, "xigua.db");
  const schema = TEST_STORE === "postgres" ? schemaOf(dir) : null;
  const databaseUrl = schema ? schemaUrl(schema) : null;
  // Tests from one address make thousands of requests (polling included), and a loaded test
  // machine may stall the event loop: neither limit applies unless a test sets it.
  const app = await buildApp({ config: { dbPath, databaseUrl, workers: 1, shutdownGraceMs: 2000, ratePerMinute: UNLIMITED, maxEventLoopDelayMs: 0, ...config }, logger: false, ...build });
  return {
    app,
    dir,
    dbPath,
    schema,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
      if (schema) await dropSchema(schema);
    },
  };
}

/**
 * A count straight from the test app's store (the Store exposes no SQL): `sql` selects
 * one row with a column `n`, on a connection of its own to the app's SQLite file or
 * PostgreSQL schema.
 */
export async function countRows(t: Pick<TestApp, "dbPath" | "schema">, sql: string): Promise<number> {
  if (t.schema === null) {
    const db = openDatabase(t.dbPath, { readonly: true });
    try {
      return (db.prepare(sql).get() as { n: number }).n;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${t.schema}` });
  await client.connect();
  try {
    return Number((await client.query(sql)).rows[0].n);
  } finally {
    await client.end();
  }
}

export function fixture(name: string): Buffer {
  return readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
}

export async function uploadCsv(app: FastifyInstance, name: string, csv: Buffer | string, query = ""): Promise<{ id: string; [k: string]: unknown }> {
  const res = await app.inject({ method: "POST", url: `/v1/datasets?name=${encodeURIComponent(name)}${query}`, headers: { "content-type": "text/csv" }, payload: csv });
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Polls a model or evaluation until it leaves queued/running. */
export async function waitFor(app: FastifyInstance, url: string, timeoutMs = 20_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.inject({ method: "GET", url });
    const body = res.json();
    if (body.status !== "queued" && body.status !== "running") return body;
    if (Date.now() > deadline) throw new Error(`${url} still ${body.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Whether the test database answers. Without it the PostgreSQL tests skip, loudly,
 * unless XIGUA_REQUIRE_SERVICES=1 (CI), where they run and fail.
 */
export async function postgresSkipReason(): Promise<string | false> {
  if (process.env.XIGUA_REQUIRE_SERVICES === "1") return false;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return false;
  } catch (e) {
    return `PostgreSQL is not reachable at ${TEST_DATABASE_URL} (${(e as Error).message}); set XIGUA_REQUIRE_SERVICES=1 to fail instead`;
  } finally {
    await client.end().catch(() => undefined);
  }
}
