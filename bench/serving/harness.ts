/** Shared by the serving benchmarks: servers in their own processes, a CART model on breast cancer, autocannon. */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

const root = new URL("../../", import.meta.url);

export function startServer(script: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: root, env: { ...process.env, PORT: String(port), ...env }, stdio: ["ignore", "pipe", "inherit"] });
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("ready") && resolve(child));
    child.once("exit", (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

export async function stopServer(child: ChildProcess): Promise<void> {
  await new Promise((r) => {
    child.removeAllListeners("exit");
    child.once("exit", r);
    child.kill("SIGTERM");
  });
}

/** The server's event-loop delay since the last call, in ms (server-xigua.ts answers SIGUSR2). */
export function eventLoopDelay(child: ChildProcess): Promise<{ p99: number; max: number }> {
  return new Promise((resolve) => {
    const onData = (d: Buffer) => {
      const m = /eld ([\d.]+) ([\d.]+)/.exec(d.toString());
      if (!m) return;
      child.stdout!.off("data", onData);
      resolve({ p99: Number(m[1]), max: Number(m[2]) });
    };
    child.stdout!.on("data", onData);
    child.kill("SIGUSR2");
  });
}

export const breastCancerCsv = readFileSync(new URL("../../test/fixtures/breast-cancer.csv", import.meta.url));

/** Feature rows of breast cancer (the first 30 columns), cycled to n rows. */
export function breastCancerRows(n: number): Record<string, number>[] {
  const lines = breastCancerCsv.toString().trim().split("\n");
  const header = lines[0].split(",").slice(0, 30);
  const data = lines.slice(1).map((l) => l.split(",").slice(0, 30).map(Number));
  return Array.from({ length: n }, (_, i) => Object.fromEntries(header.map((h, j) => [h, data[i % data.length][j]])));
}

/** Uploads a CSV body as a dataset; its id. */
export async function uploadDataset(base: string, name: string, csv: string | Buffer): Promise<string> {
  const ds = (await (await fetch(`${base}/v1/datasets?name=${name}`, { method: "POST", headers: { "content-type": "text/csv" }, body: csv })).json()) as { id: string };
  return ds.id;
}

/** POST /v1/models with `spec`, then polls until the job ends; the succeeded model (throws on any other outcome). */
export async function trainModel(base: string, spec: Record<string, unknown>, pollMs = 50): Promise<{ id: string; status: string; fit_seconds?: number }> {
  type Model = { id: string; status: string; fit_seconds?: number };
  let model = (await (await fetch(`${base}/v1/models`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(spec) })).json()) as Model;
  while (model.status === "queued" || model.status === "running") {
    await new Promise((r) => setTimeout(r, pollMs));
    model = (await (await fetch(`${base}/v1/models/${model.id}`)).json()) as Model;
  }
  if (model.status !== "succeeded") throw new Error(JSON.stringify(model));
  return model;
}

/** Uploads breast cancer and trains a CART on it; the model's predict URL. */
export async function trainCart(base: string): Promise<string> {
  const datasetId = await uploadDataset(base, "bc", breastCancerCsv);
  const model = await trainModel(base, { dataset_id: datasetId, algorithm: "cart", target: "target", seed: 0 });
  return `${base}/v1/models/${model.id}/predict`;
}

export async function load(url: string, body: string, duration: number, connections = 20) {
  const result = await autocannon({ url, method: "POST", connections, duration, headers: { "content-type": "application/json" }, body });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, total: result.requests.total };
}

/** CPU time (user + system, all threads) a process has used so far, in µs (Linux /proc; clock ticks of 10 ms). */
export function processCpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * `load` plus the server's CPU µs per request: on a shared machine the request rate moves with
 * everyone else's load, while the server's own CPU time per request moves much less.
 */
export async function loadWithCpu(server: ChildProcess, url: string, body: string, duration: number, connections = 20) {
  const before = processCpuMicros(server.pid!);
  const result = await load(url, body, duration, connections);
  return { ...result, cpuMicros: (processCpuMicros(server.pid!) - before) / result.total };
}
