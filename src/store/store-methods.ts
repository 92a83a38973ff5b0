import type { ApiKeyStore, AuditStore, DatasetStore, EvaluationStore, IdempotencyStore, ModelStore, RegistryStore, SearchStore } from "./store.js";

/**
 * Every method of each repository interface, named once: both implementations wrap
 * their repository's methods by these lists (and `satisfies` checks that the result
 * is the whole interface), so a new method is one entry here plus one in each repository.
 */
export const STORE_METHODS = {
  datasets: ["insert", "removeIncomplete", "get", "summary", "list", "columns", "levels", "loadRows", "loadFrame", "delete"],
  models: [
    "insert",
    "insertImported",
    "get",
    "list",
    "servingState",
    "getArtifact",
    "markRunning",
    "setProgress",
    "succeed",
    "finishUnsuccessfully",
    "delete",
    "queued",
    "recover",
  ],
  registry: ["latestSucceeded", "byVersion", "byAlias", "list", "entry", "versions", "setAlias", "deleteAlias"],
  evaluations: ["insert", "get", "list", "fingerprint", "markRunning", "setProgress", "succeed", "finishUnsuccessfully", "queued", "recover"],
  searches: ["insertWithCandidates", "appendCandidate", "status", "candidateOutcome", "get", "list", "markRunning", "update", "succeed", "finishUnsuccessfully", "cancel", "recover"],
  apiKeys: ["insert", "get", "list", "revoke", "countActive"],
  audit: ["insert", "list"],
  idempotency: ["claim", "complete", "release", "purgeExpired"],
} as const satisfies {
  datasets: readonly (keyof DatasetStore)[];
  models: readonly (keyof ModelStore)[];
  registry: readonly (keyof RegistryStore)[];
  evaluations: readonly (keyof EvaluationStore)[];
  searches: readonly (keyof SearchStore)[];
  apiKeys: readonly (keyof ApiKeyStore)[];
  audit: readonly (keyof AuditStore)[];
  idempotency: readonly (keyof IdempotencyStore)[];
};
