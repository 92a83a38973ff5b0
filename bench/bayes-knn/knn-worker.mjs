// Starts a worker thread of knn-bench.ts under tsx (a worker does not inherit the --import hook on Node 20).
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.module);
