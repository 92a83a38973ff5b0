/** Configuration: environment variables with embedded defaults, read once at start. */
import { availableParallelism } from "node:os";
import type { StoreLocator } from "../store/store.js";

export interface Config {
  port: number;
  host: string;
  dbPath: string;
  /** postgres://… (XIGUA_DATABASE_URL): the store is PostgreSQL, and dbPath is not used. */
  databaseUrl: string | null;
  /** redis://… (XIGUA_QUEUE_URL): jobs go to a BullMQ queue that `xigua worker` processes take; otherwise they run in this process. */
  queueUrl: string | null;
  /** BullMQ queue name (XIGUA_QUEUE_NAME): API and trainer processes of one deployment share it. */
  queueName: string;
  /** A trainer's lock on a job, renewed while it runs; a trainer that died is noticed within about twice this (XIGUA_JOB_LOCK_S). */
  jobLockMs: number;
  logLevel: string;
  workers: number;
  jobTimeoutMs: number;
  workerHeapMb: number;
  bodyLimitBytes: number;
  maxCells: number;
  shutdownGraceMs: number;
  /** Loaded artifacts kept in memory for /predict (count bound). */
  modelCacheSize: number;
  /** Loaded artifacts kept in memory for /predict, MiB of their estimated size (byte bound; each compute thread keeps a quarter of it). */
  modelCacheMb: number;
  /** Threads of the compute pool for request-scoped work (large predicts, feature scores), apart from the training pool. */
  computeWorkers: number;
  /** Jobs queued or running at once; past it, new training / evaluation / search requests get 503 + Retry-After. */
  maxJobs: number;
  /** Memory budget of one job, MiB: estimated before queueing (422 past it) and enforced while it runs. */
  jobMemoryMb: number;
  /** Most rows in one /predict request; more → 413. */
  predictMaxRows: number;
  /** A compute-pool predict batch costing more (rows × started 64 KiB of model) is cut into row ranges predicted on several threads. */
  predictSplitUnits: number;
  /** Most candidates one search may evaluate; more → 422. */
  maxSearchCandidates: number;
  /** Time to receive a whole request (headers and body) once its first byte arrived; past it → 408 and the connection is closed. */
  requestTimeoutMs: number;
  /** XIGUA_AUTH: "none" (every request may do everything; the default HOST is then loopback) or "keys" (Bearer API keys with scopes). */
  auth: "none" | "keys";
  /** XIGUA_ADMIN_KEY: a secret (≥ 32 characters) accepted as an admin key (id `ak_environment`), to create the first stored keys. */
  adminKey: string | null;
  /** XIGUA_CORS_ORIGINS: origins (comma-separated) browsers may call the API from; none by default. */
  corsOrigins: string[];
  /** XIGUA_RATE_PER_MINUTE: requests a minute per key (per client address with auth off) unless the key sets its own. */
  ratePerMinute: number;
  /** XIGUA_AUTH_FAILURES_PER_MINUTE: failed authentications a minute per client address; past it → 429. */
  authFailuresPerMinute: number;
  /** XIGUA_MAX_EVENT_LOOP_DELAY_MS: event-loop delay past which requests get 503 + Retry-After (0: never). */
  maxEventLoopDelayMs: number;
  /** How long an Idempotency-Key and its stored response are kept (XIGUA_IDEMPOTENCY_TTL_S). */
  idempotencyTtlMs: number;
  /** GET /metrics on this port (XIGUA_METRICS_PORT) instead of the API port; null: on the API port. */
  metricsPort: number | null;
  /** Most distinct models the prediction counters name; the others are counted as model="other" (XIGUA_METRICS_MAX_MODELS). */
  metricsMaxModels: number;
}

