/** Builds the real app on a fresh SQLite file in a temp dir; the caller closes it. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/server/app.js";
import type { Config } from "../../src/server/config.js";
import { openDatabase } from "../../src/store/database.js";

export interface TestApp {
  app: FastifyInstance;
  dir: string;
  dbPath: string;
  close(): Promise<void>;
}

export async function testApp(config: Partial<Config> = {}, dir = mkdtempSync(join(tmpdir(), "xigua-test-"))): Promise<TestApp> {
  const dbPath = join(dir, "xigua.db");
  const app = await buildApp({ config: { dbPath, workers: 1, shutdownGraceMs: 2000, ...config }, logger: false });
  return {
    app,
    dir,
    dbPath,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A count straight from the test app's SQLite file, on a read-only connection of its own (the Store exposes no SQL). */
export function sqliteCount(dbPath: string, sql: string): number {
  const db = openDatabase(dbPath, { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

export function fixture(name: string): Buffer {
  return readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
}

export async function uploadCsv(app: FastifyInstance, name: string, csv: Buffer | string, query = ""): Promise<{ id: string; [k: string]: unknown }> {
  const res = await app.inject({ method: "POST", url: `/v1/datasets?name=${encodeURIComponent(name)}${query}`, headers: { "content-type": "text/csv" }, payload: csv });
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Polls a model or evaluation until it leaves queued/running. */
export async function waitFor(app: FastifyInstance, url: string, timeoutMs = 20_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.inject({ method: "GET", url });
    const body = res.json();
    if (body.status !== "queued" && body.status !== "running") return body;
    if (Date.now() > deadline) throw new Error(`${url} still ${body.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
