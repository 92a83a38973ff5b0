/**
 * Numbered migrations; PRAGMA user_version holds how many have run. Append only:
 * a shipped migration is never edited, a change is a new entry.
 */
import type { Db } from "./database.js";

const MIGRATIONS: readonly string[] = [
  // 1: datasets (metadata + one blob per column), models (= training jobs), evaluations.
  `
  CREATE TABLE datasets (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    row_count INTEGER NOT NULL,
    columns_json TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE dataset_columns (
    dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('numeric', 'categorical')),
    levels_json TEXT,
    data BLOB NOT NULL,
    PRIMARY KEY (dataset_id, position)
  );
  CREATE TABLE models (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    name TEXT,
    dataset_id TEXT NOT NULL,
    algorithm TEXT NOT NULL,
    task TEXT NOT NULL,
    target TEXT,
    spec_json TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
    progress REAL NOT NULL DEFAULT 0,
    error_json TEXT,
    classes_json TEXT,
    evaluation_id TEXT,
    metrics_json TEXT,
    warnings_json TEXT,
    fit_seconds REAL,
    artifact BLOB,
    artifact_sha256 TEXT,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT
  );
  CREATE INDEX models_dataset ON models(dataset_id, seq);
  CREATE INDEX models_status ON models(status, seq);
  CREATE TABLE evaluations (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    model_id TEXT,
    dataset_id TEXT NOT NULL,
    algorithm TEXT NOT NULL,
    task TEXT NOT NULL,
    method TEXT NOT NULL,
    status TEXT NOT NULL,
    spec_json TEXT NOT NULL,
    result_json TEXT,
    error_json TEXT,
    created_at TEXT NOT NULL,
    finished_at TEXT,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  );
  CREATE INDEX evaluations_model ON evaluations(model_id, seq);
  CREATE INDEX evaluations_dataset ON evaluations(dataset_id, seq);
  CREATE INDEX evaluations_version ON evaluations(version);
  `,
  // 2: progress of evaluation jobs; hyper-parameter searches.
  `
  ALTER TABLE evaluations ADD COLUMN progress REAL NOT NULL DEFAULT 0;
  ALTER TABLE evaluations ADD COLUMN search_id TEXT;
  CREATE TABLE searches (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    dataset_id TEXT NOT NULL,
    algorithm TEXT NOT NULL,
    method TEXT NOT NULL,
    scoring TEXT NOT NULL,
    spec_json TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
    progress REAL NOT NULL DEFAULT 0,
    results_json TEXT,
    best_json TEXT,
    model_id TEXT,
    error_json TEXT,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT
  );
  `,
  // 3: the fitted preprocessing steps of a model, described for people.
  `
  ALTER TABLE models ADD COLUMN pipeline_json TEXT;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: Db): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`database schema version ${current} is newer than this build (${MIGRATIONS.length})`);
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
