/**
 * Entry point: read config, build, listen; on SIGTERM/SIGINT stop accepting,
 * let in-flight requests finish, give running jobs the grace period, close.
 */
// The only static import: it must run before the server's modules are even loaded (loading them allocates too).
import { endStartup } from "./startup-heap.js";

const { buildApp } = await import("./app.js");
const { checkOpenAccess, readConfig } = await import("./config.js");

const config = readConfig();
checkOpenAccess(config);
const app = await buildApp({ config });

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, "shutting down");
  // A second signal while draining means "now".
  process.once(signal as NodeJS.Signals, () => process.exit(1));
  try {
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, "error during shutdown");
    process.exit(1);
  }
}
process.once("SIGTERM", () => void shutdown("SIGTERM"));
process.once("SIGINT", () => void shutdown("SIGINT"));

try {
  endStartup();
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  app.log.error({ err }, "could not start");
  await app.close().catch(() => {});
  process.exit(1);
}
