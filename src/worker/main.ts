/**
 * `xigua worker` (npm run worker): a trainer process. Takes jobs from the BullMQ
 * queue at XIGUA_QUEUE_URL, runs them on its own worker threads (XIGUA_WORKERS),
 * reads and writes the store at XIGUA_DATABASE_URL. Any number of these run
 * beside any number of API processes (`npm start` with the same two URLs).
 * SIGTERM/SIGINT: take no more jobs, give running ones XIGUA_SHUTDOWN_GRACE_S.
 */
import { pino } from "pino";
import { readConfig } from "../server/config.js";
import { Trainer } from "../training/queue/trainer.js";
import { loadRegistry } from "../models/lazy-registry.js";

const config = readConfig();
const log = pino({ level: config.logLevel, base: { role: "trainer", pid: process.pid } });

let trainer: Trainer;
try {
  // A trainer process is all training: it looks algorithms up from the start (models/lazy-registry.ts).
  await loadRegistry();
  trainer = await Trainer.start(config, log);
} catch (err) {
  log.error({ err }, "could not start");
  process.exit(1);
}
log.info({ queue: config.queueName, workers: config.workers }, "trainer ready");

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  log.info({ signal }, "shutting down");
  process.once(signal as NodeJS.Signals, () => process.exit(1));
  try {
    await trainer.close();
    process.exit(0);
  } catch (err) {
    log.error({ err }, "error during shutdown");
    process.exit(1);
  }
}
process.once("SIGTERM", () => void shutdown("SIGTERM"));
process.once("SIGINT", () => void shutdown("SIGINT"));
