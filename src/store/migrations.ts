/**
 * Numbered migrations; PRAGMA user_version holds how many have run. Append only:
 * a shipped migration is never edited, a change is a new entry.
 */
import type { Db } from "./database.js";

/** SQL, or a function for a change SQL alone cannot make in linear time (cutting blobs into chunks). */
type Migration = string | ((db: Db) => void);

const MIGRATIONS: readonly Migration[] = [
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
  // 4: column values in row chunks and categorical levels in chunks (a page of rows reads
  // a few chunks, not whole columns); per-column summaries, a head of them with the count
  // on the dataset row and the full list in its own table (a listing must not read or
  // parse every column's summary).
  chunkDatasetColumns,
  // 5: a search's candidates by search (cancel and recovery end them by search id).
  `
  CREATE INDEX evaluations_search ON evaluations(search_id);
  `,
  // 6: a dataset is written in several short transactions (a 50M-cell upload in one held the
  // write lock ~1.5 s, stalling every write of the request thread); until its last one it is
  // incomplete, invisible to reads, and removed at start-up if its writer died.
  `
  ALTER TABLE datasets ADD COLUMN complete INTEGER NOT NULL DEFAULT 1;
  `,
  // 7: what a fit found out about its training rows, shown as model fields (n_clusters,
  // noise_count, labelled_rows, unlabelled_rows): not metrics, which are the validation's.
  `
  ALTER TABLE models ADD COLUMN facts_json TEXT;
  `,
  // 8: API keys (a salted hash of the secret, never the secret; revoked rows kept) and the
  // audit trail of who created or deleted what (issue 14, Access).
  `
  CREATE TABLE api_keys (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    scopes_json TEXT NOT NULL,
    rate_per_minute INTEGER,
    salt TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    created_by TEXT
  );
  CREATE TABLE audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    time TEXT NOT NULL,
    key_id TEXT,
    action TEXT NOT NULL,
    resource_type TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    request_id TEXT NOT NULL
  );
  `,
  // 9: the registry. A named model's version is 1 + the highest of its name (existing named
  // models numbered in creation order); aliases point at a version of a name.
  `
  ALTER TABLE models ADD COLUMN version INTEGER;
  UPDATE models SET version = numbered.v
    FROM (SELECT id, row_number() OVER (PARTITION BY name ORDER BY seq) AS v FROM models WHERE name IS NOT NULL) AS numbered
    WHERE models.id = numbered.id;
  CREATE UNIQUE INDEX models_name_version ON models(name, version);
  CREATE TABLE registry_aliases (
    name TEXT NOT NULL,
    alias TEXT NOT NULL,
    version INTEGER NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (name, alias)
  );
  `,
  // 10: lineage of a dataset a model made from another (POST /v1/models/{id}/transform):
  // {"model_id", "dataset_id"} as JSON; NULL for an upload.
  `
  ALTER TABLE datasets ADD COLUMN source_json TEXT;
  `,
  // 11: Idempotency-Key claims and the responses retries get (src/store/idempotency.ts); evaluations by status for the jobs gauge.
  `
  CREATE TABLE idempotency_keys (
    principal TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    created_at TEXT NOT NULL,
    response_status INTEGER,
    response_body TEXT,
    response_headers TEXT,
    PRIMARY KEY (principal, key)
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
  CREATE INDEX evaluations_status ON evaluations(status);
  `,
];

/** Chunk sizes of the datasets migration 4 converts; each dataset records its own (chunk_rows, level_chunk). */
const MIGRATION_4_CHUNK_ROWS = 8192;
const MIGRATION_4_LEVEL_CHUNK = 1024;
const MIGRATION_4_HEAD_COLUMNS = 100;
const MIGRATION_4_HEAD_LEVELS = 100;

/** A column summary as clients see it (levels bounded, with their count); a frozen copy of the store's rule of that time. */
function migration4Info(info: { levels?: unknown[] } | undefined): object {
  if (!info?.levels) return info ?? {};
  return { ...info, levels: info.levels.slice(0, MIGRATION_4_HEAD_LEVELS), level_count: info.levels.length };
}

