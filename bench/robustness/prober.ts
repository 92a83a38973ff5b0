/**
 * Concurrent single-row predicts in their own process (so the bench's big
 * requests and responses in the parent do not delay them): CONNECTIONS loops,
 * each sending one request every PACE_MS at most, latencies kept between a
 * "start" and a "stop" message over IPC. Ends when told, when the parent goes,
 * or after MAX_LIFETIME_MS.
 */

const CONNECTIONS = 4;
const PACE_MS = 10;
const MAX_LIFETIME_MS = 10 * 60_000;

const url = process.env.PROBE_URL!;
const body = process.env.PROBE_BODY!;
let latencies: number[] = [];
let failures = 0;
let running = true;
const deadline = Date.now() + MAX_LIFETIME_MS;

async function loop(): Promise<void> {
  while (running && Date.now() < deadline) {
    const start = performance.now();
    try {
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
      await res.arrayBuffer();
      if (res.ok) latencies.push(performance.now() - start);
      else failures++;
    } catch {
      failures++;
    }
    const wait = PACE_MS - (performance.now() - start);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}

process.on("message", (message: { type: string }) => {
  if (message.type === "start") {
    latencies = [];
    failures = 0;
    process.send!({ type: "started" });
  } else if (message.type === "stop") {
    process.send!({ type: "stopped", latencies, failures });
  } else if (message.type === "exit") {
    running = false;
  }
});
process.on("disconnect", () => (running = false));
await Promise.all(Array.from({ length: CONNECTIONS }, loop));
process.exit(0);
