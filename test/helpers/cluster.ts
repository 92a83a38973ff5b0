/**
 * A multi-process xigua on loopback for tests and benches: N API processes
 * (src/server/main.ts) and M trainer processes (src/worker/main.ts) sharing one
 * store and one BullMQ queue, each a real child process under tsx.
 *
 *   test ──HTTP──▶ api-1, api-2 ──enqueue──▶ Redis queue (unique name) ──▶ trainer-1, trainer-2
 *                      │                                                        │
 *                      └──────────────▶ store (SQLite file | PostgreSQL schema) ◀┘
 *
 * Every cluster gets its own queue name and its own store (a temp SQLite file or
 * a fresh PostgreSQL schema), so test files running side by side share nothing;
 * stop() kills what is left, obliterates the queue and drops the store. A test
 * process that ends without stop() still takes its children with it: they are
 * killed on its 'exit' event or, when it is killed outright, kill themselves once
 * re-parented (exit-with-parent.mjs).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import pg from "pg";
import { redisConnection } from "../../src/training/queue/bullmq-queue.js";
import { freePort } from "./free-port.js";

const root = new URL("../../", import.meta.url);
const exitWithParent = new URL("./exit-with-parent.mjs", import.meta.url).href;

export const REDIS_URL = process.env.XIGUA_TEST_REDIS_URL || "redis://127.0.0.1:6379";
/** The server database test schemas are made in (trust auth on this machine). */
export const POSTGRES_URL = process.env.XIGUA_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** Where a cluster keeps its data: the one thing that differs between the two store backends. */
export type StoreTarget = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };
export type StoreKind = StoreTarget["kind"];

/** The store a cluster uses unless told otherwise: PostgreSQL (several processes is what it is for), or XIGUA_TEST_STORE=sqlite. */
export const defaultStoreKind: StoreKind = process.env.XIGUA_TEST_STORE === "sqlite" ? "sqlite" : "postgres";

/** The environment that points a process at the store; each backend's variable is cleared when the other is used. */
export function storeEnv(store: StoreTarget): Record<string, string> {
  return store.kind === "sqlite" ? { XIGUA_DB: store.path, XIGUA_DATABASE_URL: "" } : { XIGUA_DATABASE_URL: store.url };
}

export interface ProvisionedStore {
  target: StoreTarget;
  drop(): Promise<void>;
}

