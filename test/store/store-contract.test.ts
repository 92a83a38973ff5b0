/**
 * One contract, both stores (issue 16): the same operations against the SQLite and the
 * PostgreSQL store give the same records, and the guarded transitions refuse the same
 * wrong states. PostgreSQL alone: several processes migrating one fresh schema at once,
 * and a database that cannot be reached.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { MISSING_CODE, makeFrame, type Frame } from "../../src/data/frame.js";
import { summarizeColumn } from "../../src/data/summary.js";
import { CHUNK_ROWS, LEVEL_CHUNK, type ColumnInfo } from "../../src/store/datasets.js";
import type { TrainSpec, TrainingOutcome } from "../../src/store/models.js";
import { openStore, type Store } from "../../src/store/store.js";
import { PG_SCHEMA_VERSION } from "../../src/store/postgres/migrations.js";
import { StoreUnavailableError } from "../../src/store/store-errors.js";
import { TEST_DATABASE_URL, dropSchema, freshSchema, postgresSkipReason, schemaUrl } from "../helpers/app.js";

interface OpenedStore {
  store: Store;
  close(): Promise<void>;
}

const factories: { name: "sqlite" | "postgres"; skip: string | false; open(): Promise<OpenedStore> }[] = [
  {
    name: "sqlite",
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), "xigua-contract-"));
      const store = await openStore({ kind: "sqlite", path: join(dir, "x.db") });
      return { store, close: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  },
  {
    name: "postgres",
    skip: await postgresSkipReason(),
    async open() {
      const schema = freshSchema();
      const store = await openStore({ kind: "postgres", url: schemaUrl(schema) });
      return { store, close: async () => (await store.close(), await dropSchema(schema)) };
    },
  },
];

const interrupted = { type: "urn:xigua:problem:interrupted", title: "Interrupted", status: 500, code: "interrupted", detail: "restart" };
const cancelled = { type: "urn:xigua:problem:cancelled", title: "Cancelled", status: 409, code: "cancelled" };

/** Past one value chunk and one level chunk, with missing values in both column types. */
function sampleFrame(): Frame {
  const rows = CHUNK_ROWS + 1500;
  const levels = Array.from({ length: LEVEL_CHUNK + 300 }, (_, i) => `level ${String(i).padStart(5, "0")}`);
  return makeFrame([
    { type: "numeric", name: "x", values: Float64Array.from({ length: rows }, (_, i) => (i % 11 === 3 ? NaN : i * 0.1 + 1e-9 * i)) },
    { type: "categorical", name: "id", codes: Int32Array.from({ length: rows }, (_, i) => (i % 13 === 5 ? MISSING_CODE : i % levels.length)), levels },
    { type: "categorical", name: "colour", codes: Int32Array.from({ length: rows }, (_, i) => i % 3), levels: ["green", "red", "yellow"] },
  ]);
}

const columnInfos = (frame: Frame): ColumnInfo[] => frame.columns.map((c) => summarizeColumn(c) as ColumnInfo);

function spec(datasetId: string, name: string | null = null): TrainSpec {
  return { algorithm: "cart", params: { max_depth: 3 }, task: "classification", dataset_id: datasetId, target: "colour", features: ["x"], preprocessing: [], validation: { method: "holdout" }, seed: 1, positive_class: null, name };
}

function outcome(artifact: Buffer, withEvaluation: boolean): TrainingOutcome {
  return {
    artifact,
    sha256: createHash("sha256").update(artifact).digest("hex"),
    classes: ["green", "red"],
    metrics: { accuracy: 0.1 + 0.2 },
    warnings: ["one warning"],
    fitSeconds: 0.125,
    evaluation: withEvaluation ? { dataset_id: "ds_x", algorithm: "cart", task: "classification", method: "holdout", status: "succeeded", spec: { b: 1, a: 2 }, result: { metrics: { accuracy: 0.1 + 0.2 } } } : null,
    pipeline: [{ step: "impute", automatic: true, options: null, fitted: { means: [1.5] } }],
    facts: withEvaluation ? { labelled_rows: 7, unlabelled_rows: 3 } : null,
  };
}

/** What a record shows apart from its ids, sequence numbers and times (which differ between two stores by nature). */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value instanceof Float64Array || value instanceof Int32Array) return Array.from(value);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !["id", "seq", "created_at", "started_at", "finished_at", "updated_at", "version", "evaluation_id", "model_id", "dataset_id", "search_id"].includes(k))
        .map(([k, v]) => [k, comparable(v)]),
    );
  }
  return value;
}