export const DEFAULTS: Config = {
  port: 8080,
  // Loopback, as auth is off by default: readConfig picks 0.0.0.0 with XIGUA_AUTH=keys.
  host: "127.0.0.1",
  dbPath: "./data/xigua.db",
  databaseUrl: null,
  queueUrl: null,
  queueName: "xigua-jobs",
  jobLockMs: 30_000,
  logLevel: "info",
  workers: Math.max(1, availableParallelism() - 1),
  // A shared service: one runaway fit must not hold a worker for an hour while others queue.
  jobTimeoutMs: 15 * 60 * 1000,
  workerHeapMb: 4096,
  bodyLimitBytes: 100 * 1024 * 1024,
  maxCells: 50_000_000,
  shutdownGraceMs: 30_000,
  modelCacheSize: 64,
  modelCacheMb: 512,
  // Half the cores, but two on two or three cores, so that one large predict batch can use both (compute/pool.ts splits it).
  computeWorkers: Math.min(availableParallelism(), Math.max(2, Math.floor(availableParallelism() / 2))),
  maxJobs: 1000,
  jobMemoryMb: 4096,
  predictMaxRows: 100_000,
  // In predict.ts's cost units (rows × started 64 KiB of model): for a kNN over 75,000 × 20 training rows (≈ 12 MiB,
  // 183 units a row) about 2,200 rows, tens of milliseconds of distances, well above the split's own cost (one more hop
  // through the request thread, copies of the encoded rows and outputs); a CART of a few hundred KiB never gets there
  // within XIGUA_PREDICT_MAX_ROWS, a 100-tree forest (tens of MiB) does from about a thousand rows.
  predictSplitUnits: 400_000,
  maxSearchCandidates: 1000,
  // Long enough for a 100 MB body on a link of about 1 Mbit/s; a body that trickles or stops holds its connection no longer.
  requestTimeoutMs: 15 * 60 * 1000,
  auth: "none",
  adminKey: null,
  corsOrigins: [],
  // Ten a second per key: far above an interactive client, low enough that one runaway script cannot starve the others.
  ratePerMinute: 600,
  authFailuresPerMinute: 100,
  // A request waiting a whole second behind other work is better told to retry than queued further.
  maxEventLoopDelayMs: 1000,
  // The IETF draft's suggestion: long enough for any client's retries.
  idempotencyTtlMs: 24 * 60 * 60 * 1000,
  metricsPort: null,
  metricsMaxModels: 200,
};

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === "") return null;
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new Error(`${name} must be a URL (${protocols[0]}//…), got "${raw}"`);
  }
  if (!protocols.includes(protocol)) throw new Error(`${name} must be a ${protocols.map((p) => p + "//").join(" or ")} URL, got "${raw}"`);
  return raw;
}

function queueName(raw: string | undefined): string {
  if (raw === undefined || raw === "") return DEFAULTS.queueName;
  // BullMQ builds Redis keys as <prefix>:<name>:…; a colon in the name would break them.
  if (!/^[\w.-]{1,64}$/.test(raw)) throw new Error(`XIGUA_QUEUE_NAME must be 1-64 letters, digits, '.', '_' or '-', got "${raw}"`);
  return raw;
}

function auth(raw: string | undefined): Config["auth"] {
  if (raw === undefined || raw === "" || raw === "none") return "none";
  if (raw === "keys") return "keys";
  throw new Error(`XIGUA_AUTH must be "none" or "keys", got "${raw}"`);
}

function adminKey(raw: string | undefined): string | null {
  if (raw === undefined || raw === "") return null;
  // Shorter secrets can be guessed; `openssl rand -hex 32` gives 64 characters.
  if (raw.length < 32 || /\s/.test(raw)) throw new Error("XIGUA_ADMIN_KEY must be at least 32 characters without spaces");
  return raw;
}

function origins(raw: string | undefined): string[] {
  const list = (raw ?? "").split(",").map((o) => o.trim()).filter((o) => o !== "");
  for (const o of list) {
    let parsed: URL;
    try {
      parsed = new URL(o);
    } catch {
      throw new Error(`XIGUA_CORS_ORIGINS must list origins such as https://example.org, got "${o}"`);
    }
    if (parsed.origin !== o) throw new Error(`XIGUA_CORS_ORIGINS must list origins (scheme://host[:port], no path), got "${o}"`);
  }
  return list;
}

/**
 * An image that listens on every interface (docker/Dockerfile sets XIGUA_REQUIRE_AUTH=1)
 * must not come up open to whoever reaches it by accident: without keys the API server
 * (src/server/main.ts; a trainer serves no HTTP) refuses to start unless the operator
 * said XIGUA_ALLOW_OPEN=1.
 */
export function checkOpenAccess(config: Pick<Config, "auth">, env: NodeJS.ProcessEnv = process.env): void {
  if (env.XIGUA_REQUIRE_AUTH === "1" && config.auth === "none" && env.XIGUA_ALLOW_OPEN !== "1") {
    throw new Error("XIGUA_AUTH=none: this server would answer anyone who can reach it. Set XIGUA_AUTH=keys and XIGUA_ADMIN_KEY, or XIGUA_ALLOW_OPEN=1 to run open anyway");
  }
}

