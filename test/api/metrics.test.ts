/**
 * GET /metrics after known traffic: the Prometheus text is parsed (a small parser of
 * the exposition format below; prom-client has none) and the counters, histograms and
 * gauges checked against what the test did. Also: XIGUA_METRICS_PORT moves /metrics to
 * a port of its own, and two apps in one process keep separate registries.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { FastifyInstance } from "fastify";
import { testApp, waitFor, type TestApp } from "../helpers/app.js";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The exposition format's sample lines: name{label="value",…} value; # lines are comments (HELP/TYPE). */
export function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("#")) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type) types.set(type[1], type[2]);
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    const labelText = m[2] ?? "";
    const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
    let l: RegExpExecArray | null;
    let consumed = 0;
    while ((l = label.exec(labelText))) {
      labels[l[1]] = l[2].replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
      consumed = label.lastIndex;
    }
    assert.equal(consumed, labelText.length, `labels of ${line}`);
    // prom-client writes NaN as "Nan" (a gauge with no samples yet, e.g. event-loop lag right after start).
    const value = m[3] === "+Inf" ? Infinity : m[3] === "-Inf" ? -Infinity : /^nan$/i.test(m[3]) ? NaN : Number(m[3]);
    assert.ok(!Number.isNaN(value) || /^nan$/i.test(m[3]), `value of ${line}`);
    samples.push({ name: m[1], labels, value });
  }
  return { samples, types };
}

function find(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = find(samples, name, labels);
  assert.equal(found.length, 1, `one sample ${name} ${JSON.stringify(labels)}, got ${found.length}`);
  return found[0].value;
}

async function scrape(app: FastifyInstance) {
  const res = await app.inject({ url: "/metrics" });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(res.headers["content-type"] as string, /^text\/plain; version=0\.0\.4/);
  return parseExposition(res.body);
}

const rows = Array.from({ length: 40 }, (_, i) => ({ x: i, z: i % 7, y: i % 2 ? "a" : "b" }));

async function trainedModel(app: FastifyInstance): Promise<string> {
  const ds = await app.inject({ method: "POST", url: "/v1/datasets", payload: { name: "m", rows } });
  const model = await app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds.json().id, algorithm: "baseline", target: "y" } });
  assert.equal(model.statusCode, 202, model.body);
  const done = await waitFor(app, `/v1/models/${model.json().id}`);
  assert.equal(done.status, "succeeded");
  return model.json().id;
}

