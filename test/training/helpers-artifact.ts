/** Trains a model in-process on a CSV table, as the worker does, for artifact tests. */
import { readCsv } from "../../src/data/read-csv.js";
import type { Frame } from "../../src/data/frame.js";
import { resolveSpec, type TrainRequest } from "../../src/training/spec.js";
import { trainModel, type TrainResult } from "../../src/training/train.js";

export function datasetColumns(frame: Frame) {
  return {
    row_count: frame.rowCount,
    columns: frame.columns.map((c) => (c.type === "numeric" ? { name: c.name, type: "numeric" as const } : { name: c.name, type: "categorical" as const, levels: [...c.levels] })),
  };
}

export function trainOn(csv: string, request: TrainRequest): TrainResult {
  const frame = readCsv(csv);
  const spec = resolveSpec({ validation: { method: "none" }, seed: 7, ...request }, datasetColumns(frame));
  return trainModel(frame, spec, { progress: () => {} });
}

/** A small table: two numeric features, one categorical, a three-class target (label), a two-class one (pair: hi or not) and a numeric one, a few missing cells. */
export function generatedTable(rows = 60): string {
  const lines = ["x1,x2,g,label,pair,y"];
  for (let i = 0; i < rows; i++) {
    const x1 = ((i * 37) % 23) / 4;
    const x2 = ((i * 11) % 17) / 3 - 2;
    const g = ["u", "v", "w"][i % 3];
    const label = x1 + x2 > 4 ? "hi" : x1 > 2 ? "mid" : "lo";
    const y = 2 * x1 - x2 + (i % 3) + ((i * 7) % 5) * 0.1;
    lines.push([i % 13 === 5 ? "" : x1, x2, i % 17 === 3 ? "" : g, label, label === "hi" ? "hi" : "not", y].join(","));
  }
  return `${lines.join("\n")}\n`;
}
