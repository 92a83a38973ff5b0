/**
 * The real xigua app in its own process for the robustness bench, so the loop
 * delay measured here is the server's alone (the bench's clients run elsewhere).
 * Talks to its parent over IPC only: no bench route is added to the app.
 *
 *   parent ──{reset}──▶ histogram cleared
 *   parent ──{read}───▶ {delay: max/p99 ms beyond the timer's own interval}
 *   parent ──{stop}───▶ app closed, process exits
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { buildApp } from "../../src/server/app.js";

/** The histogram's samples are whole timer intervals; this is subtracted to report lateness. */
const RESOLUTION_MS = 1;

const app = await buildApp({ config: { dbPath: process.env.XIGUA_DB!, logLevel: "silent", ratePerMinute: 1_000_000_000 }, logger: false });
await app.listen({ port: 0, host: "127.0.0.1" });
const address = app.server.address();
const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
loop.enable();

const late = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);

process.on("message", (message: { type: string }) => {
  if (message.type === "reset") {
    loop.reset();
    process.send!({ type: "reset" });
  } else if (message.type === "read") {
    process.send!({ type: "delay", max: late(loop.max), p99: late(loop.percentile(99)) });
  } else if (message.type === "stop") {
    void app.close().then(() => process.exit(0));
  }
});
// The bench died: do not outlive it.
process.on("disconnect", () => void app.close().then(() => process.exit(0)));
process.send!({ type: "ready", port: typeof address === "object" && address ? address.port : 0, workers: app.services.config.workers });
