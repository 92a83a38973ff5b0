/**
 * PostgreSQL restarted under load (issue 16): 2 API processes and a trainer on a
 * PostgreSQL store while clients keep listing, reading, predicting, uploading and
 * training through both APIs. Every request in flight during the restart must end
 * cleanly (2xx, or 4xx/5xx problem+json: no hang, no dropped connection, no
 * crash), requests after it succeed, and nothing acknowledged is lost.
 *
 * It restarts the machine's PostgreSQL server, which every other user of it sees:
 * scripts/run-tests.mjs runs test/cluster one file at a time, after everything else.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { Cluster, call, type Reply } from "../helpers/cluster.js";

const WATERMELON = readFileSync(new URL("../fixtures/watermelon-3.0.csv", import.meta.url), "utf8");
const TARGET = "好瓜";
const ROW = { 色泽: "青绿", 根蒂: "蜷缩", 敲声: "浊响", 纹理: "清晰", 脐部: "凹陷", 触感: "硬滑", 密度: 0.697, 含糖率: 0.46 };
/** A request slower than this during the restart counts as a hang. */
const REQUEST_TIMEOUT_MS = 15_000;
const WAIT_MS = 60_000;

/** "15 main": the version and name of the local cluster (pg_ctlcluster's arguments); XIGUA_TEST_PG_CLUSTER overrides. */
function postgresCluster(): [string, string] | null {
  const given = process.env.XIGUA_TEST_PG_CLUSTER?.split(" ");
  if (given?.length === 2) return [given[0], given[1]];
  if (!existsSync("/etc/postgresql")) return null;
  const version = readdirSync("/etc/postgresql").sort().at(-1);
  return version && existsSync(`/etc/postgresql/${version}/main`) ? [version, "main"] : null;
}

const pgCluster = postgresCluster();
const skip = !existsSync(new URL("../../src/store/postgres/", import.meta.url))
  ? "no PostgreSQL store in this checkout (src/store/postgres/)"
  : !pgCluster
    ? "no local PostgreSQL cluster to restart (set XIGUA_TEST_PG_CLUSTER='<version> <name>')"
    : false;

interface Model {
  id: string;
  status: string;
  error?: { code: string };
}

type Outcome = { what: string; status: number; problem: boolean } | { what: string; error: string };