/** Everything the dataset store answers about one dataset, through every read. */
async function datasetAnswers(store: Store, frame: Frame) {
  const names = ["first", "second", "third"];
  const summaries = [];
  for (const name of names) summaries.push(await store.datasets.insert(name, frame, columnInfos(frame)));
  const id = summaries[1].id;
  const page1 = await store.datasets.list(2, null);
  const page2 = await store.datasets.list(2, page1[1].seq);
  return {
    inserted: summaries.map(comparable),
    ids: summaries.map((s) => s.id),
    listing: [page1.map((s) => s.name), page2.map((s) => s.name)],
    get: comparable(await store.datasets.get(id)),
    summary: comparable(await store.datasets.summary(id)),
    columns: await store.datasets.columns(id, 1, 5),
    levels: [await store.datasets.levels(id, "id", LEVEL_CHUNK - 2, 5), await store.datasets.levels(id, "id", 5000, 5), await store.datasets.levels(id, "nope", 0, 5)],
    rows: [await store.datasets.loadRows(id, CHUNK_ROWS - 3, 6), await store.datasets.loadRows(id, 10_000_000, 5)].map(comparable),
    frame: comparable(await store.datasets.loadFrame(id)),
    unknown: [await store.datasets.get("ds_nope"), await store.datasets.loadFrame("ds_nope"), await store.datasets.loadRows("ds_nope", 0, 1), await store.datasets.columns("ds_nope", 0, 1)],
  };
}

const answers = new Map<string, unknown>();

