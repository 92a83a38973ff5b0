/** The README's table of algorithms names exactly the registered ones (docs that drift are worse than none). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { listAlgorithms } from "../src/models/registry.js";

test("README's algorithm table = the registry", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const start = readme.indexOf("Algorithms today");
  const table = readme.slice(start, readme.indexOf("\n\n", readme.indexOf("| --- |", start)));
  const named = new Set([...table.matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]).filter((n) => !["nca", "lmnn"].includes(n)));
  const registered = new Set(listAlgorithms().map((a) => a.name));
  assert.deepEqual([...registered].filter((n) => !named.has(n)), [], "registered but not in the README");
  assert.deepEqual([...named].filter((n) => !registered.has(n)), [], "in the README but not registered");
});
