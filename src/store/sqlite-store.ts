/**
 * The SQLite implementation of the async store interfaces (store.ts): today's
 * synchronous repositories over one better-sqlite3 connection, each method
 * wrapped to return a Promise. better-sqlite3 is synchronous, so a method's
 * work (and every transaction in it) runs to completion when it is called and
 * the Promise is already settled: no await ever sits inside a transaction, and
 * calls made in order reach the database in that order.
 */
import { openDatabase } from "./database.js";
import { STORE_METHODS } from "./store-methods.js";
import { DatasetRepository } from "./datasets.js";
import { EvaluationRepository } from "./evaluations.js";
import { ModelRepository } from "./models.js";
import { RegistryRepository } from "./registry.js";
import { SearchRepository } from "./searches.js";
import { ApiKeyRepository, AuditRepository } from "./access.js";
import type { ApiKeyStore, AuditStore, DatasetStore, EvaluationStore, IdempotencyStore, ModelStore, OpenStoreOptions, RegistryStore, SearchStore, Store } from "./store.js";
import { IdempotencyRepository } from "./idempotency.js";
import { JOB_COUNTS_SQL, toJobCounts } from "./job-counts.js";

type Promised<R, K extends keyof R> = { [P in K]: R[P] extends (...args: infer A) => infer T ? (...args: A) => Promise<T> : never };

/** The named methods of a synchronous repository, each returning a settled Promise (a throw becomes a rejection). */
function promised<R extends object, K extends keyof R>(repo: R, names: readonly K[]): Promised<R, K> {
  const out = {} as Record<K, unknown>;
  for (const name of names) {
    const fn = repo[name] as (...args: unknown[]) => unknown;
    out[name] = (...args: unknown[]) => {
      try {
        return Promise.resolve(fn.apply(repo, args));
      } catch (e) {
        return Promise.reject(e);
      }
    };
  }
  return out as Promised<R, K>;
}

export function openSqliteStore(path: string, options: OpenStoreOptions = {}): Store {
  const db = openDatabase(path, { readonly: options.readonly ?? false });
  if (options.cacheKib !== undefined) db.pragma(`cache_size = ${-Math.floor(options.cacheKib)}`);
  const evaluations = new EvaluationRepository(db);
  const models = new ModelRepository(db, evaluations);
  return {
    datasets: promised(new DatasetRepository(db), STORE_METHODS.datasets) satisfies DatasetStore,
    models: promised(models, STORE_METHODS.models) satisfies ModelStore,
    registry: promised(new RegistryRepository(db), STORE_METHODS.registry) satisfies RegistryStore,
    evaluations: promised(evaluations, STORE_METHODS.evaluations) satisfies EvaluationStore,
    searches: promised(new SearchRepository(db), STORE_METHODS.searches) satisfies SearchStore,
    apiKeys: promised(new ApiKeyRepository(db), STORE_METHODS.apiKeys) satisfies ApiKeyStore,
    audit: promised(new AuditRepository(db), STORE_METHODS.audit) satisfies AuditStore,
    idempotency: promised(new IdempotencyRepository(db), STORE_METHODS.idempotency) satisfies IdempotencyStore,
    jobCounts: async () => toJobCounts(db.prepare(JOB_COUNTS_SQL).all() as { kind: string; status: string; n: number }[]),
    isHealthy: async () => {
      try {
        return db.open && db.prepare("SELECT 1 AS ok").get() !== undefined;
      } catch {
        return false;
      }
    },
    close: async () => {
      if (db.open) db.close();
    },
  };
}
