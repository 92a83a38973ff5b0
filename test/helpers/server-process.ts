/** The real server as `npm start` runs it (from source under tsx), for the end-to-end tests. */
import { spawn, type ChildProcess } from "node:child_process";

const root = new URL("../../", import.meta.url);

/** Starts the server on 127.0.0.1:port with its SQLite file at dbPath; resolves once /health/ready answers. */
export async function startServer(dbPath: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", XIGUA_DB: dbPath, LOG_LEVEL: "warn", XIGUA_WORKERS: "1", XIGUA_RATE_PER_MINUTE: "1000000000", XIGUA_MAX_EVENT_LOOP_DELAY_MS: "0" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health/ready`)).ok) return child;
    } catch {
      /* not listening yet */
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error("server did not become ready");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGTERM (graceful shutdown); resolves with the exit code. */
export function stopServer(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}
