/**
 * What a predict batch costs on the request thread, by rows, to choose INLINE_MAX_ROWS:
 * JSON.parse of the body, the fast validation, and predictJson (encode, predict,
 * serialise), for CART and logistic regression on breast cancer (30 features),
 * against the round trip of the same batch through the compute pool.
 *
 *   node --import tsx bench/serving/inline-cost.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../../src/server/app.js";
import { isWellFormedPredictBody } from "../../src/server/fast-validation.js";
import { predictJson } from "../../src/server/predict.js";
import type { PredictBody } from "../../src/server/schemas/models.js";
import { breastCancerCsv, breastCancerRows } from "./harness.js";

const dir = mkdtempSync(join(tmpdir(), "xigua-bench-"));
const app = await buildApp({ config: { dbPath: join(dir, "b.db"), workers: 1, ratePerMinute: 1_000_000_000 }, logger: false });
const ds = (await app.inject({ method: "POST", url: "/v1/datasets?name=bc", headers: { "content-type": "text/csv" }, payload: breastCancerCsv })).json().id;

async function train(algorithm: string): Promise<string> {
  const id = (await app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds, algorithm, target: "target", seed: 0, validation: { method: "none" } } })).json().id;
  for (;;) {
    const m = (await app.inject({ url: `/v1/models/${id}` })).json();
    if (m.status === "succeeded") return id;
    if (m.status !== "queued" && m.status !== "running") throw new Error(JSON.stringify(m));
    await new Promise((r) => setTimeout(r, 50));
  }
}

function median(f: () => void, repeats: number): number {
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(repeats / 2)];
}

console.log("algorithm              rows   body KiB   parse ms  validate ms  predict+serialise ms   pool round trip ms");
for (const algorithm of ["cart", "logistic_regression"]) {
  const id = await train(algorithm);
  const { models, compute } = app.services;
  const serving = (await models.servingState(id))!;
  const model = (await models.get(id, serving.sha256!))!;
  for (const n of [1, 100, 1000, 5000]) {
    const text = JSON.stringify({ rows: breastCancerRows(n) });
    const body = JSON.parse(text) as PredictBody;
    const repeats = n >= 1000 ? 21 : 201;
    const parse = median(() => JSON.parse(text), repeats);
    const validate = median(() => isWellFormedPredictBody(body), repeats);
    const predict = median(() => predictJson(id, model, body), repeats);
    // As the route sends a batch that needs the pool: its bytes, moved (parsed again there).
    const blocks = () => ({ blocks: [new Uint8Array(Buffer.from(text))] });
    await compute.predict(id, serving.sha256!, 1e6, blocks()); // warm the thread and its cache
    const times: number[] = [];
    for (let i = 0; i < 11; i++) {
      const t0 = performance.now();
      await compute.predict(id, serving.sha256!, 1e6, blocks());
      times.push(performance.now() - t0);
    }
    const pool = times.sort((a, b) => a - b)[5];
    console.log(
      [algorithm.padEnd(20), String(n).padStart(6), (text.length / 1024).toFixed(0).padStart(10), parse.toFixed(2).padStart(10), validate.toFixed(2).padStart(12), predict.toFixed(2).padStart(21), pool.toFixed(2).padStart(20)].join(" "),
    );
  }
}
await app.close();
rmSync(dir, { recursive: true, force: true });
