/**
 * The registry's migration numbers the named models that exist before it: per name, in
 * creation order, from 1; unnamed models stay without a version; the next insert goes on.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { migrate, SCHEMA_VERSION } from "../../src/store/migrations.js";
import { ModelRepository } from "../../src/store/models.js";
import { EvaluationRepository } from "../../src/store/evaluations.js";

const hasVersionColumn = (db: Database.Database) => (db.prepare("PRAGMA table_info(models)").all() as { name: string }[]).some((c) => c.name === "version");

/** The schema version that adds models.version (found, not hard-coded: migrations from other work may come before it). */
function registryMigration(): number {
  const scratch = new Database(":memory:");
  for (let v = 1; v <= SCHEMA_VERSION; v++) {
    migrate(scratch, v);
    if (hasVersionColumn(scratch)) return v;
  }
  throw new Error("no migration adds models.version");
}

test("existing named models get versions 1..n per name in creation order; the next insert takes n + 1", () => {
  const db = new Database(":memory:");
  migrate(db, registryMigration() - 1);
  const insert = db.prepare("INSERT INTO models (id, name, dataset_id, algorithm, task, target, spec_json, status, created_at) VALUES (?, ?, 'ds_1', 'cart', 'classification', 'y', ?, 'succeeded', '2026-01-01T00:00:00.000Z')");
  const names = ["b", "a", null, "b", "a", "b"];
  names.forEach((name, i) => insert.run(`md_old${i}`, name, JSON.stringify({ name })));
  migrate(db);
  const rows = db.prepare("SELECT id, version FROM models ORDER BY seq").all() as { id: string; version: number | null }[];
  assert.deepEqual(rows.map((r) => r.version), [1, 1, null, 2, 2, 3]);
  const models = new ModelRepository(db, new EvaluationRepository(db));
  const spec = { algorithm: "cart", params: {}, task: "classification", dataset_id: "ds_1", target: "y", features: ["x"], preprocessing: [], validation: { method: "none" }, seed: 1, positive_class: null, name: "b" };
  assert.equal(models.insert(spec).version, 4);
  assert.equal(models.insert({ ...spec, name: "c" }).version, 1);
});