for (const factory of factories) {
  describe(`${factory.name} store`, { skip: factory.skip }, () => {
    let opened: OpenedStore;
    let store: Store;
    let datasetId: string;
    before(async () => {
      opened = await factory.open();
      store = opened.store;
    });
    after(() => opened?.close());

    test("datasets: insert, then every read gives the frame and its summaries back; listing pages by seq", async () => {
      const frame = sampleFrame();
      const got = await datasetAnswers(store, frame);
      answers.set(`${factory.name}:datasets`, { ...got, ids: undefined });
      datasetId = got.ids[1];
      assert.deepEqual(got.listing, [["third", "second"], ["first"]]);
      assert.deepEqual(got.frame, comparable(frame));
      assert.equal((got.levels[0] as { total: number }).total, LEVEL_CHUNK + 300);
      assert.deepEqual((got.levels[0] as { items: string[] }).items, ["level 01022", "level 01023", "level 01024", "level 01025", "level 01026"]);
      assert.deepEqual(got.unknown, [undefined, undefined, undefined, undefined]);
      assert.equal(await store.isHealthy(), true);
    });

    test("datasets: a dataset's lineage (source) comes back from insert, get, summary and list; an upload has none", async () => {
      const frame = sampleFrame();
      const source = { model_id: "md_0000000000000001", dataset_id: datasetId };
      const made = await store.datasets.insert("projected", frame, columnInfos(frame), source);
      assert.deepEqual(made.source, source);
      assert.deepEqual((await store.datasets.get(made.id))?.source, source);
      assert.deepEqual((await store.datasets.summary(made.id))?.source, source);
      assert.deepEqual((await store.datasets.list(1, null))[0].source, source);
      assert.equal((await store.datasets.summary(datasetId))?.source, null);
      assert.equal((await store.datasets.get(datasetId))?.source, null);
      answers.set(`${factory.name}:lineage`, comparable({ made, get: await store.datasets.get(made.id) }));
      assert.equal(await store.datasets.delete(made.id), true);
    });

    test("models: queued → running → progress → succeeded, artifact bytes back exactly; guarded transitions refuse a wrong state", async () => {
      const model = await store.models.insert(spec(datasetId, "m"));
      assert.equal(model.status, "queued");
      assert.equal(await store.models.setProgress(model.id, 0.5), undefined);
      assert.equal((await store.models.get(model.id))!.progress, 0, "progress only while running");
      assert.equal(await store.models.markRunning(model.id), true);
      assert.equal(await store.models.markRunning(model.id), false);
      await store.models.setProgress(model.id, 0.375);
      assert.equal((await store.models.get(model.id))!.progress, 0.375);
      await store.models.setProgress(model.id, 7);
      assert.equal((await store.models.get(model.id))!.progress, 1, "clamped");
      const artifact = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 256));
      assert.equal(await store.models.succeed(model.id, outcome(artifact, true)), true);
      assert.equal(await store.models.succeed(model.id, outcome(artifact, true)), false, "succeeds once");
      assert.equal(await store.models.finishUnsuccessfully(model.id, "failed", interrupted), false, "an ended job stays ended");
      const done = (await store.models.get(model.id))!;
      assert.equal(done.status, "succeeded");
      assert.equal(done.metrics!.accuracy, 0.1 + 0.2);
      assert.equal(done.fit_seconds, 0.125);
      assert.deepEqual(done.facts, { labelled_rows: 7, unlabelled_rows: 3 });
      const stored = (await store.models.getArtifact(model.id))!;
      assert.ok(Buffer.isBuffer(stored.artifact));
      assert.ok(stored.artifact.equals(artifact));
      assert.equal(stored.sha256, createHash("sha256").update(artifact).digest("hex"));
      assert.deepEqual(await store.models.servingState(model.id), { status: "succeeded", artifact_sha256: stored.sha256, name: "m", version: 1 });
      const evaluation = (await store.evaluations.get(done.evaluation_id!))!;
      assert.equal(evaluation.model_id, model.id);
      assert.deepEqual(Object.keys(evaluation.spec), ["b", "a"], "JSON comes back as stored");

      // The result may overtake the "started" message: a queued model can succeed.
      const early = await store.models.insert(spec(datasetId));
      assert.equal(await store.models.succeed(early.id, outcome(Buffer.from("x"), false)), true);
      assert.equal((await store.models.get(early.id))!.evaluation_id, null);
      assert.equal(await store.models.markRunning(early.id), false);

      const gone = await store.models.insert(spec(datasetId));
      assert.equal(await store.models.finishUnsuccessfully(gone.id, "cancelled", cancelled), true);
      assert.equal(await store.models.finishUnsuccessfully(gone.id, "failed", interrupted), false);
      assert.equal(await store.models.markRunning(gone.id), false);
      assert.equal(await store.models.succeed(gone.id, outcome(Buffer.from("y"), false)), false);
      assert.deepEqual((await store.models.get(gone.id))!.error, cancelled);
      assert.equal(await store.models.getArtifact(gone.id), undefined);

      const imported = await store.models.insertImported(spec(datasetId, "imported"), Buffer.from([0, 255, 1]), "abc", null, []);
      assert.equal(imported.status, "succeeded");
      assert.deepEqual((await store.models.getArtifact(imported.id))!.artifact, Buffer.from([0, 255, 1]));

      const all = await store.models.list({}, 10, null);
      assert.deepEqual(all.map((m) => m.id), [imported.id, gone.id, early.id, model.id]);
      assert.deepEqual((await store.models.list({}, 2, all[1].seq)).map((m) => m.id), [early.id, model.id]);
      assert.deepEqual((await store.models.list({ status: "cancelled" }, 10, null)).map((m) => m.id), [gone.id]);
      assert.deepEqual((await store.models.list({ dataset_id: "ds_other" }, 10, null)).length, 0);
      answers.set(`${factory.name}:models`, comparable(all));

      assert.equal(await store.models.delete(gone.id), true);
      assert.equal(await store.models.delete(gone.id), false);
      assert.equal(await store.models.get(gone.id), undefined);
    });

    test("models and evaluations: recovery fails running jobs as interrupted and returns the queued ones in order", async () => {
      const running = await store.models.insert(spec(datasetId));
      const queued = [await store.models.insert(spec(datasetId)), await store.models.insert(spec(datasetId))];
      await store.models.markRunning(running.id);
      assert.deepEqual(await store.models.recover(interrupted), queued.map((m) => m.id));
      assert.equal((await store.models.get(running.id))!.status, "failed");
      assert.deepEqual((await store.models.get(running.id))!.error, interrupted);

      const base = { dataset_id: datasetId, algorithm: "cart", task: "classification", method: "kfold", status: "queued" as const, spec: {} };
      const evalRunning = await store.evaluations.insert(base);
      const evalQueued = await store.evaluations.insert(base);
      await store.evaluations.markRunning(evalRunning.id);
      assert.deepEqual(await store.evaluations.recover(interrupted), [evalQueued.id]);
      assert.equal((await store.evaluations.get(evalRunning.id))!.status, "failed");
      for (const m of queued) await store.models.finishUnsuccessfully(m.id, "cancelled", cancelled);
      await store.evaluations.finishUnsuccessfully(evalQueued.id, "cancelled", cancelled);
    });

    test("queued(): queued jobs created before a time, oldest first, bounded; a search's candidates are not listed", async () => {
      const [m1, m2] = [await store.models.insert(spec(datasetId)), await store.models.insert(spec(datasetId))];
      const running = await store.models.insert(spec(datasetId));
      await store.models.markRunning(running.id);
      const later = new Date(Date.now() + 60_000).toISOString();
      assert.deepEqual(await store.models.queued(later, 10), [m1.id, m2.id]);
      assert.deepEqual(await store.models.queued(later, 1), [m1.id]);
      assert.deepEqual(await store.models.queued("2000-01-01T00:00:00.000Z", 10), []);
      const base = { dataset_id: datasetId, algorithm: "cart", task: "classification", method: "kfold", status: "queued" as const, spec: {} };
      const lone = await store.evaluations.insert(base);
      const candidate = await store.evaluations.insert({ ...base, search_id: "sr_elsewhere" });
      assert.deepEqual(await store.evaluations.queued(later, 10), [lone.id]);
      for (const m of [m1, m2, running]) await store.models.finishUnsuccessfully(m.id, "cancelled", cancelled);
      for (const e of [lone, candidate]) await store.evaluations.finishUnsuccessfully(e.id, "cancelled", cancelled);
    });

    test("evaluations: list with filters and pages; the fingerprint changes when a listed evaluation does, and only then", async () => {
      const base = { algorithm: "knn", task: "classification", method: "kfold", status: "queued" as const, spec: { params: {} } };
      const a = await store.evaluations.insert({ ...base, dataset_id: "ds_a", model_id: "md_a" });
      const b = await store.evaluations.insert({ ...base, dataset_id: "ds_a" });
      const c = await store.evaluations.insert({ ...base, dataset_id: "ds_b", algorithm: "svm" });
      assert.deepEqual((await store.evaluations.list({ dataset_id: "ds_a" }, 10, null)).map((e) => e.id), [b.id, a.id]);
      assert.deepEqual((await store.evaluations.list({ model_id: "md_a" }, 10, null)).map((e) => e.id), [a.id]);
      assert.deepEqual((await store.evaluations.list({ algorithm: "knn" }, 1, b.seq)).map((e) => e.id), [a.id]);
      assert.deepEqual((await store.evaluations.list({ updated_since: c.updated_at }, 10, null)).length, 0);

      const listedA = await store.evaluations.fingerprint({ dataset_id: "ds_a" });
      const listedB = await store.evaluations.fingerprint({ dataset_id: "ds_b" });
      assert.equal(await store.evaluations.markRunning(b.id), true);
      assert.equal(await store.evaluations.markRunning(b.id), false);
      const afterRunning = await store.evaluations.fingerprint({ dataset_id: "ds_a" });
      assert.notEqual(afterRunning, listedA);
      assert.equal(await store.evaluations.fingerprint({ dataset_id: "ds_b" }), listedB, "another filter's evaluations did not change");
      await store.evaluations.setProgress(b.id, 0.25);
      const afterProgress = await store.evaluations.fingerprint({ dataset_id: "ds_a" });
      assert.notEqual(afterProgress, afterRunning);
      assert.equal((await store.evaluations.get(b.id))!.progress, 0.25);
      assert.equal(await store.evaluations.succeed(b.id, { metrics: { accuracy: 2 / 3 } }), true);
      assert.equal(await store.evaluations.succeed(b.id, { metrics: { accuracy: 0 } }), false);
      assert.notEqual(await store.evaluations.fingerprint({ dataset_id: "ds_a" }), afterProgress);
      assert.deepEqual((await store.evaluations.get(b.id))!.result, { metrics: { accuracy: 2 / 3 } });
      assert.equal(await store.evaluations.finishUnsuccessfully(c.id, "failed", interrupted), true);
      assert.equal(await store.evaluations.finishUnsuccessfully(c.id, "cancelled", cancelled), false);
      assert.equal(await store.evaluations.get("ev_nope"), undefined);
      answers.set(`${factory.name}:evaluations`, comparable(await store.evaluations.list({}, 3, null)));
    });

    test("searches: candidates queued with the search; outcomes, update, succeed, cancel, recover, list", async () => {
      const candidate = (depth: number) => ({ dataset_id: datasetId, algorithm: "cart", task: "classification", method: "kfold", spec: { params: { max_depth: depth } } });
      const newSearch = { dataset_id: datasetId, algorithm: "cart", method: "grid", scoring: "accuracy", spec: { z: 1, a: 2 } };
      const s = await store.searches.insertWithCandidates(newSearch, [candidate(1), candidate(2), candidate(3)]);
      assert.equal(s.status, "queued");
      assert.deepEqual(s.results!.map((r) => r.params), [{ max_depth: 1 }, { max_depth: 2 }, { max_depth: 3 }]);
      const [first, second, third] = s.results!.map((r) => r.evaluation_id);
      const candidates = await Promise.all([first, second, third].map(async (id) => (await store.evaluations.get(id))!));
      assert.deepEqual(candidates.map((e) => [e.status, e.search_id]), [["queued", s.id], ["queued", s.id], ["queued", s.id]]);
      assert.ok(candidates[0].seq < candidates[1].seq && candidates[1].seq < candidates[2].seq, "candidates in order");
      assert.equal(await store.searches.status(s.id), "queued");

      await store.searches.markRunning(s.id);
      assert.equal(await store.searches.status(s.id), "running");
      await store.evaluations.succeed(first, { metrics: { accuracy: 0.1 + 0.2 }, metrics_std: { accuracy: 1 / 3 }, folds: [1, 2] });
      await store.evaluations.succeed(second, { metrics: { accuracy: 0.5 } });
      await store.evaluations.finishUnsuccessfully(third, "failed", interrupted);
      assert.deepEqual(await store.searches.candidateOutcome(first, "accuracy"), { status: "succeeded", mean_score: 0.1 + 0.2, std_score: 1 / 3 });
      assert.deepEqual(await store.searches.candidateOutcome(second, "accuracy"), { status: "succeeded", mean_score: 0.5, std_score: 0 });
      assert.deepEqual(await store.searches.candidateOutcome(second, "f1"), { status: "succeeded", mean_score: null, std_score: 0 });
      assert.deepEqual(await store.searches.candidateOutcome(third, "accuracy"), { status: "failed", mean_score: null, std_score: null });
      assert.deepEqual(await store.searches.candidateOutcome("ev_nope", "accuracy"), { status: "failed", mean_score: null, std_score: null });

      const ranked = s.results!.map((r, i) => ({ ...r, mean_score: i === 0 ? 0.1 + 0.2 : null, rank: i === 0 ? 1 : null, status: "succeeded" }));
      await store.searches.update(s.id, 0.5, ranked);
      assert.equal((await store.searches.get(s.id))!.progress, 0.5);
      assert.equal(await store.searches.succeed(s.id, ranked, { params: { max_depth: 1 }, score: 0.1 + 0.2 }, null), true);
      assert.equal(await store.searches.succeed(s.id, ranked, null, null), false);
      assert.equal(await store.searches.cancel(s.id, cancelled), false, "an ended search cannot be cancelled");
      const done = (await store.searches.get(s.id))!;
      assert.deepEqual(done.best, { params: { max_depth: 1 }, score: 0.1 + 0.2 });
      assert.deepEqual(Object.keys(done.spec), ["z", "a"]);

      const toCancel = await store.searches.insertWithCandidates(newSearch, [candidate(4), candidate(5)]);
      await store.evaluations.markRunning(toCancel.results![0].evaluation_id);
      assert.equal(await store.searches.cancel(toCancel.id, cancelled), true);
      assert.equal(await store.searches.status(toCancel.id), "cancelled");
      for (const r of toCancel.results!) assert.equal((await store.evaluations.get(r.evaluation_id))!.status, "cancelled");

      const toFail = await store.searches.insertWithCandidates(newSearch, [candidate(6)]);
      assert.equal(await store.searches.finishUnsuccessfully(toFail.id, "failed", interrupted), true);
      assert.equal(await store.searches.finishUnsuccessfully(toFail.id, "failed", interrupted), false);

      const orphaned = await store.searches.insertWithCandidates(newSearch, [candidate(7), candidate(8)]);
      await store.searches.markRunning(orphaned.id);
      await store.searches.recover(interrupted);
      assert.equal(await store.searches.status(orphaned.id), "failed");
      for (const r of orphaned.results!) assert.equal((await store.evaluations.get(r.evaluation_id))!.status, "failed");
      assert.equal((await store.evaluations.get(toFail.results![0].evaluation_id))!.status, "failed", "a candidate of an ended search is ended too");
      assert.equal((await store.evaluations.get(first))!.status, "succeeded");

      const empty = await store.searches.insertWithCandidates(newSearch, []);
      assert.deepEqual(empty.results, []);
      // Newest first, 0 + 2 + 1 + 2 + 3 candidate rows: a budget of 3 results takes three searches.
      const page = await store.searches.list(10, null, 3);
      assert.deepEqual(page.rows.map((r) => r.id), [empty.id, orphaned.id, toFail.id]);
      assert.equal(page.more, true);
      assert.deepEqual((await store.searches.list(1, page.rows[2].seq, 0)).rows.map((r) => r.id), [toCancel.id], "the first search always fits");
      assert.deepEqual((await store.searches.list(10, null, 100)).rows.length, 5);
      assert.equal(await store.searches.get("sr_nope"), undefined);
      answers.set(`${factory.name}:searches`, comparable((await store.searches.list(10, null, 100)).rows));
    });

    test("searches: appendCandidate adds a queued candidate and its results row to a running search only", async () => {
      const candidate = (c: number) => ({ dataset_id: datasetId, algorithm: "svm", task: "classification", method: "kfold", spec: { params: { C: c }, seed: 1 } });
      const newSearch = { dataset_id: datasetId, algorithm: "svm", method: "bayesian", scoring: "accuracy", spec: { candidates: 3 } };
      const s = await store.searches.insertWithCandidates(newSearch, [candidate(1)]);
      assert.equal(await store.searches.appendCandidate(s.id, candidate(2)), null, "a queued search takes no proposal");
      assert.equal((await store.searches.get(s.id))!.results!.length, 1);

      await store.searches.markRunning(s.id);
      const scored = { ...s.results![0], mean_score: 0.75, rank: 1, status: "succeeded" };
      await store.searches.update(s.id, 1 / 3, [scored]);
      const row = (await store.searches.appendCandidate(s.id, candidate(2.5)))!;
      assert.deepEqual({ ...row, evaluation_id: "" }, { params: { C: 2.5 }, mean_score: null, std_score: null, rank: null, evaluation_id: "", status: "queued" });
      const evaluation = (await store.evaluations.get(row.evaluation_id))!;
      assert.deepEqual([evaluation.status, evaluation.search_id, evaluation.algorithm, evaluation.spec], ["queued", s.id, "svm", { params: { C: 2.5 }, seed: 1 }]);
      assert.ok(evaluation.seq > (await store.evaluations.get(s.results![0].evaluation_id))!.seq);
      assert.deepEqual((await store.searches.get(s.id))!.results, [scored, row], "earlier rows kept as written, the new one last");

      assert.equal(await store.searches.cancel(s.id, cancelled), true);
      assert.equal((await store.evaluations.get(row.evaluation_id))!.status, "cancelled", "a cancel ends an appended candidate too");
      assert.equal(await store.searches.appendCandidate(s.id, candidate(3)), null, "a cancelled search takes no proposal");
      assert.equal((await store.searches.get(s.id))!.results!.length, 2);
      assert.equal(await store.searches.appendCandidate("sr_nope", candidate(3)), null);
    });

    test("api keys: insert, get, list newest first with cursors, revoke keeps the first time; audit rows newest first", async () => {
      assert.equal(await store.apiKeys.countActive(), 0);
      const a = await store.apiKeys.insert({ name: "first", scopes: ["read", "predict"], rate_per_minute: 30, salt: "s1", secret_hash: "h1", created_by: null });
      const b = await store.apiKeys.insert({ name: "second", scopes: ["admin"], rate_per_minute: null, salt: "s2", secret_hash: "h2", created_by: a.id });
      assert.match(a.id, /^ak_[0-9a-z]{16}$/);
      assert.deepEqual({ ...(await store.apiKeys.get(a.id))!, seq: 0 }, { ...a, seq: 0 });
      assert.deepEqual((await store.apiKeys.get(b.id))!.scopes, ["admin"]);
      assert.equal((await store.apiKeys.get(b.id))!.created_by, a.id);
      assert.equal(await store.apiKeys.get("ak_nope"), undefined);
      assert.deepEqual((await store.apiKeys.list(1, null)).map((k) => k.id), [b.id]);
      assert.deepEqual((await store.apiKeys.list(10, b.seq)).map((k) => k.id), [a.id]);
      assert.equal(await store.apiKeys.countActive(), 2);
      assert.equal(await store.apiKeys.revoke(a.id), true);
      const revokedAt = (await store.apiKeys.get(a.id))!.revoked_at;
      assert.ok(revokedAt);
      assert.equal(await store.apiKeys.revoke(a.id), true);
      assert.equal((await store.apiKeys.get(a.id))!.revoked_at, revokedAt, "a second revocation keeps the first time");
      assert.equal(await store.apiKeys.revoke("ak_nope"), false);
      assert.equal(await store.apiKeys.countActive(), 1);

      await store.audit.insert({ key_id: a.id, action: "create", resource_type: "datasets", resource_id: "ds_1", request_id: "r1" });
      await store.audit.insert({ key_id: null, action: "delete", resource_type: "models", resource_id: "md_1", request_id: "r2" });
      const audit = await store.audit.list(10, null);
      assert.deepEqual(
        audit.map(({ key_id, action, resource_type, resource_id, request_id }) => ({ key_id, action, resource_type, resource_id, request_id })),
        [
          { key_id: null, action: "delete", resource_type: "models", resource_id: "md_1", request_id: "r2" },
          { key_id: a.id, action: "create", resource_type: "datasets", resource_id: "ds_1", request_id: "r1" },
        ],
      );
      assert.ok(!Number.isNaN(Date.parse(audit[0].time)));
      assert.deepEqual((await store.audit.list(10, audit[0].seq)).map((r) => r.request_id), ["r1"]);
      answers.set(`${factory.name}:access`, comparable({ keys: (await store.apiKeys.list(10, null)).map((k) => ({ ...k, id: undefined, created_by: k.created_by && "id", created_at: undefined, revoked_at: Boolean(k.revoked_at) })), audit: audit.map((r) => ({ ...r, key_id: r.key_id && "id", time: undefined })) }));
    });

    test("registry: versions per name (also under 10 concurrent inserts), resolution, aliases, listing in byte order", async () => {
      const done = async (name: string) => {
        const m = await store.models.insert(spec("ds_reg", name));
        await store.models.succeed(m.id, outcome(Buffer.from(`{"m":"${m.id}"}`), false));
        return m;
      };
      const b1 = await done("b-model");
      const b2 = await done("b-model");
      const b3 = await store.models.insert(spec("ds_reg", "b-model"));
      await store.models.finishUnsuccessfully(b3.id, "failed", interrupted);
      const upper = await done("B-model");
      const unnamed = await store.models.insert(spec("ds_reg"));
      assert.deepEqual([b1.version, b2.version, b3.version, upper.version, unnamed.version], [1, 2, 3, 1, null]);
      assert.equal((await store.models.get(b2.id))!.version, 2);
      const imported = await store.models.insertImported(spec("", "b-model"), Buffer.from("{}"), "0".repeat(64), null, []);
      assert.equal(imported.version, 4);

      const burst = await Promise.all(Array.from({ length: 10 }, () => store.models.insert(spec("ds_reg", "burst"))));
      assert.deepEqual(burst.map((m) => m.version).sort((x, y) => x! - y!), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

      assert.equal(await store.registry.latestSucceeded("b-model"), imported.id, "an imported model is succeeded");
      await store.models.delete(imported.id);
      assert.equal(await store.registry.latestSucceeded("b-model"), b2.id, "the failed version 3 is skipped");
      assert.equal(await store.registry.byVersion("b-model", 3), b3.id);
      assert.equal(await store.registry.byVersion("b-model", 9), undefined);
      assert.equal(await store.registry.latestSucceeded("burst"), undefined);
      assert.equal(await store.registry.latestSucceeded("nobody"), undefined);

      assert.equal(await store.registry.setAlias("b-model", "prod", 1), "set");
      assert.equal(await store.registry.byAlias("b-model", "prod"), b1.id);
      assert.equal(await store.registry.setAlias("b-model", "prod", 2), "set");
      assert.equal(await store.registry.byAlias("b-model", "prod"), b2.id);
      assert.equal(await store.registry.setAlias("b-model", "prod", 7), "unknown_version");
      assert.equal(await store.registry.setAlias("nobody", "prod", 1), "unknown_name");
      assert.equal(await store.registry.setAlias("b-model", "old", 1), "set");
      assert.equal(await store.registry.byAlias("b-model", "missing"), undefined);

      const entry = (await store.registry.entry("b-model"))!;
      assert.deepEqual(entry, { name: "b-model", latest_version: 3, latest_succeeded_version: 2, aliases: { old: 1, prod: 2 } });
      assert.equal(await store.registry.entry("nobody"), undefined);
      assert.deepEqual((await store.registry.versions("b-model", 2, null)).map((m) => m.version), [3, 2]);
      assert.deepEqual((await store.registry.versions("b-model", 2, 2)).map((m) => m.version), [1]);

      const firstPage = await store.registry.list(2, null);
      const rest = await store.registry.list(10, firstPage[firstPage.length - 1].name);
      const listed = [...firstPage, ...rest];
      // Earlier tests named their models "m" (and "search … best"); this test's names come first in byte order.
      assert.deepEqual(listed.map((e) => e.name).slice(0, 3), ["B-model", "b-model", "burst"], "byte order: upper case first");
      assert.equal(new Set(listed.map((e) => e.name)).size, listed.length, "each name once across pages");
      assert.deepEqual(listed[1].aliases, { old: 1, prod: 2 });

      assert.equal(await store.registry.deleteAlias("b-model", "old"), true);
      assert.equal(await store.registry.deleteAlias("b-model", "old"), false);
      await store.models.delete(b2.id);
      assert.equal(await store.registry.byAlias("b-model", "prod"), undefined, "deleting a version deletes its aliases");
      assert.deepEqual((await store.registry.entry("b-model"))!.aliases, {});
      const served = await store.models.servingState(b1.id);
      assert.deepEqual([served!.name, served!.version], ["b-model", 1]);
      answers.set(`${factory.name}:registry`, { entries: await store.registry.list(10, null), next: (await store.models.insert(spec("ds_reg", "b-model"))).version });
    });

    test("idempotency keys: one claim wins, the others read its row; complete, release, expiry, purge", async () => {
      const claim = (key: string, fingerprint: string, now: string, principal = "") => store.idempotency.claim({ principal, key, fingerprint, now, expiredBefore: "2026-01-01T00:00:00.000Z" });
      const results = await Promise.all(Array.from({ length: 20 }, () => claim("k1", "fp", "2026-01-02T00:00:00.000Z")));
      assert.equal(results.filter((r) => r.claimed).length, 1, "exactly one of 20 concurrent claims");
      for (const r of results) if (!r.claimed) assert.deepEqual(r.entry, { fingerprint: "fp", created_at: "2026-01-02T00:00:00.000Z", response: null });
      assert.equal((await claim("k1", "fp", "2026-01-02T00:00:00.000Z", "ak_other")).claimed, true, "keys are per principal");

      const response = { status: 201, body: '{"id":"ds_1","name":"é"}', headers: { location: "/v1/datasets/ds_1" } };
      await store.idempotency.complete("", "k1", response);
      await store.idempotency.complete("", "k1", { status: 500, body: "", headers: {} });
      const again = await claim("k1", "other", "2026-01-03T00:00:00.000Z");
      assert.deepEqual(again, { claimed: false, entry: { fingerprint: "fp", created_at: "2026-01-02T00:00:00.000Z", response } }, "completed once, the first response kept");
      await store.idempotency.release("", "k1");
      assert.equal((await claim("k1", "fp", "2026-01-03T00:00:00.000Z")).claimed, false, "release leaves a completed key");

      assert.equal((await claim("k2", "fp", "2026-01-02T00:00:00.000Z")).claimed, true);
      await store.idempotency.release("", "k2");
      assert.equal((await claim("k2", "fp2", "2026-01-02T00:00:01.000Z")).claimed, true, "a released key is free again");

      const later = (key: string) => store.idempotency.claim({ principal: "", key, fingerprint: "new", now: "2026-01-05T00:00:00.000Z", expiredBefore: "2026-01-02T12:00:00.000Z" });
      assert.equal((await later("k1")).claimed, true, "an expired row is replaced");
      assert.equal(await store.idempotency.purgeExpired("2026-01-02T12:00:00.000Z"), 2, "k2 and ak_other's k1 expired");
      assert.equal(await store.idempotency.purgeExpired("2026-01-02T12:00:00.000Z"), 0);
      answers.set(`${factory.name}:idempotency`, await later("k1"));
    });

    test("jobCounts: models, evaluations and searches by status", async () => {
      const counts = await store.jobCounts();
      const of = (kind: string, status: string) => counts.find((c) => c.kind === kind && c.status === status)?.count ?? 0;
      const models = await store.models.list({}, 100, null);
      for (const status of ["queued", "running", "succeeded", "failed", "cancelled"]) {
        assert.equal(of("model", status), models.filter((m) => m.status === status).length, `models ${status}`);
      }
      assert.ok(counts.every((c) => Number.isInteger(c.count) && c.count > 0));
      answers.set(`${factory.name}:jobCounts`, [...counts].sort((a, b) => (a.kind + a.status).localeCompare(b.kind + b.status)));
    });

    test("delete: a dataset and all its chunks go", async () => {
      assert.equal(await store.datasets.delete(datasetId), true);
      assert.equal(await store.datasets.delete(datasetId), false);
      assert.equal(await store.datasets.loadFrame(datasetId), undefined);
      assert.equal(await store.datasets.levels(datasetId, "id", 0, 1), undefined);
      assert.equal(await store.datasets.removeIncomplete(), 0);
    });
  });
}

