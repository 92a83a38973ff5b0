/**
 * Issue 10 items 8 and 21: a page of rows reads only the chunks that hold it, and
 * listings carry a bounded head of the column summaries; migration 4 converts
 * datasets stored as one blob per column.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { rmSync } from "node:fs";
import { encodeColumn, frameRows } from "../../src/data/codec.js";
import { MISSING_CODE, makeFrame, type Frame } from "../../src/data/frame.js";
import { summarizeColumn } from "../../src/data/summary.js";
import { openDatabase, type Db } from "../../src/store/database.js";
import { DatasetRepository, HEAD_COLUMNS, HEAD_LEVELS } from "../../src/store/datasets.js";
import { migrate } from "../../src/store/migrations.js";

/** Four rows per value chunk, two levels per level chunk. */
const LAYOUT = { chunkRows: 4, levelChunk: 2 };

/** 23 rows: five full chunks of 4 and a last one of 3; missing values in both column types. */
function sampleFrame(rows = 23): Frame {
  const x = Float64Array.from({ length: rows }, (_, i) => (i % 5 === 2 ? NaN : i * 1.5 - 7));
  const codes = Int32Array.from({ length: rows }, (_, i) => (i % 7 === 3 ? MISSING_CODE : i % 3));
  const y = Float64Array.from({ length: rows }, (_, i) => (i % 4 === 0 ? NaN : -i));
  return makeFrame([
    { type: "numeric", name: "x", values: x },
    { type: "categorical", name: "colour", codes, levels: ["green", "red", "yellow"] },
    { type: "numeric", name: "y", values: y },
    // An id-like column: one level per row (levels sort as strings: "r0", "r1", "r10", …).
    { type: "categorical", name: "id", codes: Int32Array.from({ length: rows }, (_, i) => i), levels: Array.from({ length: rows }, (_, i) => `r${String(i).padStart(5, "0")}`) },
  ]);
}

function repository(db: Db = openDatabase(":memory:")): DatasetRepository {
  return new DatasetRepository(db, LAYOUT);
}

describe("DatasetRepository chunks", () => {
  test("loadFrame gives back the frame; every page equals the same rows of the whole frame", () => {
    const repo = repository();
    const frame = sampleFrame();
    const { id } = repo.insert("s", frame, frame.columns.map(summarizeColumn));
    assert.deepEqual(repo.loadFrame(id), frame);
    for (let offset = 0; offset <= 25; offset++) {
      for (const limit of [1, 2, 3, 4, 5, 9, 50]) {
        const page = repo.loadRows(id, offset, limit)!;
        assert.equal(page.total, 23);
        assert.deepEqual(frameRows(page.frame, 0, page.frame.rowCount), frameRows(frame, offset, limit), `offset ${offset}, limit ${limit}`);
      }
    }
    assert.equal(repo.loadRows("ds_missing", 0, 5), undefined);
  });

  test("a page reads only its own chunks: with every other chunk deleted it still reads, the whole frame does not", () => {
    const db = openDatabase(":memory:");
    const repo = repository(db);
    const frame = sampleFrame();
    const { id } = repo.insert("s", frame, frame.columns.map(summarizeColumn));
    // Rows 6..9 live in value chunks 1 and 2; their ids are levels 6..9, in level chunks 3 and 4.
    const removed = db.prepare("DELETE FROM dataset_chunks WHERE dataset_id = ? AND chunk NOT IN (1, 2)").run(id).changes;
    assert.equal(removed, 4 * 4);
    const removedLevels = db.prepare("DELETE FROM dataset_levels WHERE dataset_id = ? AND position = 3 AND chunk NOT IN (3, 4)").run(id).changes;
    assert.equal(removedLevels, 12 - 2);
    const page = repo.loadRows(id, 6, 4)!;
    assert.deepEqual(frameRows(page.frame, 0, 4), frameRows(frame, 6, 4));
    assert.equal(page.total, 23);
    assert.throws(() => repo.loadFrame(id), /column x has 8 stored rows, expected 23/);
    assert.throws(() => repo.loadRows(id, 0, 1), /missing stored rows 0–0/);
  });

  test("deleting a dataset deletes its chunks", () => {
    const db = openDatabase(":memory:");
    const repo = repository(db);
    const frame = sampleFrame();
    const { id } = repo.insert("s", frame, frame.columns.map(summarizeColumn));
    assert.ok(repo.delete(id));
    assert.deepEqual(db.prepare("SELECT count(*) AS n FROM dataset_chunks").get(), { n: 0 });
  });
});

