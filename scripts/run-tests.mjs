// Runs every test/**/*.test.ts with node's own test runner, TypeScript loaded by tsx.
// A file list instead of a glob because Node 20's --test does not expand globs.
//
// Then the API tests run a second time on PostgreSQL (XIGUA_TEST_STORE=postgres: each test
// app gets a fresh schema of the test database). Without a reachable database that pass is
// skipped with a warning, unless XIGUA_REQUIRE_SERVICES=1 (CI), where it fails. Setting
// XIGUA_TEST_STORE yourself runs the one pass on that store only.
//
// Last, test/cluster: API and trainer processes on Redis and PostgreSQL (one file restarts
// PostgreSQL), one file at a time, after everything else; skipped the same way when Redis or
// PostgreSQL is unreachable.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import pg from "pg";
import { checkServices } from "./services.mjs";

const DATABASE_URL = process.env.XIGUA_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return collect(path);
    return name.endsWith(".test.ts") ? [path] : [];
  });
}

function run(files, env, concurrency = 2) {
  if (files.length === 0) return 0; // `node --test` with no files would run every test it finds
  const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", `--test-concurrency=${concurrency}`, ...files], {
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
const isCluster = (f) => f.startsWith(join("test", "cluster") + "/");
const first = run(files.filter((f) => !isCluster(f)), {});
const second = process.env.XIGUA_TEST_STORE ? 0 : await apiTestsOnPostgres();
const third = await clusterTests(files.filter(isCluster));
process.exit(first || second || third);

async function apiTestsOnPostgres() {
  // The API suite is what differs by store; the store contract test already covers both in the first pass.
  const apiFiles = files.filter((f) => f.startsWith(join("test", "api")));
  if (apiFiles.length === 0) return 0;
  const unreachable = await postgresUnreachable();
  if (unreachable !== null) {
    const line = "!".repeat(100);
    if (process.env.XIGUA_REQUIRE_SERVICES === "1") {
      console.error(`${line}\nPostgreSQL at ${DATABASE_URL} is not reachable (${unreachable}), and XIGUA_REQUIRE_SERVICES=1: FAILING.\n${line}`);
      return 1;
    }
    console.error(`${line}\nSKIPPED: the API tests on PostgreSQL. ${DATABASE_URL} is not reachable (${unreachable}).\nStart PostgreSQL (trust auth, database "test"), or set XIGUA_REQUIRE_SERVICES=1 to fail instead.\n${line}`);
    return 0;
  }
  console.log(`\n=== the API tests again, on PostgreSQL (${DATABASE_URL}, a schema per app) ===\n`);
  return run(apiFiles, { XIGUA_TEST_STORE: "postgres" });
}

async function clusterTests(clusterFiles) {
  if (clusterFiles.length === 0) return 0;
  const missing = await checkServices();
  const line = "!".repeat(100);
  if (missing.length > 0 && process.env.XIGUA_REQUIRE_SERVICES === "1") {
    console.error(`${line}\ntest/cluster needs ${missing.join(" and ")}, unreachable, and XIGUA_REQUIRE_SERVICES=1: FAILING.\n${line}`);
    return 1;
  }
  if (missing.length > 0) {
    console.error(`${line}\nSKIPPED: test/cluster (${clusterFiles.length} files): ${missing.join(" and ")} unreachable.\nSet XIGUA_REQUIRE_SERVICES=1 to fail instead.\n${line}`);
    return 0;
  }
  console.log("\n=== test/cluster: API and trainer processes, one file at a time ===\n");
  return run(clusterFiles, {}, 1);
}
