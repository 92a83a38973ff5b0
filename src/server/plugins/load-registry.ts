/**
 * The main thread loads the algorithm registry and the training modules that use it
 * (training-modules.ts) with the first request that may look an algorithm up, not at start-up: ≈ 12 MiB less at rest, and
 * that one request waits ≈ 300 ms once. It is loaded before the route's own hooks and
 * validation (a preprocessing step's body schema checks estimator names), for every
 * route but those known never to need it, so that no handler can meet it unloaded.
 */
import type { FastifyInstance } from "fastify";
import { loadTrainingModules, trainingModulesLoaded } from "../training-modules.js";

/**
 * Route prefixes that never look an algorithm up: health, datasets (upload, rows, feature scores), the documents, metrics.
 * A route added under one of them that looked one up would find the registry unloaded and answer 500:
 * test/server/lazy-registry.test.ts calls every documented route under these prefixes with the registry unloaded.
 */
export const WITHOUT_ALGORITHMS = ["/health/", "/v1/datasets", "/openapi.json", "/docs", "/metrics"];

function needsAlgorithms(url: string | undefined): boolean {
  // No route (404, or a framework error): nothing will look one up.
  if (url === undefined) return false;
  return !WITHOUT_ALGORITHMS.some((prefix) => url.startsWith(prefix));
}

export function registerRegistryLoading(app: FastifyInstance): void {
  app.addHook("onRequest", (request, _reply, done) => {
    if (trainingModulesLoaded() || !needsAlgorithms(request.routeOptions.url)) return done();
    loadTrainingModules().then(() => done(), done);
  });
}