describe("DatasetRepository column summaries", () => {
  test("listings carry the first HEAD_COLUMNS summaries and the count; columns() pages the rest", () => {
    const repo = repository();
    const width = HEAD_COLUMNS + 37;
    const frame = makeFrame(Array.from({ length: width }, (_, j) => ({ type: "numeric" as const, name: `c${j}`, values: Float64Array.of(j, j + 1) })));
    const infos = frame.columns.map(summarizeColumn);
    const { id } = repo.insert("wide", frame, infos);
    const [listed] = repo.list(10, null);
    assert.equal(listed.column_count, width);
    assert.deepEqual(listed.columns_head, infos.slice(0, HEAD_COLUMNS));
    assert.deepEqual(repo.summary(id), listed);
    assert.deepEqual(repo.columns(id, 95, 10), { items: infos.slice(95, 105), total: width });
    assert.deepEqual(repo.columns(id, width, 10), { items: [], total: width });
    assert.equal(repo.get(id)!.columns.length, width, "get() still describes every column, for training");
  });
});

describe("DatasetRepository levels", () => {
  test("summaries shown to clients carry HEAD_LEVELS levels and the count; get() keeps them all; levels() pages", () => {
    const repo = repository();
    const levels = Array.from({ length: HEAD_LEVELS + 20 }, (_, i) => `L${String(i).padStart(4, "0")}`);
    const col = { type: "categorical" as const, name: "c", codes: Int32Array.from(levels, (_, i) => i), levels };
    const frame = makeFrame([col]);
    const { id } = repo.insert("levels", frame, frame.columns.map(summarizeColumn));
    const [head] = repo.summary(id)!.columns_head;
    assert.deepEqual([head.levels, head.level_count], [levels.slice(0, HEAD_LEVELS), levels.length]);
    assert.deepEqual(repo.columns(id, 0, 1)!.items[0], head);
    assert.deepEqual(repo.get(id)!.columns[0].levels, levels);
    assert.deepEqual(repo.levels(id, "c", HEAD_LEVELS - 1, 5), { items: levels.slice(HEAD_LEVELS - 1, HEAD_LEVELS + 4), total: levels.length });
    assert.equal(repo.levels(id, "nope", 0, 5), undefined);
  });
});

describe("migration 4", () => {
  test("converts datasets stored as one blob per column", () => {
    const db = new Database(":memory:");
    db.pragma("foreign_keys = ON");
    migrate(db, 3);
    const frame = sampleFrame(20_000);
    const infos = frame.columns.map(summarizeColumn);
    db.prepare("INSERT INTO datasets (id, name, row_count, columns_json, created_at) VALUES ('ds_old', 'old', ?, ?, '2026-01-01T00:00:00.000Z')").run(frame.rowCount, JSON.stringify(infos));
    const insertColumn = db.prepare("INSERT INTO dataset_columns (dataset_id, position, name, type, levels_json, data) VALUES ('ds_old', ?, ?, ?, ?, ?)");
    frame.columns.forEach((c, position) => {
      const enc = encodeColumn(c);
      insertColumn.run(position, c.name, enc.type, enc.levels ? JSON.stringify(enc.levels) : null, enc.bytes);
    });
    migrate(db);
    const repo = new DatasetRepository(db);
    assert.deepEqual(repo.loadFrame("ds_old"), frame);
    const page = repo.loadRows("ds_old", 8190, 5)!;
    assert.deepEqual(frameRows(page.frame, 0, 5), frameRows(frame, 8190, 5));
    assert.equal(repo.list(10, null)[0].column_count, 4);
    const ids = infos[3].levels!;
    assert.deepEqual(repo.columns("ds_old", 1, 5)!.items, [{ ...infos[1], level_count: 3 }, infos[2], { ...infos[3], levels: ids.slice(0, HEAD_LEVELS), level_count: 20_000 }]);
    assert.deepEqual(repo.levels("ds_old", "id", 1020, 10), { items: ids.slice(1020, 1030), total: 20_000 });
    assert.deepEqual(repo.summary("ds_old")!.columns_head[1], { ...infos[1], level_count: 3 });
    const chunks = db.prepare("SELECT count(*) AS n FROM dataset_chunks WHERE dataset_id = 'ds_old'").get() as { n: number };
    assert.equal(chunks.n, 4 * Math.ceil(20_000 / 8192));
    const levelChunks = db.prepare("SELECT count(*) AS n FROM dataset_levels WHERE dataset_id = 'ds_old'").get() as { n: number };
    assert.equal(levelChunks.n, 1 + Math.ceil(20_000 / 1024));
  });
});