test("both stores give the same answers", { skip: factories.find((f) => f.skip)?.skip }, () => {
  for (const part of ["datasets", "lineage", "models", "evaluations", "searches", "access", "registry", "idempotency", "jobCounts"]) {
    assert.ok(answers.has(`sqlite:${part}`) && answers.has(`postgres:${part}`), `both stores answered ${part}`);
    assert.deepEqual(answers.get(`postgres:${part}`), answers.get(`sqlite:${part}`), part);
  }
});

describe("postgres only", { skip: factories[1].skip }, () => {
  test("several processes migrating one fresh schema at once: all succeed, each migration runs once", async () => {
    const schema = freshSchema();
    try {
      const stores = await Promise.all(Array.from({ length: 3 }, () => openStore({ kind: "postgres", url: schemaUrl(schema) })));
      for (const s of stores) assert.equal(await s.isHealthy(), true);
      await Promise.all(stores.map((s) => s.close()));
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        const { rows } = await client.query(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
        assert.deepEqual(rows.map((r) => r.version), Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1));
      } finally {
        await client.end();
      }
    } finally {
      await dropSchema(schema);
    }
  });

  test("idempotency: claims from several processes' stores on one schema, one key: exactly one wins", async () => {
    const schema = freshSchema();
    const stores = await Promise.all([0, 1, 2, 3].map(() => openStore({ kind: "postgres", url: schemaUrl(schema) })));
    try {
      const claims = await Promise.all(
        stores.flatMap((s) => Array.from({ length: 5 }, () => s.idempotency.claim({ principal: "ak_x", key: "shared", fingerprint: "fp", now: "2026-01-02T00:00:00.000Z", expiredBefore: "2026-01-01T00:00:00.000Z" }))),
      );
      assert.equal(claims.filter((c) => c.claimed).length, 1);
    } finally {
      for (const s of stores) await s.close();
      await dropSchema(schema);
    }
  });

  test("a reader neither creates its schema nor migrates", async () => {
    const schema = freshSchema();
    const reader = await openStore({ kind: "postgres", url: schemaUrl(schema) }, { readonly: true });
    try {
      await assert.rejects(reader.datasets.list(1, null), /does not exist/);
    } finally {
      await reader.close();
    }
  });

  test("a database that cannot be reached: isHealthy is false, every method rejects with StoreUnavailableError", async () => {
    const url = "postgres://postgres@127.0.0.1:1/test?schema=xt_unreachable";
    await assert.rejects(openStore({ kind: "postgres", url }), StoreUnavailableError, "a writer cannot migrate");
    const reader = await openStore({ kind: "postgres", url }, { readonly: true });
    try {
      assert.equal(await reader.isHealthy(), false);
      await assert.rejects(reader.datasets.get("ds_x"), StoreUnavailableError);
      await assert.rejects(reader.models.markRunning("md_x"), StoreUnavailableError);
      await assert.rejects(reader.models.succeed("md_x", outcome(Buffer.from("x"), false)), StoreUnavailableError);
      await assert.rejects(reader.evaluations.fingerprint({}), StoreUnavailableError);
      await assert.rejects(reader.searches.cancel("sr_x", cancelled), StoreUnavailableError);
    } finally {
      await reader.close();
    }
  });

  test("a connection the server ends mid-query rejects with StoreUnavailableError; the pool then opens another", async () => {
    const schema = freshSchema();
    const store = await openStore({ kind: "postgres", url: schemaUrl(schema) });
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      assert.equal(await store.isHealthy(), true);
      // A lock of ours makes the store's query wait on the server, until the server ends its connection (57P01, as a restart would).
      await admin.query("BEGIN");
      await admin.query(`LOCK TABLE ${schema}.models IN ACCESS EXCLUSIVE MODE`);
      const waiting = assert.rejects(store.models.get("md_x"), StoreUnavailableError);
      const waiter = `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'SELECT seq, id, name, status%'`;
      // Inside a transaction pg_stat_activity is a snapshot taken at its first read: clear it before each look.
      while ((await admin.query("SELECT pg_stat_clear_snapshot()").then(() => admin.query(waiter))).rows.length === 0) await new Promise((r) => setTimeout(r, 20));
      await admin.query(`SELECT pg_terminate_backend(pid) FROM (${waiter}) AS w`);
      await waiting;
      await admin.query("ROLLBACK");
      assert.equal(await store.models.get("md_x"), undefined);
    } finally {
      await admin.end();
      await store.close();
      await dropSchema(schema);
    }
  });
});