/** The store this configuration names: PostgreSQL when XIGUA_DATABASE_URL is set, else the SQLite file. */
export function storeLocator(config: Pick<Config, "dbPath" | "databaseUrl">): StoreLocator {
  return config.databaseUrl ? { kind: "postgres", url: config.databaseUrl } : { kind: "sqlite", path: config.dbPath };
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const mode = auth(env.XIGUA_AUTH);
  return {
    port: int(env, "PORT", DEFAULTS.port, 0),
    // An explicit HOST wins; otherwise an open server listens on loopback only.
    host: env.HOST || (mode === "keys" ? "0.0.0.0" : DEFAULTS.host),
    dbPath: env.XIGUA_DB || DEFAULTS.dbPath,
    databaseUrl: url(env, "XIGUA_DATABASE_URL", ["postgres:", "postgresql:"]),
    queueUrl: url(env, "XIGUA_QUEUE_URL", ["redis:", "rediss:"]),
    queueName: queueName(env.XIGUA_QUEUE_NAME),
    jobLockMs: int(env, "XIGUA_JOB_LOCK_S", DEFAULTS.jobLockMs / 1000, 1) * 1000,
    logLevel: env.LOG_LEVEL || DEFAULTS.logLevel,
    workers: int(env, "XIGUA_WORKERS", DEFAULTS.workers, 1),
    jobTimeoutMs: int(env, "XIGUA_JOB_TIMEOUT_S", DEFAULTS.jobTimeoutMs / 1000, 1) * 1000,
    workerHeapMb: int(env, "XIGUA_WORKER_HEAP_MB", DEFAULTS.workerHeapMb, 64),
    bodyLimitBytes: int(env, "XIGUA_BODY_LIMIT_MB", DEFAULTS.bodyLimitBytes / 1024 / 1024, 1) * 1024 * 1024,
    maxCells: int(env, "XIGUA_MAX_CELLS", DEFAULTS.maxCells, 1),
    shutdownGraceMs: int(env, "XIGUA_SHUTDOWN_GRACE_S", DEFAULTS.shutdownGraceMs / 1000, 0) * 1000,
    modelCacheSize: int(env, "XIGUA_MODEL_CACHE", DEFAULTS.modelCacheSize, 1),
    modelCacheMb: int(env, "XIGUA_MODEL_CACHE_MB", DEFAULTS.modelCacheMb, 1),
    computeWorkers: int(env, "XIGUA_COMPUTE_WORKERS", DEFAULTS.computeWorkers, 1),
    maxJobs: int(env, "XIGUA_MAX_JOBS", DEFAULTS.maxJobs, 1),
    jobMemoryMb: int(env, "XIGUA_JOB_MEMORY_MB", DEFAULTS.jobMemoryMb, 64),
    predictMaxRows: int(env, "XIGUA_PREDICT_MAX_ROWS", DEFAULTS.predictMaxRows, 1),
    predictSplitUnits: int(env, "XIGUA_PREDICT_SPLIT_UNITS", DEFAULTS.predictSplitUnits, 1),
    maxSearchCandidates: int(env, "XIGUA_MAX_SEARCH_CANDIDATES", DEFAULTS.maxSearchCandidates, 1),
    requestTimeoutMs: int(env, "XIGUA_REQUEST_TIMEOUT_S", DEFAULTS.requestTimeoutMs / 1000, 1) * 1000,
    auth: mode,
    adminKey: adminKey(env.XIGUA_ADMIN_KEY),
    corsOrigins: origins(env.XIGUA_CORS_ORIGINS),
    ratePerMinute: int(env, "XIGUA_RATE_PER_MINUTE", DEFAULTS.ratePerMinute, 1),
    authFailuresPerMinute: int(env, "XIGUA_AUTH_FAILURES_PER_MINUTE", DEFAULTS.authFailuresPerMinute, 1),
    maxEventLoopDelayMs: int(env, "XIGUA_MAX_EVENT_LOOP_DELAY_MS", DEFAULTS.maxEventLoopDelayMs, 0),
    idempotencyTtlMs: int(env, "XIGUA_IDEMPOTENCY_TTL_S", DEFAULTS.idempotencyTtlMs / 1000, 1) * 1000,
    metricsPort: env.XIGUA_METRICS_PORT ? int(env, "XIGUA_METRICS_PORT", 0, 0) : null,
    metricsMaxModels: int(env, "XIGUA_METRICS_MAX_MODELS", DEFAULTS.metricsMaxModels, 1),
  };
}
