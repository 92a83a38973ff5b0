/**
 * A search's candidates are found by search id through an index (migration 5):
 * cancel ends them by `search_id`, not by a list of ids the caller must pass.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { migrate } from "../../src/store/migrations.js";
import { SearchRepository } from "../../src/store/searches.js";
import { EvaluationRepository } from "../../src/store/evaluations.js";

const problem = { type: "urn:xigua:problem:cancelled", title: "Cancelled", status: 409, code: "cancelled", detail: "test" };

function database(): Database.Database {
  const db = new Database(":memory:");
  migrate(db);
  return db;
}

test("migration 5 indexes evaluations by search; ending a search's candidates uses it", () => {
  const db = new Database(":memory:");
  migrate(db, 4);
  const indexed = () => (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND name = 'evaluations_search'").get() as { n: number }).n;
  assert.equal(indexed(), 0);
  migrate(db);
  assert.equal(indexed(), 1);
  const plan = db.prepare("EXPLAIN QUERY PLAN UPDATE evaluations SET status = 'cancelled' WHERE search_id = ? AND status IN ('queued', 'running')").all("sr_x") as { detail: string }[];
  assert.match(plan.map((p) => p.detail).join("\n"), /USING INDEX evaluations_search/);
});

test("cancel ends the search's unfinished candidates and no other search's", () => {
  const db = database();
  const searches = new SearchRepository(db);
  const evaluations = new EvaluationRepository(db);
  const candidate = { dataset_id: "ds_1", algorithm: "cart", task: "classification", method: "kfold", spec: { params: {} } };
  const a = searches.insertWithCandidates({ dataset_id: "ds_1", algorithm: "cart", method: "grid", scoring: "accuracy", spec: {} }, [candidate, candidate]);
  const b = searches.insertWithCandidates({ dataset_id: "ds_1", algorithm: "cart", method: "grid", scoring: "accuracy", spec: {} }, [candidate]);
  const [done, pending] = a.results!.map((r) => r.evaluation_id);
  evaluations.succeed(done, { metrics: {} });
  assert.equal(searches.cancel(a.id, problem), true);
  assert.equal(evaluations.get(done)!.status, "succeeded");
  assert.equal(evaluations.get(pending)!.status, "cancelled");
  assert.equal(evaluations.get(b.results![0].evaluation_id)!.status, "queued");
  assert.equal(searches.cancel(a.id, problem), false, "an ended search cannot be cancelled again");
});
