/**
 * Where a fold chunk's time goes (issue 17's last row): the fixed part every worker of the
 * fold-parallel path repeats (read the spec and the table from the store, learning data,
 * split plan) against the folds themselves, for 10-fold CV of `cart` on 10,000 × 20 —
 * cv-workers.ts's data set and request, timed in one thread, phase by phase, as
 * worker.ts's "folds" task runs them.
 *
 *   node --import tsx bench/evaluation/cv-phases.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../../src/server/app.js";
import { createRng } from "../../src/data/random.js";
import { openStore } from "../../src/store/store.js";
import { resolveSpec } from "../../src/training/spec.js";
import { learningData } from "../../src/training/dataset-view.js";
import { planSplits, runFold } from "../../src/training/validate.js";

const ROWS = 10_000;
const FEATURES = 20;
const rng = createRng(0);
const lines = [[...Array.from({ length: FEATURES }, (_, j) => `x${j}`), "y"].join(",")];
for (let i = 0; i < ROWS; i++) {
  const x = Array.from({ length: FEATURES }, () => rng.normal());
  const score = x.slice(0, 10).reduce((s, v, j) => s + (j % 2 ? v : -v) * (1 + j / 10), 0) + rng.normal();
  lines.push([...x.map((v) => v.toFixed(6)), score > 0 ? "a" : "b"].join(","));
}
const dir = mkdtempSync(join(tmpdir(), "xigua-cv-phases-"));
const dbPath = join(dir, "cv.db");
const app = await buildApp({ config: { dbPath, workers: 1 }, logger: false });
const ds = (await app.inject({ method: "POST", url: "/v1/datasets?name=cv", headers: { "content-type": "text/csv" }, payload: lines.join("\n") + "\n" })).json();
const ev = (await app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: ds.id, algorithm: "cart", target: "y", validation: { method: "kfold", k: 10 }, seed: 0 } })).json();
while ((await app.inject({ url: `/v1/evaluations/${ev.id}` })).json().status !== "succeeded") await new Promise((r) => setTimeout(r, 50));

const { datasets, evaluations } = await openStore({ kind: "sqlite", path: dbPath }, { readonly: true });
const hooks = { progress: () => {} };
for (let round = 0; round < 3; round++) {
  const load = loadavg().map((v) => v.toFixed(2)).join(" ");
  const cpu0 = process.cpuUsage();
  const t: number[] = [performance.now()];
  const record = (await evaluations.get(ev.id))!;
  const [dataset, frame] = await Promise.all([datasets.get(record.dataset_id), datasets.loadFrame(record.dataset_id)]);
  t.push(performance.now());
  const spec = resolveSpec(record.spec as never, dataset!, "evaluate");
  const data = learningData(frame!, spec.features, spec.target, spec.task, spec.algorithm.accepts.unlabelled);
  const splits = planSplits(spec, data);
  t.push(performance.now());
  for (let i = 0; i < 5; i++) runFold(spec, data, splits[i], i, hooks, () => {});
  t.push(performance.now());
  const cpu = process.cpuUsage(cpu0);
  const ms = (a: number, b: number) => (t[b] - t[a]).toFixed(0);
  console.log(`round ${round}: read spec + table ${ms(0, 1)} ms, resolve + learning data + splits ${ms(1, 2)} ms, 5 folds ${ms(2, 3)} ms; CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms of ${ms(0, 3)} ms wall; load ${load}`);
}
await app.close();
rmSync(dir, { recursive: true, force: true });