/** One request, bounded; what came back (or how it broke). */
async function attempt(what: string, request: () => Promise<Reply>): Promise<Outcome & { reply?: Reply }> {
  try {
    const reply = await Promise.race([request(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${REQUEST_TIMEOUT_MS / 1000} s`)), REQUEST_TIMEOUT_MS).unref())]);
    return { what, status: reply.status, problem: (reply.headers.get("content-type") ?? "").startsWith("application/problem+json"), reply };
  } catch (e) {
    return { what, error: (e as Error).message };
  }
}

async function countAll(base: string, path: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Reply<{ items: { id: string }[]; next_cursor: string | null }> = await call(base, "GET", `${path}?limit=500${cursor ? `&cursor=${cursor}` : ""}`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    ids.push(...page.body.items.map((i) => i.id));
    cursor = page.body.next_cursor;
  } while (cursor);
  return ids.sort();
}

describe("PostgreSQL restarted while 2 APIs and a trainer serve", { skip, timeout: 180_000 }, () => {
  let cluster: Cluster;
  let datasetId: string;
  let modelId: string;

  before(async () => {
    cluster = await Cluster.start({ apis: 2, trainers: 1, store: "postgres" });
    const base = cluster.apis[0].base;
    const upload = await call<{ id: string }>(base, "POST", "/v1/datasets?name=wm3", WATERMELON);
    assert.equal(upload.status, 201, JSON.stringify(upload.body));
    datasetId = upload.body.id;
    const model = await call<Model>(base, "POST", "/v1/models", { dataset_id: datasetId, algorithm: "cart", target: TARGET, seed: 0 });
    modelId = model.body.id;
    for (let m = model.body; m.status !== "succeeded"; m = (await call<Model>(base, "GET", `/v1/models/${modelId}`)).body) {
      assert.ok(m.status === "queued" || m.status === "running", JSON.stringify(m));
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  after(() => cluster?.stop());

  it("in-flight requests fail cleanly, later ones succeed, nothing acknowledged is lost", async (t) => {
    const [a, b] = cluster.apis.map((p) => p.base);
    const datasetsBefore = await countAll(a, "/v1/datasets");
    const modelsBefore = await countAll(b, "/v1/models");

    // Clients on both APIs, one request of each kind at a time, until told to stop.
    const outcomes: Outcome[] = [];
    const created = { datasets: [] as string[], models: [] as string[] };
    let running = true;
    const client = async (base: string, seed: number) => {
      for (let i = 0; running; i++) {
        const kind = i % 5;
        const o =
          kind === 0
            ? await attempt("list models", () => call(base, "GET", "/v1/models?limit=20"))
            : kind === 1
              ? await attempt("get model", () => call(base, "GET", `/v1/models/${modelId}`))
              : kind === 2
                ? await attempt("predict", () => call(base, "POST", `/v1/models/${modelId}/predict`, { rows: [ROW] }))
                : kind === 3
                  ? await attempt("train", () => call(base, "POST", "/v1/models", { dataset_id: datasetId, algorithm: "cart", target: TARGET, seed: seed + i }))
                  : await attempt("upload", () => call(base, "POST", `/v1/datasets?name=up${seed + i}`, WATERMELON));
        outcomes.push(o);
        if ("status" in o && o.reply && (o.status === 201 || o.status === 202)) (kind === 3 ? created.models : created.datasets).push((o.reply.body as { id: string }).id);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const clients = [client(a, 1000), client(b, 2000)];
    await new Promise((r) => setTimeout(r, 1000));
    const [version, name] = pgCluster!;
    execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, name, "restart"], { stdio: "inherit", timeout: 60_000 });
    await new Promise((r) => setTimeout(r, 3000));
    running = false;
    await Promise.all(clients);

    const broken = outcomes.filter((o) => "error" in o || (o.status >= 400 && !o.problem));
    assert.deepEqual(broken, [], `requests that hung, dropped or answered without problem+json:\n${cluster.report()}`);
    const failed = outcomes.filter((o) => "status" in o && o.status >= 400);
    for (const p of [...cluster.apis, ...cluster.trainers]) assert.ok(cluster.alive(p), `${p.name} died:\n${cluster.report()}`);

    // After the restart: once an API reports ready again (as a load balancer would wait), every kind of request succeeds on it.
    for (const base of [a, b]) {
      const deadline = Date.now() + WAIT_MS;
      while ((await call(base, "GET", "/health/ready")).status !== 200) {
        assert.ok(Date.now() < deadline, `${base} not ready ${WAIT_MS / 1000} s after the restart:\n${cluster.report()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal((await call(base, "GET", `/v1/models/${modelId}`)).status, 200);
      assert.equal((await call(base, "POST", `/v1/models/${modelId}/predict`, { rows: [ROW] })).status, 200);
      assert.equal((await call(base, "POST", "/v1/datasets?name=after", WATERMELON)).status, 201);
    }
    const next = await call<Model>(a, "POST", "/v1/models", { dataset_id: datasetId, algorithm: "cart", target: TARGET, seed: 9 });
    assert.equal(next.status, 202, JSON.stringify(next.body));
    created.models.push(next.body.id);

    // Nothing lost: every acknowledged dataset and model is there, and every accepted job ends.
    const datasetsAfter = await countAll(b, "/v1/datasets");
    const modelsAfter = await countAll(a, "/v1/models");
    for (const id of [...datasetsBefore, ...created.datasets]) assert.ok(datasetsAfter.includes(id), `dataset ${id} lost`);
    for (const id of [...modelsBefore, ...created.models]) assert.ok(modelsAfter.includes(id), `model ${id} lost`);
    const deadline = Date.now() + WAIT_MS;
    for (const id of created.models) {
      let m: Model;
      while ((m = (await call<Model>(b, "GET", `/v1/models/${id}`)).body).status === "queued" || m.status === "running") {
        assert.ok(Date.now() < deadline, `model ${id} still ${m.status} ${WAIT_MS / 1000} s after the restart:\n${cluster.report()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    assert.equal((await call<Model>(b, "GET", `/v1/models/${next.body.id}`)).body.status, "succeeded");
    const kinds = new Map<string, number>();
    for (const o of failed) if ("status" in o) kinds.set(`${o.what} ${o.status}`, (kinds.get(`${o.what} ${o.status}`) ?? 0) + 1);
    t.diagnostic(`${outcomes.length} requests, ${failed.length} failed cleanly (${[...kinds].map(([k, n]) => `${k}: ${n}`).join(", ")}); ${created.models.length} jobs, ${created.datasets.length} datasets acknowledged`);
  });
});
