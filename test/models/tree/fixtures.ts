/**
 * Test helpers: read the committed fixture CSVs (plain, unquoted) into Frames the
 * way the service does — numeric if every present value is a number, otherwise
 * categorical with sorted levels; "", "-", "?", "NA" are missing.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Column, Frame } from "../../../src/data/frame.js";
import { makeFrame, sortLevels, takeRows } from "../../../src/data/frame.js";
import type { FitContext, Target, TrainingSet } from "../../../src/models/contract.js";
import { createRng } from "../../../src/data/random.js";

const MISSING = new Set(["", "-", "?", "NA", "NaN"]);

export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));
}

export function readCsv(name: string): Frame {
  const text = readFileSync(fixturePath(name), "utf8").replace(/^\uFEFF/, "");
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0);
  const header = lines[0].split(",");
  const cells = lines.slice(1).map((l) => l.split(","));
  const columns: Column[] = header.map((name, j) => {
    const raw = cells.map((r) => r[j]);
    const present = raw.filter((v) => !MISSING.has(v));
    if (present.every((v) => Number.isFinite(Number(v)))) {
      return { type: "numeric", name, values: Float64Array.from(raw, (v) => (MISSING.has(v) ? NaN : Number(v))) };
    }
    const levels = sortLevels(present);
    const index = new Map(levels.map((l, i) => [l, i]));
    return { type: "categorical", name, levels, codes: Int32Array.from(raw, (v) => (MISSING.has(v) ? -1 : (index.get(v) as number))) };
  });
  return makeFrame(columns);
}

/** Splits a frame into features and target (dropping `drop` columns, e.g. the row id 编号). */
export function trainingSet(frame: Frame, target: string, drop: string[] = []): TrainingSet {
  const t = frame.columns.find((c) => c.name === target);
  if (!t) throw new Error(`no column ${target}`);
  const X = makeFrame(frame.columns.filter((c) => c.name !== target && !drop.includes(c.name)));
  let tg: Target;
  if (t.type === "categorical") tg = { task: "classification", y: t.codes, classes: [...t.levels] };
  else tg = { task: "regression", y: t.values };
  return { X, target: tg };
}

export function ctx(seed = 0): FitContext {
  return { rng: createRng(seed), progress: () => {} };
}

export function watermelon(version: "2.0" | "3.0" | "2.0-alpha"): TrainingSet {
  return trainingSet(readCsv(`watermelon-${version}.csv`), "好瓜", ["编号"]);
}

export interface RealData {
  readonly train: TrainingSet;
  readonly testX: Frame;
  readonly testTarget: Target;
  readonly meta: { floor: number; floor_max_depth_4: number; sklearn_tree_score: number; metric: "accuracy" | "r2" };
}

/** A scikit-learn dataset fixture split as scripts/fixtures/tree-datasets.py split it. */
export function realData(name: "iris" | "wine" | "breast-cancer" | "digits" | "diabetes"): RealData {
  const meta = JSON.parse(readFileSync(fixturePath(`${name}.meta.json`), "utf8"));
  let frame = readCsv(`${name}.csv`);
  if (meta.task === "classification") frame = asCategorical(frame, "target");
  const all = trainingSet(frame, "target");
  const isTest = new Uint8Array(frame.rowCount);
  for (const r of meta.test_rows as number[]) isTest[r] = 1;
  const trainRows: number[] = [];
  const testRows: number[] = [];
  for (let i = 0; i < frame.rowCount; i++) (isTest[i] ? testRows : trainRows).push(i);
  const sub = (rows: number[]): { X: Frame; target: Target } => {
    const X = takeRows(all.X, rows);
    const t = all.target as Target;
    const target: Target =
      t.task === "classification" ? { task: "classification", classes: t.classes, y: Int32Array.from(rows, (r) => t.y[r]) } : { task: "regression", y: Float64Array.from(rows, (r) => t.y[r]) };
    return { X, target };
  };
  const tr = sub(trainRows);
  const te = sub(testRows);
  return { train: { X: tr.X, target: tr.target }, testX: te.X, testTarget: te.target, meta };
}

function asCategorical(frame: Frame, name: string): Frame {
  return makeFrame(
    frame.columns.map((c): Column => {
      if (c.name !== name || c.type === "categorical") return c;
      const strings = Array.from(c.values, (v) => String(v));
      const levels = sortLevels(strings);
      const index = new Map(levels.map((l, i) => [l, i]));
      return { type: "categorical", name, levels, codes: Int32Array.from(strings, (s) => index.get(s) as number) };
    }),
  );
}

export function accuracy(labels: Int32Array, y: Int32Array): number {
  let ok = 0;
  for (let i = 0; i < y.length; i++) if (labels[i] === y[i]) ok++;
  return ok / y.length;
}

export function r2(pred: Float64Array, y: Float64Array): number {
  let mean = 0;
  for (const v of y) mean += v / y.length;
  let ssRes = 0;
  let ssTot = 0;
  for (let i = 0; i < y.length; i++) {
    ssRes += (y[i] - pred[i]) ** 2;
    ssTot += (y[i] - mean) ** 2;
  }
  return 1 - ssRes / ssTot;
}