/** A fresh, empty store: a SQLite file in a new temp dir, or a new PostgreSQL schema (dropped with everything in it). */
export async function provisionStore(kind: StoreKind = defaultStoreKind): Promise<ProvisionedStore> {
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "xigua-cluster-"));
    return { target: { kind, path: join(dir, "xigua.db") }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `cluster_${process.pid}_${randomBytes(4).toString("hex")}`;
  await withPostgres((c) => c.query(`CREATE SCHEMA ${schema}`));
  const url = new URL(POSTGRES_URL);
  url.searchParams.set("schema", schema);
  return { target: { kind, url: url.toString() }, drop: () => withPostgres((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).then(() => undefined) };
}

async function withPostgres<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export type Role = "api" | "trainer";

export interface ClusterProcess {
  role: Role;
  /** api-1, trainer-2, …: names in failure messages. */
  name: string;
  child: ChildProcess;
  pid: number;
  /** API processes only: http://127.0.0.1:<port>. */
  base: string;
  /** Resolves when the process has exited, with how. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** stdout lines (pino JSON) and stderr text, for log checks and failure messages. */
  stdout: string[];
  stderr: string;
}

export interface ClusterOptions {
  apis: number;
  trainers: number;
  store?: StoreKind;
  /** Extra environment for every process (XIGUA_MODEL_CACHE, …). */
  env?: Record<string, string>;
  /** Log level of API processes; trainers log at info, which their log checks need. */
  apiLogLevel?: string;
}

const READY_TIMEOUT_MS = 60_000;
/** Kept per process: enough for any failure message, bounded for a long bench. */
const MAX_STDOUT_LINES = 20_000;
const MAX_STDERR_CHARS = 64 * 1024;

/** Every cluster process still alive in this test process, killed if it exits without stop(). */
const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

export class Cluster {
  readonly apis: ClusterProcess[] = [];
  readonly trainers: ClusterProcess[] = [];
  private readonly counts = { api: 0, trainer: 0 };
  private stopped = false;

  private constructor(
    readonly store: ProvisionedStore,
    readonly queueName: string,
    private readonly env: Record<string, string>,
    private readonly apiLogLevel: string,
  ) {}

  /**
   * The first API process starts alone (it creates the store's schema); the other
   * processes then start together. A failed start stops whatever did start.
   */
  static async start(options: ClusterOptions): Promise<Cluster> {
    const store = await provisionStore(options.store);
    const queueName = `xigua-test-${process.pid}-${randomBytes(4).toString("hex")}`;
    const env = {
      HOST: "127.0.0.1",
      XIGUA_QUEUE_URL: REDIS_URL,
      XIGUA_QUEUE_NAME: queueName,
      XIGUA_WORKERS: "1",
      XIGUA_COMPUTE_WORKERS: "1",
      XIGUA_JOB_LOCK_S: "2",
      XIGUA_SHUTDOWN_GRACE_S: "1",
      // Tests and benches send everything from one address; the limits are tested apart (test/api/access-limits.test.ts).
      XIGUA_RATE_PER_MINUTE: "1000000000",
      XIGUA_MAX_EVENT_LOOP_DELAY_MS: "0",
      ...storeEnv(store.target),
      ...options.env,
    };
    const cluster = new Cluster(store, queueName, env, options.apiLogLevel ?? "warn");
    try {
      if (options.apis > 0) await cluster.addApi();
      await Promise.all([
        ...Array.from({ length: options.apis - 1 }, () => cluster.addApi()),
        ...Array.from({ length: options.trainers }, () => cluster.addTrainer()),
      ]);
    } catch (e) {
      await cluster.stop();
      throw e;
    }
    return cluster;
  }

  /** Starts one more API process (env: settings of its own, over the cluster's) and waits for /health/ready. */
  async addApi(env: Record<string, string> = {}): Promise<ClusterProcess> {
    const port = await freePort();
    const p = this.spawn("api", "src/server/main.ts", { PORT: String(port), LOG_LEVEL: this.apiLogLevel, ...env }, `http://127.0.0.1:${port}`);
    this.apis.push(p);
    await this.waitReady(p, async () => {
      try {
        return (await fetch(`${p.base}/health/ready`)).ok;
      } catch {
        return false; // not listening yet
      }
    });
    return p;
  }

  /** Starts one more trainer process and waits for its "trainer ready" log line. */
  async addTrainer(): Promise<ClusterProcess> {
    const p = this.spawn("trainer", "src/worker/main.ts", { LOG_LEVEL: "info" }, "");
    this.trainers.push(p);
    await this.waitReady(p, async () => p.stdout.some((l) => l.includes('"trainer ready"')));
    return p;
  }

  /** kill -9, and wait until the process is gone. */
  async kill(p: ClusterProcess): Promise<void> {
    p.child.kill("SIGKILL");
    await p.exited;
  }

  /** Whether the process is still running. */
  alive(p: ClusterProcess): boolean {
    return live.has(p.child);
  }

  /** The parsed JSON log lines of a process (pino), skipping anything else it printed. */
  logs(p: ClusterProcess): Record<string, unknown>[] {
    return p.stdout.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  }

  /** What every process wrote to stderr, and how those that ended ended: for assertion messages. */
  report(): string {
    return [...this.apis, ...this.trainers]
      .map((p) => {
        const state = this.alive(p) ? "running" : `exited (${p.child.exitCode ?? p.child.signalCode})`;
        const errors = p.stdout.filter((l) => /"level":(50|60)/.test(l)).slice(-5);
        return [`${p.name} pid ${p.pid}: ${state}`, ...errors, p.stderr.trim().slice(-2000)].filter(Boolean).join("\n  ");
      })
      .join("\n");
  }

  /**
   * Ends every process (SIGTERM, then SIGKILL after a few seconds), obliterates the
   * queue and drops the store. Safe to call twice; never throws (cleanup of a failed test).
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.all(
      [...this.apis, ...this.trainers].filter((p) => this.alive(p)).map(async (p) => {
        p.child.kill("SIGTERM");
        const timer = setTimeout(() => p.child.kill("SIGKILL"), 3000);
        await p.exited;
        clearTimeout(timer);
      }),
    );
    const connection = redisConnection(REDIS_URL, { failFast: false });
    connection.on("error", () => {});
    const queue = new Queue(this.queueName, { connection });
    try {
      await queue.obliterate({ force: true });
    } catch (err) {
      console.error(`cluster: could not obliterate queue ${this.queueName}: ${(err as Error).message}`);
    } finally {
      await queue.close().catch(() => {});
      connection.disconnect();
    }
    await this.store.drop().catch((err) => console.error(`cluster: could not drop the store: ${(err as Error).message}`));
  }

  private spawn(role: Role, script: string, env: Record<string, string>, base: string): ClusterProcess {
    const name = `${role}-${++this.counts[role]}`;
    const child = spawn(process.execPath, ["--import", "tsx", "--import", exitWithParent, script], {
      cwd: root,
      env: { ...process.env, ...this.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    live.add(child);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => {
        live.delete(child);
        resolve({ code, signal });
      }),
    );
    const p: ClusterProcess = { role, name, child, pid: child.pid!, base, exited, stdout: [], stderr: "" };
    let partial = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop()!;
      p.stdout.push(...lines);
      if (p.stdout.length > MAX_STDOUT_LINES) p.stdout.splice(0, p.stdout.length - MAX_STDOUT_LINES);
    });
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      p.stderr = (p.stderr + chunk).slice(-MAX_STDERR_CHARS);
    });
    return p;
  }

  private async waitReady(p: ClusterProcess, ready: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(await ready())) {
      if (!this.alive(p)) throw new Error(`${p.name} exited before it was ready:\n${this.report()}`);
      if (Date.now() > deadline) throw new Error(`${p.name} was not ready after ${READY_TIMEOUT_MS / 1000} s:\n${this.report()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** One JSON request to an API process; the body parsed when it is JSON (problem+json included). */
export async function call<T = Record<string, unknown>>(base: string, method: string, path: string, body?: unknown): Promise<Reply<T>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": typeof body === "string" ? "text/csv" : "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  return { status: res.status, headers: res.headers, body: (type.includes("json") && text ? JSON.parse(text) : text) as T };
}
