/** The shared services every route reaches through `app.services`. */
import type { Store } from "../store/store.js";
import type { TrainingPool } from "../training/pool.js";
import type { JobQueue } from "../training/queue/job-queue.js";
import type { Config } from "./config.js";
import type { ComputePool } from "./compute/pool.js";
import type { ModelCache } from "./model-cache.js";
import type { NodeEvents } from "./node-events.js";
import type { ServiceMetrics } from "./metrics/service-metrics.js";

export interface Services {
  config: Config;
  store: Store;
  /** This process's training threads; null when jobs go to a BullMQ queue (XIGUA_QUEUE_URL) and trainer processes run them. */
  pool: TrainingPool | null;
  jobs: JobQueue;
  models: ModelCache;
  /** Request-scoped O(data) work (large predicts, feature scores), apart from the training pool. */
  compute: ComputePool;
  /** Cache invalidations sent to the other API processes of a deployment. */
  events: NodeEvents;
  /** Prometheus metrics (src/server/metrics/): the predict route counts predictions here. */
  metrics: ServiceMetrics;
}

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
  }
}
