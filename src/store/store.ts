/**
 * The store as the rest of the service sees it: one async repository per table,
 * no connection and no SQL. Every method returns a Promise so that a backend
 * with network round trips (PostgreSQL, issue 16) can implement the same
 * interfaces; the SQLite backend (sqlite-store.ts) answers synchronously inside
 * them. Each method is one unit of work: a backend that needs a transaction
 * keeps it inside the method, so callers never hold one across an await.
 */
import { importBeside } from "../import-beside.js";
import type { ColumnInfo, DatasetRecord, DatasetSource, DatasetSummary } from "./datasets.js";
import type { EvaluationFilters, EvaluationRecord, EvaluationResult, NewEvaluation } from "./evaluations.js";
import type { JobStatus, ModelFilters, ModelRecord, Problem, ServingRow, StepSummary, TrainingOutcome, TrainSpec } from "./models.js";
import type { RegistryEntry, SetAliasOutcome } from "./registry.js";
import type { CandidateOutcome, NewCandidate, NewSearch, SearchRecord, SearchResultRow } from "./searches.js";
import type { ApiKeyRecord, AuditRecord, NewApiKey, NewAuditEntry } from "./access.js";
import type { ClaimResult, IdempotencyClaim, StoredResponse } from "./idempotency.js";
import type { JobCount } from "./job-counts.js";
import type { Frame } from "../data/frame.js";
import { openSqliteStore } from "./sqlite-store.js";
// Imported statically (it loads the pg driver only when a PostgreSQL store is opened): under
// tsx, worker threads run this module as CommonJS, where a dynamic import() finds no TypeScript.

export interface DatasetStore {
  /** `source`: the lineage of a dataset a model made (POST /v1/models/{id}/transform); null for an upload. */
  insert(name: string, frame: Frame, columns: ColumnInfo[], source?: DatasetSource | null): Promise<DatasetSummary>;
  /** Start-up: removes datasets a dead writer left half-written; how many. */
  removeIncomplete(): Promise<number>;
  get(id: string): Promise<DatasetRecord | undefined>;
  summary(id: string): Promise<DatasetSummary | undefined>;
  list(limit: number, before: number | null): Promise<DatasetSummary[]>;
  columns(id: string, offset: number, limit: number): Promise<{ items: ColumnInfo[]; total: number } | undefined>;
  levels(id: string, column: string, offset: number, limit: number): Promise<{ items: string[]; total: number } | undefined>;
  loadRows(id: string, offset: number, limit: number): Promise<{ frame: Frame; total: number } | undefined>;
  /** Every row, for training and scoring (on a worker thread: the whole table is decoded). */
  loadFrame(id: string): Promise<Frame | undefined>;
  delete(id: string): Promise<boolean>;
}

/** The guarded transitions (markRunning, succeed, finishUnsuccessfully) return false when the row was not in the state they expect. */
export interface ModelStore {
  insert(spec: TrainSpec): Promise<ModelRecord>;
  insertImported(spec: TrainSpec, artifact: Buffer, sha256: string, classes: string[] | null, pipeline: StepSummary[]): Promise<ModelRecord>;
  get(id: string): Promise<ModelRecord | undefined>;
  list(filters: ModelFilters, limit: number, before: number | null): Promise<ModelRecord[]>;
  servingState(id: string): Promise<ServingRow | undefined>;
  getArtifact(id: string): Promise<{ artifact: Buffer; sha256: string } | undefined>;
  markRunning(id: string): Promise<boolean>;
  setProgress(id: string, progress: number): Promise<void>;
  /** The artifact, the metrics and the model's own evaluation, in one unit of work. */
  succeed(id: string, outcome: TrainingOutcome): Promise<boolean>;
  finishUnsuccessfully(id: string, status: "failed" | "cancelled", error: Problem): Promise<boolean>;
  delete(id: string): Promise<boolean>;
  /** Queued models created before `createdBefore` (ISO time), oldest first, at most `limit`. */
  queued(createdBefore: string, limit: number): Promise<string[]>;
  /** Start-up: running models fail as `interrupted`; the ids of the queued ones, to run again. */
  recover(interrupted: Problem): Promise<string[]>;
}

export interface EvaluationStore {
  insert(e: NewEvaluation): Promise<EvaluationRecord>;
  get(id: string): Promise<EvaluationRecord | undefined>;
  list(filters: EvaluationFilters, limit: number, before: number | null): Promise<EvaluationRecord[]>;
  /** Changes whenever a listed evaluation could have (the list route's ETag). */
  fingerprint(filters: EvaluationFilters): Promise<string>;
  markRunning(id: string): Promise<boolean>;
  setProgress(id: string, progress: number): Promise<void>;
  succeed(id: string, result: EvaluationResult): Promise<boolean>;
  finishUnsuccessfully(id: string, status: "failed" | "cancelled", error: Problem): Promise<boolean>;
  /** Queued evaluations that are not a search's candidates, created before `createdBefore`, oldest first. */
  queued(createdBefore: string, limit: number): Promise<string[]>;
  recover(interrupted: Problem): Promise<string[]>;
}