describe("after known traffic", () => {
  let t: TestApp;
  let first: string;
  let second: string;
  let baseline: Sample[];
  before(async () => {
    // One model named in the prediction counters; the next one counts as "other".
    t = await testApp({ metricsMaxModels: 1 });
    first = await trainedModel(t.app);
    second = await trainedModel(t.app);
    baseline = (await scrape(t.app)).samples;
    for (let i = 0; i < 5; i++) assert.equal((await t.app.inject({ method: "POST", url: `/v1/models/${first}/predict`, payload: { rows: [{ x: i, z: 1 }] } })).statusCode, 200);
    assert.equal((await t.app.inject({ method: "POST", url: `/v1/models/${first}/predict`, payload: { rows: [{ x: 1, z: 1 }, { x: 2, z: 2 }, { x: 3, z: 3 }] } })).statusCode, 200);
    // Over 256 KiB: parsed and predicted on the compute pool, its row count carried back.
    const big = { rows: Array.from({ length: 20_000 }, (_, i) => ({ x: i, z: i % 7 })) };
    assert.ok(JSON.stringify(big).length > 256 * 1024);
    const bigRes = await t.app.inject({ method: "POST", url: `/v1/models/${first}/predict`, payload: big });
    assert.equal(bigRes.statusCode, 200, bigRes.body.slice(0, 300));
    assert.equal((await t.app.inject({ method: "POST", url: `/v1/models/${second}/predict`, payload: { rows: [{ x: 1, z: 1 }, { x: 2, z: 2 }] } })).statusCode, 200);
    assert.equal((await t.app.inject({ url: "/v1/no/such/route/md_0123456789abcdef" })).statusCode, 404);
  });
  after(() => t?.close());

  test("predictions and predicted rows by model: N predicts → +N; rows summed; models past the cap count as other", async () => {
    const { samples, types } = await scrape(t.app);
    assert.equal(types.get("xigua_predictions_total"), "counter");
    assert.equal(value(samples, "xigua_predictions_total", { model: first, version: "" }), 7);
    assert.equal(value(samples, "xigua_predicted_rows_total", { model: first, version: "" }), 5 + 3 + 20_000);
    assert.equal(value(samples, "xigua_predictions_total", { model: "other", version: "" }), 1);
    assert.equal(value(samples, "xigua_predicted_rows_total", { model: "other", version: "" }), 2);
    assert.equal(find(baseline, "xigua_predictions_total").length, 0, "nothing before the first predict");
  });

  test("request duration histogram by route pattern, method and status: its count is the requests made", async () => {
    const { samples, types } = await scrape(t.app);
    assert.equal(types.get("xigua_http_request_duration_seconds"), "histogram");
    const predict = { route: "/v1/models/:id/predict", method: "POST", status: "200" };
    assert.equal(value(samples, "xigua_http_request_duration_seconds_count", predict), 8);
    const buckets = find(samples, "xigua_http_request_duration_seconds_bucket", predict);
    assert.equal(buckets.find((b) => b.labels.le === "+Inf")!.value, 8);
    for (let i = 1; i < buckets.length; i++) assert.ok(buckets[i].value >= buckets[i - 1].value, "cumulative buckets");
    assert.ok(value(samples, "xigua_http_request_duration_seconds_sum", predict) > 0);
    assert.equal(value(samples, "xigua_http_request_duration_seconds_count", { route: "/v1/datasets", method: "POST", status: "201" }), 2);
    assert.equal(value(samples, "xigua_http_request_duration_seconds_count", { route: "unmatched", method: "GET", status: "404" }), 1);
    const scrapes = value(samples, "xigua_http_request_duration_seconds_count", { route: "/metrics", method: "GET", status: "200" });
    assert.ok(scrapes >= 2, "earlier scrapes are requests too");
    for (const s of find(samples, "xigua_http_request_duration_seconds_count")) assert.doesNotMatch(s.labels.route, /md_|ds_|ev_/, "route patterns, never raw URLs");
  });

  test("jobs by kind and status, job duration by algorithm, queue and pools, the model cache", async () => {
    const { samples } = await scrape(t.app);
    assert.equal(value(samples, "xigua_jobs", { kind: "model", status: "succeeded" }), 2);
    assert.equal(value(samples, "xigua_jobs", { kind: "model", status: "failed" }), 0);
    assert.equal(value(samples, "xigua_jobs", { kind: "search", status: "queued" }), 0);
    assert.equal(value(samples, "xigua_job_duration_seconds_count", { algorithm: "baseline" }), 2);
    assert.equal(value(samples, "xigua_jobs_active"), 0);
    for (const pool of ["training", "compute"]) {
      assert.equal(value(samples, "xigua_pool_queue_depth", { pool }), 0);
      const utilization = value(samples, "xigua_pool_utilization", { pool });
      assert.ok(utilization >= 0 && utilization <= 1, `${pool} utilisation ${utilization}`);
    }
    assert.equal(value(samples, "xigua_pool_threads", { pool: "training" }), 1);
    assert.ok(value(samples, "xigua_pool_threads", { pool: "compute" }) >= 1, "the large predict started a compute thread");
    // Request thread: each model's first predict loads it (2 misses), the first model's 5 later small predicts hit;
    // the large body went to the compute pool unparsed, past this cache.
    assert.equal(value(samples, "xigua_model_cache_misses_total"), 2);
    assert.equal(value(samples, "xigua_model_cache_hits_total"), 5);
    assert.equal(value(samples, "xigua_model_cache_models"), 2);
    assert.ok(value(samples, "xigua_model_cache_bytes") > 0);
  });

  test("prom-client's process metrics, event-loop lag included", async () => {
    const { samples, types } = await scrape(t.app);
    assert.ok(value(samples, "process_resident_memory_bytes") > 0);
    assert.equal(types.get("nodejs_eventloop_lag_seconds"), "gauge");
    assert.ok(find(samples, "nodejs_eventloop_lag_p99_seconds").length === 1);
  });
});

test("two apps in one process keep separate registries", async () => {
  const a = await testApp();
  const b = await testApp();
  try {
    for (let i = 0; i < 3; i++) await a.app.inject({ url: "/health/live" });
    const count = async (app: FastifyInstance) => find((await scrape(app)).samples, "xigua_http_request_duration_seconds_count", { route: "/health/live" })[0]?.value ?? 0;
    assert.equal(await count(a.app), 3);
    assert.equal(await count(b.app), 0);
  } finally {
    await a.close();
    await b.close();
  }
});

test("XIGUA_METRICS_PORT: /metrics on its own port (text format), not on the API port", async () => {
  const t = await testApp({ metricsPort: 0, host: "127.0.0.1" });
  try {
    await t.app.ready();
    const port = t.app.services.metrics.port;
    assert.ok(port && port > 0);
    await t.app.inject({ url: "/health/live" });
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^text\/plain; version=0\.0\.4/);
    const { samples } = parseExposition(await res.text());
    assert.equal(value(samples, "xigua_http_request_duration_seconds_count", { route: "/health/live", method: "GET", status: "200" }), 1);
    assert.equal((await fetch(`http://127.0.0.1:${port}/other`)).status, 404);
    assert.equal((await t.app.inject({ url: "/metrics" })).statusCode, 404);
    await t.close();
    await assert.rejects(fetch(`http://127.0.0.1:${port}/metrics`), "closed with the app");
  } finally {
    await t.close();
  }
});

test("the exposition parser reads escapes, +Inf and timestamps, and refuses a malformed line", () => {
  const { samples } = parseExposition('a_total{x="q\\"uote",y="back\\\\slash"} 3\nb_bucket{le="+Inf"} 7 1700000000\nc +Inf\n');
  assert.deepEqual(samples, [
    { name: "a_total", labels: { x: 'q"uote', y: "back\\slash" }, value: 3 },
    { name: "b_bucket", labels: { le: "+Inf" }, value: 7 },
    { name: "c", labels: {}, value: Infinity },
  ]);
  assert.throws(() => parseExposition("not a sample\n"));
  assert.throws(() => parseExposition('a{x="1" 2\n'));
});
