// Runs every test/**/*.test.ts with node's own test runner, TypeScript loaded by tsx.
// A file list instead of a glob because Node 20's --test does not expand globs.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return collect(path);
    return name.endsWith(".test.ts") ? [path] : [];
  });
}

const filter = process.argv.slice(2);
const files = collect("test").filter((f) => filter.length === 0 || filter.some((p) => f.includes(p))).sort();
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-reporter=spec", "--test-concurrency=2", ...files],
  { stdio: "inherit", env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" } },
);
process.exit(result.status ?? 1);
