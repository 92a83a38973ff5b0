/**
 * The PostgreSQL implementation of the async store interfaces (store.ts), over a
 * pg.Pool. A writer (a process's main store) creates its schema if missing and
 * migrates; a reader (a worker thread's own store) does neither and keeps few
 * connections. Every method rejects with StoreUnavailableError when the database
 * cannot be reached, so the server can answer 503 instead of 500 or hanging.
 */
import type pg from "pg";
import { STORE_METHODS } from "../store-methods.js";
import type { ApiKeyStore, AuditStore, DatasetStore, EvaluationStore, IdempotencyStore, ModelStore, OpenStoreOptions, RegistryStore, SearchStore, Store } from "../store.js";
import { JOB_COUNTS_SQL, toJobCounts } from "../job-counts.js";
import { PgApiKeyRepository, PgAuditRepository } from "./access.js";
import { asUnavailable, createPool, rows, splitSchema, unavailableOnConnectionFailure } from "./connection.js";
import { PgIdempotencyRepository } from "./idempotency.js";
import { migrate } from "./migrations.js";
import { PgDatasetRepository } from "./datasets.js";
import { PgEvaluationRepository } from "./evaluations.js";
import { PgModelRepository } from "./models.js";
import { PgRegistryRepository } from "./registry.js";
import { PgSearchRepository } from "./searches.js";

/** isHealthy's answer within this, or false (a health probe must not hang on a dead database). */
const HEALTH_TIMEOUT_MS = 2000;

export async function openPostgresStore(locator: { url: string; schema?: string }, options: OpenStoreOptions = {}): Promise<Store> {
  const readonly = options.readonly ?? false;
  const { url, schema } = splitSchema(locator.url, locator.schema);
  const pool = createPool(url, schema, readonly);
  if (!readonly) {
    try {
      const client = await pool.connect();
      try {
        await migrate(client, schema);
      } finally {
        client.release();
      }
    } catch (e) {
      await pool.end();
      throw asUnavailable(e);
    }
  }
  return {
    datasets: unavailableOnConnectionFailure(new PgDatasetRepository(pool), STORE_METHODS.datasets) satisfies DatasetStore,
    models: unavailableOnConnectionFailure(new PgModelRepository(pool), STORE_METHODS.models) satisfies ModelStore,
    registry: unavailableOnConnectionFailure(new PgRegistryRepository(pool), STORE_METHODS.registry) satisfies RegistryStore,
    evaluations: unavailableOnConnectionFailure(new PgEvaluationRepository(pool), STORE_METHODS.evaluations) satisfies EvaluationStore,
    searches: unavailableOnConnectionFailure(new PgSearchRepository(pool), STORE_METHODS.searches) satisfies SearchStore,
    apiKeys: unavailableOnConnectionFailure(new PgApiKeyRepository(pool), STORE_METHODS.apiKeys) satisfies ApiKeyStore,
    audit: unavailableOnConnectionFailure(new PgAuditRepository(pool), STORE_METHODS.audit) satisfies AuditStore,
    idempotency: unavailableOnConnectionFailure(new PgIdempotencyRepository(pool), STORE_METHODS.idempotency) satisfies IdempotencyStore,
    jobCounts: async () => {
      try {
        return toJobCounts(await rows<{ kind: string; status: string; n: string }>(pool, JOB_COUNTS_SQL));
      } catch (e) {
        throw asUnavailable(e);
      }
    },
    isHealthy: () => healthy(pool),
    close: async () => {
      if (!pool.ended) await pool.end();
    },
  };
}

async function healthy(pool: pg.Pool): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), HEALTH_TIMEOUT_MS);
  });
  const probe = pool.query("SELECT 1").then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
