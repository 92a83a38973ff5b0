/**
 * SQLite only: the synchronous repositories over a connection a thread opens
 * itself from the database path. For the training worker (src/training/worker.ts)
 * and the compute worker (src/server/compute/worker.ts), which run on their own
 * threads and cannot share the main thread's connection. Everything else goes
 * through the async Store (store.ts). Issue 16's next step changes how trainers
 * read their inputs (from a store of their own, PostgreSQL included), and then
 * this entry point goes away.
 */
export { openDatabase, type Db } from "./database.js";
export { DatasetRepository } from "./datasets.js";
export { EvaluationRepository } from "./evaluations.js";
export { ModelRepository } from "./models.js";