function chunkDatasetColumns(db: Db): void {
  db.exec(`
    CREATE TABLE dataset_chunks (
      dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      chunk INTEGER NOT NULL,
      data BLOB NOT NULL,
      PRIMARY KEY (dataset_id, position, chunk)
    );
    CREATE TABLE dataset_levels (
      dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      chunk INTEGER NOT NULL,
      levels_json TEXT NOT NULL,
      PRIMARY KEY (dataset_id, position, chunk)
    );
    CREATE TABLE dataset_summaries (
      dataset_id TEXT PRIMARY KEY REFERENCES datasets(id) ON DELETE CASCADE,
      columns_json TEXT NOT NULL
    );
    ALTER TABLE dataset_columns ADD COLUMN info_json TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE dataset_columns ADD COLUMN level_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE datasets ADD COLUMN column_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE datasets ADD COLUMN columns_head_json TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE datasets ADD COLUMN chunk_rows INTEGER NOT NULL DEFAULT ${MIGRATION_4_CHUNK_ROWS};
    ALTER TABLE datasets ADD COLUMN level_chunk INTEGER NOT NULL DEFAULT ${MIGRATION_4_LEVEL_CHUNK};
  `);
  const datasets = db.prepare("SELECT id, columns_json FROM datasets").all() as { id: string; columns_json: string }[];
  const setHead = db.prepare("UPDATE datasets SET column_count = ?, columns_head_json = ? WHERE id = ?");
  const setInfo = db.prepare("UPDATE dataset_columns SET info_json = ?, level_count = ? WHERE dataset_id = ? AND position = ?");
  const columnsOf = db.prepare("SELECT position, type FROM dataset_columns WHERE dataset_id = ? ORDER BY position");
  const storedOf = db.prepare("SELECT data, levels_json FROM dataset_columns WHERE dataset_id = ? AND position = ?");
  const insertChunk = db.prepare("INSERT INTO dataset_chunks (dataset_id, position, chunk, data) VALUES (?, ?, ?, ?)");
  const insertLevels = db.prepare("INSERT INTO dataset_levels (dataset_id, position, chunk, levels_json) VALUES (?, ?, ?, ?)");
  for (const { id, columns_json } of datasets) {
    const infos = JSON.parse(columns_json) as { levels?: unknown[] }[];
    setHead.run(infos.length, JSON.stringify(infos.slice(0, MIGRATION_4_HEAD_COLUMNS).map(migration4Info)), id);
    for (const { position, type } of columnsOf.all(id) as { position: number; type: string }[]) {
      // One column's blob in memory at a time.
      const { data, levels_json } = storedOf.get(id, position) as { data: Buffer; levels_json: string | null };
      const levels = levels_json ? (JSON.parse(levels_json) as string[]) : [];
      setInfo.run(JSON.stringify(migration4Info(infos[position])), levels.length, id, position);
      const step = MIGRATION_4_CHUNK_ROWS * (type === "numeric" ? 8 : 4);
      for (let at = 0, chunk = 0; at < data.length; at += step, chunk++) insertChunk.run(id, position, chunk, data.subarray(at, at + step));
      for (let at = 0, chunk = 0; at < levels.length; at += MIGRATION_4_LEVEL_CHUNK, chunk++) {
        insertLevels.run(id, position, chunk, JSON.stringify(levels.slice(at, at + MIGRATION_4_LEVEL_CHUNK)));
      }
    }
  }
  // Out of the datasets row: reading a listing's fields would otherwise walk the overflow pages of every full summary.
  db.exec(`
    INSERT INTO dataset_summaries (dataset_id, columns_json) SELECT id, columns_json FROM datasets;
    ALTER TABLE datasets DROP COLUMN columns_json;
    ALTER TABLE dataset_columns DROP COLUMN data;
    ALTER TABLE dataset_columns DROP COLUMN levels_json;
  `);
}

export const SCHEMA_VERSION = MIGRATIONS.length;

/** `upTo` below the latest version is for tests of a migration on data of the version before it. */
export function migrate(db: Db, upTo = MIGRATIONS.length): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`database schema version ${current} is newer than this build (${MIGRATIONS.length})`);
  }
  for (let v = current; v < upTo; v++) {
    db.transaction(() => {
      const migration = MIGRATIONS[v];
      if (typeof migration === "string") db.exec(migration);
      else migration(db);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
