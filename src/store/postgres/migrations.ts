/**
 * Numbered PostgreSQL migrations; schema_migrations holds one row per migration run.
 * Append only: a shipped migration is never edited, a change is a new entry.
 *
 * Migration 1 is the SQLite schema's final state (src/store/migrations.ts, 1–6), with
 * two differences: no `datasets.complete` (a dataset is inserted in one PostgreSQL
 * transaction, so none is ever half-written), and a one-row counter for evaluation
 * versions (SQLite's max(version) + 1 is safe there only because its writes are serial).
 *
 * JSON is text, as in SQLite: records round-trip byte for byte (jsonb would reorder
 * keys) and share their row mapping (src/store/records.ts). Times are the same ISO text.
 */
import type pg from "pg";

const MIGRATIONS: readonly string[] = [
  // 1: datasets (chunked values and levels, summaries), models, evaluations, searches.
  `
  CREATE TABLE datasets (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL UNIQUE,
    name text NOT NULL,
    row_count integer NOT NULL,
    column_count integer NOT NULL,
    columns_head_json text NOT NULL,
    chunk_rows integer NOT NULL,
    level_chunk integer NOT NULL,
    created_at text NOT NULL
  );
  CREATE TABLE dataset_summaries (
    dataset_id text PRIMARY KEY REFERENCES datasets(id) ON DELETE CASCADE,
    columns_json text NOT NULL
  );
  CREATE TABLE dataset_columns (
    dataset_id text NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
    position integer NOT NULL,
    name text NOT NULL,
    type text NOT NULL CHECK (type IN ('numeric', 'categorical')),
    level_count integer NOT NULL,
    info_json text NOT NULL,
    PRIMARY KEY (dataset_id, position)
  );
  CREATE TABLE dataset_chunks (
    dataset_id text NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
    position integer NOT NULL,
    chunk integer NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (dataset_id, position, chunk)
  );
  CREATE TABLE dataset_levels (
    dataset_id text NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
    position integer NOT NULL,
    chunk integer NOT NULL,
    levels_json text NOT NULL,
    PRIMARY KEY (dataset_id, position, chunk)
  );
  CREATE TABLE models (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL UNIQUE,
    name text,
    dataset_id text NOT NULL,
    algorithm text NOT NULL,
    task text NOT NULL,
    target text,
    spec_json text NOT NULL,
    status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
    progress double precision NOT NULL DEFAULT 0,
    error_json text,
    classes_json text,
    evaluation_id text,
    metrics_json text,
    warnings_json text,
    fit_seconds double precision,
    artifact bytea,
    artifact_sha256 text,
    pipeline_json text,
    created_at text NOT NULL,
    started_at text,
    finished_at text
  );
  CREATE INDEX models_dataset ON models(dataset_id, seq);
  CREATE INDEX models_status ON models(status, seq);
  CREATE TABLE evaluations (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL UNIQUE,
    model_id text,
    dataset_id text NOT NULL,
    algorithm text NOT NULL,
    task text NOT NULL,
    method text NOT NULL,
    status text NOT NULL,
    spec_json text NOT NULL,
    result_json text,
    error_json text,
    created_at text NOT NULL,
    finished_at text,
    updated_at text NOT NULL,
    version bigint NOT NULL,
    progress double precision NOT NULL DEFAULT 0,
    search_id text
  );
  CREATE INDEX evaluations_model ON evaluations(model_id, seq);
  CREATE INDEX evaluations_dataset ON evaluations(dataset_id, seq);
  CREATE INDEX evaluations_version ON evaluations(version);
  CREATE INDEX evaluations_search ON evaluations(search_id);
  -- Each evaluation write takes the next version under this row's lock, held to its commit:
  -- versions become visible in the order they were taken, so a list's max(version) never
  -- stays put while a row under it changes.
  CREATE TABLE evaluation_version (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    version bigint NOT NULL
  );
  INSERT INTO evaluation_version (version) VALUES (0);
  CREATE TABLE searches (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL UNIQUE,
    dataset_id text NOT NULL,
    algorithm text NOT NULL,
    method text NOT NULL,
    scoring text NOT NULL,
    spec_json text NOT NULL,
    status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
    progress double precision NOT NULL DEFAULT 0,
    results_json text,
    best_json text,
    model_id text,
    error_json text,
    created_at text NOT NULL,
    started_at text,
    finished_at text
  );
  `,
  // 2: what a fit found out about its training rows (SQLite's migration 7).
  `
  ALTER TABLE models ADD COLUMN facts_json text;
  `,
  // 3: API keys and the audit trail (SQLite's migration 8, issue 14).
  `
  CREATE TABLE api_keys (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL UNIQUE,
    name text NOT NULL,
    scopes_json text NOT NULL,
    rate_per_minute integer,
    salt text NOT NULL,
    secret_hash text NOT NULL,
    created_at text NOT NULL,
    revoked_at text,
    created_by text
  );
  CREATE TABLE audit (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    time text NOT NULL,
    key_id text,
    action text NOT NULL,
    resource_type text NOT NULL,
    resource_id text NOT NULL,
    request_id text NOT NULL
  );
  `,
  // 4: the registry (SQLite's migration 9): a named model's version is 1 + the highest of its
  // name, taken under an advisory lock per name (PgModelRepository's inserts), the unique index a
  // backstop; aliases point at a version of a name.
  `
  ALTER TABLE models ADD COLUMN version integer;
  UPDATE models SET version = numbered.v
    FROM (SELECT id, row_number() OVER (PARTITION BY name ORDER BY seq) AS v FROM models WHERE name IS NOT NULL) AS numbered
    WHERE models.id = numbered.id;
  CREATE UNIQUE INDEX models_name_version ON models(name, version);
  CREATE TABLE registry_aliases (
    name text NOT NULL,
    alias text NOT NULL,
    version integer NOT NULL,
    updated_at text NOT NULL,
    PRIMARY KEY (name, alias)
  );
  `,
  // 5: lineage of a dataset a model made from another (SQLite's migration 10).
  `
  ALTER TABLE datasets ADD COLUMN source_json text;
  `,
  // 6: Idempotency-Key claims and the responses retries get (src/store/idempotency.ts); evaluations by status for the jobs gauge (SQLite's migration 11).
  `
  CREATE TABLE idempotency_keys (
    principal text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    created_at text NOT NULL,
    response_status integer,
    response_body text,
    response_headers text,
    PRIMARY KEY (principal, key)
  );
  CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
  CREATE INDEX evaluations_status ON evaluations(status);
  `,
];

export const PG_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Creates the schema if named and missing, and runs the migrations it lacks, in one
 * transaction under an advisory lock keyed by the schema: processes starting at once
 * wait for the first, then find nothing left to do.
 */
export async function migrate(client: pg.PoolClient, schema: string | null): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('xigua migrations'), hashtext(coalesce($1, current_schema(), '')))", [schema]);
    if (schema) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      // search_path named it before it existed; set again so this transaction resolves tables in it.
      await client.query(`SET LOCAL search_path TO ${schema}`);
    }
    await client.query("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
    const { rows } = await client.query<{ v: number }>("SELECT coalesce(max(version), 0) AS v FROM schema_migrations");
    const current = rows[0].v;
    if (current > MIGRATIONS.length) throw new Error(`database schema version ${current} is newer than this build (${MIGRATIONS.length})`);
    for (let v = current; v < MIGRATIONS.length; v++) {
      await client.query(MIGRATIONS[v]);
      await client.query("INSERT INTO schema_migrations (version) VALUES ($1)", [v + 1]);
    }
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  }
}
