/**
 * What a fitted knn keeps: the training rows as the metric measures them
 * (row-major, see encode.ts), their targets, the search settings, and for vdm/hvdm
 * the fitted class-conditional tables. Checked on load like every state: lengths
 * agree with the declared shapes, and every number a prediction reads is finite
 * and in range.
 */
import { z } from "zod";
import { checkClasses, checkFinite, checkLength, checkUnique, columnSchema, f64, i32, structural, type Check } from "../state-schemas.js";
import { encodedWidth } from "./encode.js";
import { knnParams } from "./params.js";

const vdmTablesSchema = z.object({ levels: i32, offsets: i32, probs: f64, spread: f64 }).strict();

const common = {
  features: z.array(columnSchema),
  settings: knnParams,
  /** The training rows in the searched coordinates: encoded, and whitened under mahalanobis. */
  X: f64,
  /** mahalanobis: the whitening map, rank × encoded width (mahalanobis.ts); null for every other metric. */
  whitening: z.object({ W: f64, rank: z.int().min(1) }).strict().nullable().default(null),
};

export const knnState = z
  .discriminatedUnion("task", [
    z.object({ task: z.literal("classification"), classes: z.array(z.string()), y: i32, vdm: vdmTablesSchema.nullable(), ...common }).strict(),
    z.object({ task: z.literal("regression"), y: f64, ...common }).strict(),
  ])
  .superRefine(structural((s, report) => checkState(s, report)));
export type KnnState = z.infer<typeof knnState>;

function checkState(s: KnnState, report: Check): void {
  if (!checkUnique(s.features.map((f) => f.name), "feature", report, ["features"])) return;
  const codes = s.settings.metric === "vdm" || s.settings.metric === "hvdm";
  if (codes && s.task !== "classification") return report(`${s.settings.metric} needs a classification model`, ["settings", "metric"]);
  if (s.settings.metric === "vdm" && s.features.some((f) => f.type !== "categorical")) return report("vdm takes categorical features only", ["features"]);
  const width = encodedWidth(s.features, codes ? "codes" : "indicators");
  const n = s.y.length;
  if (n < s.settings.n_neighbors) return report(`${n} training rows, fewer than n_neighbors ${s.settings.n_neighbors}`, ["y"]);
  const mahalanobis = s.settings.metric === "mahalanobis";
  if (mahalanobis !== (s.whitening !== null)) return report(mahalanobis ? "mahalanobis needs its whitening map" : "a whitening map belongs to a mahalanobis model", ["whitening"]);
  if (s.whitening) {
    const { W, rank } = s.whitening;
    if (rank > width) return report(`whitening rank ${rank} exceeds the ${width} coordinates`, ["whitening", "rank"]);
    if (!checkLength(W, rank * width, "whitening.W", report, `rank ${rank} × ${width} coordinates`) || !checkFinite(W, "whitening.W", report)) return;
  }
  const searched = s.whitening ? s.whitening.rank : width;
  if (!checkLength(s.X, n * searched, "X", report, `${n} rows × ${searched} coordinates`) || !checkFinite(s.X, "X", report)) return;
  if (s.task === "regression") {
    checkFinite(s.y, "y", report);
    return;
  }
  if (!checkClasses(s.classes, report)) return;
  const K = s.classes.length;
  const bad = s.y.findIndex((c) => c < 0 || c >= K);
  if (bad >= 0) return report(`y[${bad}] is ${s.y[bad]}, not a class index below ${K}`, ["y", bad]);
  if (!codes) return s.vdm === null ? undefined : report("vdm tables belong to a vdm/hvdm model", ["vdm"]);
  if (s.vdm === null) return report(`${s.settings.metric} needs its fitted tables`, ["vdm"]);
  checkVdm(s, K, width, report);
}

function checkVdm(s: Extract<KnnState, { task: "classification" }>, K: number, width: number, report: Check): void {
  const t = s.vdm!;
  if (!checkLength(t.levels, width, "levels", report) || !checkLength(t.offsets, width, "offsets", report) || !checkLength(t.spread, width, "spread", report)) return;
  let size = 0;
  for (let j = 0; j < width; j++) {
    const f = s.features[j];
    const L = f.type === "categorical" ? f.levels.length : -1;
    if (t.levels[j] !== L) return report(`vdm.levels[${j}] is ${t.levels[j]}, the feature has ${L}`, ["vdm", "levels", j]);
    if (t.offsets[j] !== (L < 0 ? -1 : size)) return report(`vdm.offsets[${j}] does not follow the level counts`, ["vdm", "offsets", j]);
    if (L > 0) size += L * K;
  }
  if (!checkLength(t.probs, size, "probs", report) || !checkFinite(t.probs, "probs", report) || !checkFinite(t.spread, "spread", report)) return;
  if (t.probs.some((v) => v < 0 || v > 1)) return report("vdm.probs must lie in [0, 1]", ["vdm", "probs"]);
  if (t.spread.some((v) => v < 0)) return report("vdm.spread must not be negative", ["vdm", "spread"]);
  for (let i = 0; i < s.y.length; i++) {
    for (let j = 0; j < width; j++) {
      const v = s.X[i * width + j];
      if (t.levels[j] >= 0 && !(Number.isInteger(v) && v >= -1 && v < t.levels[j])) return report(`X[${i * width + j}] is not a level code of feature ${j}`, ["X", i * width + j]);
    }
  }
}
