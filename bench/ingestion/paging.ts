/**
 * Paging and listing benchmark (issue 10 items 8 and 21), at the repository level:
 *
 *   node --import tsx bench/ingestion/paging.ts
 *
 * - a page of 50 rows from a 500,000 × 20 dataset (16 numeric, 4 categorical), and
 *   from one with an id-like column (500,000 levels): loadRows (the chunks holding
 *   the page) against loadFrame + frameRows (what the rows route did before);
 * - loadFrame of the same dataset (the training worker's path) from chunks, against
 *   decoding one blob per column (the layout before migration 4);
 * - list() of 50 datasets when one has 100,000 columns, against SELECT * + JSON.parse
 *   of every column summary (what list() did before).
 * Best of RUNS; machine and load average printed at the end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { decodeColumn, encodeColumn, frameRows } from "../../src/data/codec.js";
import { makeFrame, type Column } from "../../src/data/frame.js";
import { summarizeColumn } from "../../src/data/summary.js";
import { openDatabase } from "../../src/store/database.js";
import { DatasetRepository } from "../../src/store/datasets.js";

const ROWS = 500_000;
const RUNS = 5;

function time(fn: () => unknown): number {
  let best = Infinity;
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

const dir = mkdtempSync(join(tmpdir(), "xigua-paging-"));
try {
  const db = openDatabase(join(dir, "bench.db"));
  const repo = new DatasetRepository(db);
  let s = 7;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const columns: Column[] = Array.from({ length: 20 }, (_, j): Column =>
    j < 16
      ? { type: "numeric", name: `x${j}`, values: Float64Array.from({ length: ROWS }, () => (next() < 0.01 ? NaN : next() * 100)) }
      : { type: "categorical", name: `c${j}`, codes: Int32Array.from({ length: ROWS }, () => Math.floor(next() * 50) - 1), levels: Array.from({ length: 49 }, (_, k) => `level${k}`) },
  );
  const frame = makeFrame(columns);
  const { id } = repo.insert("big", frame, frame.columns.map(summarizeColumn));

  db.exec("CREATE TABLE old_blobs (position INTEGER PRIMARY KEY, name TEXT, type TEXT, levels_json TEXT, data BLOB)");
  const insertOld = db.prepare("INSERT INTO old_blobs VALUES (?, ?, ?, ?, ?)");
  frame.columns.forEach((c, p) => {
    const e = encodeColumn(c);
    insertOld.run(p, c.name, e.type, e.levels ? JSON.stringify(e.levels) : null, e.bytes);
  });
  const oldLoad = () =>
    (db.prepare("SELECT name, type, levels_json, data FROM old_blobs ORDER BY position").all() as { name: string; type: "numeric" | "categorical"; levels_json: string | null; data: Buffer }[]).map((r) =>
      decodeColumn(r.name, r.type, r.data, r.levels_json ? JSON.parse(r.levels_json) : undefined),
    );

  const offset = 250_003;
  const pageNew = time(() => frameRows(repo.loadRows(id, offset, 50)!.frame, 0, 50));
  const pageOld = time(() => frameRows(repo.loadFrame(id)!, offset, 50));
  const loadNew = time(() => repo.loadFrame(id));
  const loadOld = time(oldLoad);

  // An id-like categorical column: as many levels as rows.
  const ids = makeFrame([
    { type: "categorical", name: "id", codes: Int32Array.from({ length: ROWS }, (_, i) => i), levels: Array.from({ length: ROWS }, (_, i) => `customer-${String(i).padStart(7, "0")}`) },
    { type: "numeric", name: "x", values: Float64Array.from({ length: ROWS }, () => next()) },
  ]);
  const idsId = repo.insert("ids", ids, ids.columns.map(summarizeColumn)).id;
  const idPageNew = time(() => frameRows(repo.loadRows(idsId, offset, 50)!.frame, 0, 50));
  const idPageOld = time(() => frameRows(repo.loadFrame(idsId)!, offset, 50));

  const wide = makeFrame(Array.from({ length: 100_000 }, (_, j): Column => ({ type: "numeric", name: `w${j}`, values: Float64Array.of(j, j + 1, j + 2) })));
  repo.insert("wide", wide, wide.columns.map(summarizeColumn));
  for (let k = 0; k < 48; k++) repo.insert(`small${k}`, makeFrame([{ type: "numeric", name: "a", values: Float64Array.of(1, 2) }]), [summarizeColumn({ type: "numeric", name: "a", values: Float64Array.of(1, 2) })]);
  const listNew = time(() => JSON.stringify(repo.list(50, null)));
  const listOld = time(() => JSON.stringify((db.prepare("SELECT d.*, s.columns_json FROM datasets d JOIN dataset_summaries s ON s.dataset_id = d.id ORDER BY d.seq DESC LIMIT 50").all() as { columns_json: string }[]).map((r) => JSON.parse(r.columns_json))));
  const listBytes = JSON.stringify(repo.list(50, null)).length;

  const lines = [
    `| page of 50 rows at offset ${offset} of ${ROWS.toLocaleString("en")} × 20 | ${pageNew.toFixed(2)} ms (loadRows) | ${pageOld.toFixed(0)} ms (loadFrame + frameRows) |`,
    `| page of 50 rows, ${ROWS.toLocaleString("en")} rows with an id column of ${ROWS.toLocaleString("en")} levels | ${idPageNew.toFixed(2)} ms (loadRows) | ${idPageOld.toFixed(0)} ms (loadFrame + frameRows) |`,
    `| loadFrame, ${ROWS.toLocaleString("en")} × 20 (training path) | ${loadNew.toFixed(0)} ms (8192-row chunks) | ${loadOld.toFixed(0)} ms (one blob per column) |`,
    `| list 50 datasets, one with 100,000 columns | ${listNew.toFixed(1)} ms, ${(listBytes / 1024).toFixed(0)} KiB serialised | ${listOld.toFixed(0)} ms (parse every summary) |`,
  ];
  console.log(["| measurement | now | before |", "|---|---|---|", ...lines].join("\n"));
  console.log(`\n${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}, load average ${loadavg()[0].toFixed(1)}; best of ${RUNS}`);
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
