/**
 * Bit-identity check for tree changes: sha-256 (first 16 hex digits) of the saved state, the
 * 10-fold / leave-one-out evaluation (per-row outcomes included) and the predictions of cart, c45
 * and id3 on movies.csv and the watermelon tables. Run before and after a change and diff:
 *
 *   node --import tsx bench/trees/state-hashes.ts > before.txt   # ≈ 20 s
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readCsv } from "../../src/data/read-csv.js";
import { summarizeColumn } from "../../src/data/summary.js";
import { learningData } from "../../src/training/dataset-view.js";
import { predictPipeline } from "../../src/training/pipeline.js";
import { resolveSpec } from "../../src/training/spec.js";
import { trainModel } from "../../src/training/train.js";

const fixture = (name: string): string => fileURLToPath(new URL(`../../test/fixtures/${name}`, import.meta.url));
const hooks = { progress: () => {}, signal: { aborted: false } } as never;
/** Timings and dates left out; typed arrays, maps and non-finite numbers written out so that they count. */
const replacer = (k: string, v: unknown): unknown => {
  if (/seconds|trained_?at|time/i.test(k)) return undefined;
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>);
  if (v instanceof Map) return [...v.entries()];
  if (v instanceof Set) return [...v];
  if (typeof v === "number" && !Number.isFinite(v)) return String(v);
  return v;
};

function run(file: string, target: string, features: string[] | null, algorithm: string, params: Record<string, unknown>, validation: unknown) {
  const frame = readCsv(readFileSync(fixture(file)), { maxCells: 1e8 });
  const dataset = { id: "d", row_count: frame.rowCount, columns: frame.columns.map(summarizeColumn) } as never;
  const feats = features ?? frame.columns.map((c: { name: string }) => c.name).filter((n: string) => n !== target && n !== "编号");
  const spec = resolveSpec({ target, algorithm, features: feats, params, validation, seed: 1 } as never, dataset, "train");
  const r = trainModel(frame, spec, hooks);
  const data = learningData(frame, spec.features, spec.target, spec.task, false);
  const pred = predictPipeline(spec.algorithm, r.model.pipeline, data.X);
  const h = (x: unknown) => createHash("sha256").update(JSON.stringify(x, replacer)).digest("hex").slice(0, 16);
  console.log(`${file} ${target} ${algorithm} ${JSON.stringify(params)}: state ${h(r.model.pipeline)} eval ${h(r.evaluation)} pred ${h(pred)}`);
}
const MF = ["US Gross", "Worldwide Gross", "US DVD Sales", "Production Budget", "MPAA Rating", "Running Time min", "Distributor", "Source", "Major Genre", "Creative Type", "Director", "Rotten Tomatoes Rating", "IMDB Votes"];
const kf = { method: "kfold", k: 10 };
run("movies.csv", "IMDB Rating", MF.filter((f) => f !== "IMDB Rating"), "cart", {}, kf);
run("movies.csv", "Major Genre", MF.filter((f) => f !== "Major Genre"), "cart", {}, kf);
run("movies.csv", "Major Genre", MF.filter((f) => f !== "Major Genre"), "c45", {}, kf);
run("movies.csv", "MPAA Rating", MF.filter((f) => f !== "MPAA Rating"), "cart", {}, kf);
run("movies.csv", "MPAA Rating", MF.filter((f) => f !== "MPAA Rating"), "c45", {}, kf);
for (const wm of ["watermelon-2.0.csv", "watermelon-3.0.csv", "watermelon-2.0-alpha.csv"]) {
  for (const a of ["cart", "c45", "id3"]) {
    try {
      run(wm, "好瓜", null, a, {}, { method: "loo" });
    } catch (e) {
      console.log(`${wm} ${a}: ${(e as Error).message}`);
    }
  }
}
