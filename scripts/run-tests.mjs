// Runs every test/**/*.test.ts with node's own test runner, TypeScript loaded by tsx.
// A file list instead of a glob because Node 20's --test does not expand globs.
//
// Then the API tests run a second time on PostgreSQL (XIGUA_TEST_STORE=postgres: each test
// app gets a fresh schema of the test database). Without a reachable database that pass is
// skipped with a warning, unless XIGUA_REQUIRE_SERVICES=1 (CI), where it fails. Setting
// XIGUA_TEST_STORE yourself runs the one pass on that store only.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import pg from "pg";

const DATABASE_URL = process.env.XIGUA_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return collect(path);
    return name.endsWith(".test.ts") ? [path] : [];
  });
}

function run(files, env) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", "--test-concurrency=2", ...files], {
    stdio: "inherit",
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "silent", ...env },
  });
  return result.status ?? 1;
}

/** null when the test database answers, else why not. */
async function postgresUnreachable() {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const filter = process.argv.slice(2);
const files = collect("test").filter((f) => filter.length === 0 || filter.some((p) => f.includes(p))).sort();
const first = run(files, {});
if (process.env.XIGUA_TEST_STORE) process.exit(first);

// The API suite is what differs by store; the store contract test already covers both in the first pass.
const apiFiles = files.filter((f) => f.startsWith(join("test", "api")));
if (apiFiles.length === 0) process.exit(first);
const unreachable = await postgresUnreachable();
if (unreachable !== null) {
  const line = "!".repeat(100);
  if (process.env.XIGUA_REQUIRE_SERVICES === "1") {
    console.error(`${line}\nPostgreSQL at ${DATABASE_URL} is not reachable (${unreachable}), and XIGUA_REQUIRE_SERVICES=1: FAILING.\n${line}`);
    process.exit(1);
  }
  console.error(`${line}\nSKIPPED: the API tests on PostgreSQL. ${DATABASE_URL} is not reachable (${unreachable}).\nStart PostgreSQL (trust auth, database "test"), or set XIGUA_REQUIRE_SERVICES=1 to fail instead.\n${line}`);
  process.exit(first);
}
console.log(`\n=== the API tests again, on PostgreSQL (${DATABASE_URL}, a schema per app) ===\n`);
const second = run(apiFiles, { XIGUA_TEST_STORE: "postgres" });
process.exit(first !== 0 ? first : second);