describe("DatasetRepository writes in short transactions", () => {
  test("another connection can write between them, and the half-written dataset is invisible until the last", (t) => {
    const path = `/tmp/xigua-insert-${process.pid}-${Date.now()}.db`;
    t.after(() => ["", "-wal", "-shm"].forEach((suffix) => rmSync(path + suffix, { force: true })));
    const writer = openDatabase(path);
    const other = openDatabase(path);
    const observer = new DatasetRepository(other, LAYOUT);
    const frame = sampleFrame(200);
    let transactions = 0;
    let sawHidden = 0;
    // Between the writer's transactions: the other connection takes the write lock at once, and reads see nothing of the new dataset.
    const original = writer.transaction.bind(writer);
    (writer as { transaction: Db["transaction"] }).transaction = ((fn: () => void) => {
      const tx = original(fn);
      return {
        immediate: () => {
          tx.immediate();
          transactions++;
          other.prepare("BEGIN IMMEDIATE").run();
          other.prepare("ROLLBACK").run();
          const pending = other.prepare("SELECT id FROM datasets WHERE complete = 0").all() as { id: string }[];
          for (const { id } of pending) {
            assert.equal(observer.get(id), undefined);
            assert.equal(observer.summary(id), undefined);
            assert.equal(observer.loadRows(id, 0, 5), undefined);
            assert.ok(!observer.list(50, null).some((d) => d.id === id));
            sawHidden++;
          }
        },
      };
    }) as unknown as Db["transaction"];
    const repo = new DatasetRepository(writer, { ...LAYOUT, writeBatchBytes: 256 });
    const { id } = repo.insert("s", frame, frame.columns.map(summarizeColumn));
    assert.ok(transactions > 10, `${transactions} transactions`);
    assert.ok(sawHidden >= transactions - 1, "every transaction but the last left the dataset hidden");
    assert.deepEqual(observer.loadFrame(id), frame);
    assert.equal(observer.removeIncomplete(), 0);
  });

  test("a dataset left incomplete by a dead writer is removed at start-up; a failed insert leaves nothing", () => {
    const db = openDatabase(":memory:");
    const repo = repository(db);
    const frame = sampleFrame();
    const { id } = repo.insert("s", frame, frame.columns.map(summarizeColumn));
    db.prepare("UPDATE datasets SET complete = 0 WHERE id = ?").run(id);
    assert.equal(repo.get(id), undefined);
    assert.equal(repo.removeIncomplete(), 1);
    assert.equal((db.prepare("SELECT COUNT(*) AS n FROM dataset_chunks").get() as { n: number }).n, 0);
    // A chunk that cannot be written (its key taken) fails the insert midway: nothing of it stays.
    db.exec("CREATE TRIGGER fail_chunk BEFORE INSERT ON dataset_chunks WHEN NEW.chunk = 3 BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    assert.throws(() => repo.insert("t", frame, frame.columns.map(summarizeColumn)), /disk full/);
    assert.equal((db.prepare("SELECT COUNT(*) AS n FROM datasets").get() as { n: number }).n, 0);
    assert.equal((db.prepare("SELECT COUNT(*) AS n FROM dataset_chunks").get() as { n: number }).n, 0);
  });
});
