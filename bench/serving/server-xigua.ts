/**
 * The real xigua app listening on a port (for the serving benchmarks; prints "ready <port>").
 * SIGUSR2 prints the event-loop delay since the last SIGUSR2 ("eld <p99 ms> <max ms>") and resets it.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { buildApp } from "../../src/server/app.js";

// XIGUA_COMPUTE_WORKERS / XIGUA_WORKERS, when set, size the pools (bench/bayes-knn/knn-service.ts, bench/ensembles/rf-service.ts).
const sized = (name: string, key: "computeWorkers" | "workers") => (process.env[name] ? { [key]: Number(process.env[name]) } : {});
const app = await buildApp({ config: { dbPath: process.env.XIGUA_DB!, workers: 1, ratePerMinute: 1_000_000_000, ...sized("XIGUA_COMPUTE_WORKERS", "computeWorkers"), ...sized("XIGUA_WORKERS", "workers") }, logger: false });
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
process.on("SIGUSR2", () => {
  console.log(`eld ${(delay.percentile(99) / 1e6).toFixed(1)} ${(delay.max / 1e6).toFixed(1)}`);
  delay.reset();
});
console.log(`ready ${process.env.PORT}`);
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