export interface SearchStore {
  /** The search and its queued candidate evaluations, all or none. */
  insertWithCandidates(s: NewSearch, candidates: readonly Omit<NewEvaluation, "search_id" | "status" | "result" | "model_id">[]): Promise<SearchRecord>;
  /**
   * One more queued candidate evaluation of a running search (a Bayesian search's
   * proposal) and its row at the end of the search's results, together; null (and
   * nothing inserted) when the search is not running (cancelled, failed).
   */
  appendCandidate(searchId: string, candidate: NewCandidate): Promise<SearchResultRow | null>;
  status(id: string): Promise<JobStatus | undefined>;
  candidateOutcome(evaluationId: string, metric: string): Promise<CandidateOutcome>;
  get(id: string): Promise<SearchRecord | undefined>;
  list(limit: number, before: number | null, maxResults: number): Promise<{ rows: SearchRecord[]; more: boolean }>;
  markRunning(id: string): Promise<void>;
  update(id: string, progress: number, results: SearchResultRow[]): Promise<void>;
  succeed(id: string, results: SearchResultRow[], best: SearchRecord["best"], modelId: string | null): Promise<boolean>;
  finishUnsuccessfully(id: string, status: "failed" | "cancelled", error: Problem): Promise<boolean>;
  /** The search and its candidates that have not ended, cancelled together. */
  cancel(id: string, reason: Problem): Promise<boolean>;
  recover(interrupted: Problem): Promise<void>;
}

/** API keys: the salted hash of each secret, never the secret (src/store/access.ts). */
export interface ApiKeyStore {
  insert(k: NewApiKey): Promise<ApiKeyRecord>;
  get(id: string): Promise<ApiKeyRecord | undefined>;
  /** Newest first, revoked keys included. */
  list(limit: number, before: number | null): Promise<ApiKeyRecord[]>;
  /** Sets revoked_at (kept if already set); false for an unknown id. */
  revoke(id: string): Promise<boolean>;
  /** Keys not revoked. */
  countActive(): Promise<number>;
}

/** Who created or deleted what. */
export interface AuditStore {
  insert(e: NewAuditEntry): Promise<void>;
  /** Newest first. */
  list(limit: number, before: number | null): Promise<AuditRecord[]>;
}

/** Model names, versions and aliases: a reference resolves to a model id, read fresh each time (no cache). */
export interface RegistryStore {
  /** The highest succeeded version of the name. */
  latestSucceeded(name: string): Promise<string | undefined>;
  byVersion(name: string, version: number): Promise<string | undefined>;
  /** The version the alias names; undefined for an unknown alias. */
  byAlias(name: string, alias: string): Promise<string | undefined>;
  /** Names after `after` (exclusive) in byte order, at most `limit`. */
  list(limit: number, after: string | null): Promise<RegistryEntry[]>;
  entry(name: string): Promise<RegistryEntry | undefined>;
  /** The name's models, highest version first, below `beforeVersion` when given. */
  versions(name: string, limit: number, beforeVersion: number | null): Promise<ModelRecord[]>;
  /** Creates or moves the alias to an existing version of the name. */
  setAlias(name: string, alias: string, version: number): Promise<SetAliasOutcome>;
  deleteAlias(name: string, alias: string): Promise<boolean>;
}

/** Idempotency-Key claims and stored responses (src/store/idempotency.ts). */
export interface IdempotencyStore {
  /** Inserts the key's row, or answers the live row another request inserted (an expired one is replaced). */
  claim(c: IdempotencyClaim): Promise<ClaimResult>;
  complete(principal: string, key: string, response: StoredResponse): Promise<void>;
  /** Deletes the key's row while it has no response (its request failed); a completed row stays. */
  release(principal: string, key: string): Promise<void>;
  /** Deletes rows created before `expiredBefore`; how many. */
  purgeExpired(expiredBefore: string): Promise<number>;
}

export interface Store {
  readonly datasets: DatasetStore;
  readonly models: ModelStore;
  readonly registry: RegistryStore;
  readonly evaluations: EvaluationStore;
  readonly searches: SearchStore;
  readonly apiKeys: ApiKeyStore;
  readonly audit: AuditStore;
  readonly idempotency: IdempotencyStore;
  /** Models, evaluations and searches by status (one grouped query per table, on the status indexes). */
  jobCounts(): Promise<JobCount[]>;
  isHealthy(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Which store a process (or a worker thread) opens: plain data, so it crosses to
 * threads and child processes. XIGUA_DATABASE_URL selects PostgreSQL; otherwise
 * XIGUA_DB names the SQLite file.
 */
export type StoreLocator = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string; schema?: string };

export interface OpenStoreOptions {
  /**
   * A reader (a worker thread's own connection): never migrates, and for SQLite opens
   * the file read-only. The process's main store is a writer and migrates on open.
   */
  readonly?: boolean;
  /**
   * SQLite: this connection's page cache, KiB (better-sqlite3 builds SQLite with 16 MiB
   * per connection). PostgreSQL: ignored.
   */
  cacheKib?: number;
}

export async function openStore(locator: StoreLocator, options: OpenStoreOptions = {}): Promise<Store> {
  if (locator.kind === "sqlite") return openSqliteStore(locator.path, options);
  // Imported only when configured: pg is ≈ 2 MiB and 50 ms that a SQLite server never uses.
  const { openPostgresStore } = await importBeside<typeof import("./postgres/postgres-store.js")>(import.meta.url, "./postgres/postgres-store");
  return openPostgresStore(locator, options);
}
